"""The app in two zips (boot/build/app_zip.py): app.zip holds what the page's script reaches, and
the page runs from it alone; app-more.zip holds the rest, which becomes importable once the page
mounts it (py/webui/browser/boot/more.py). Each ships gzipped whole. Checked natively on the
sources zipped as the build zips them, unpacked as the page unpacks them, in a Python that has
only the zips on its path."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from browserfakes import STAND_INS

ROOT = Path(__file__).resolve().parents[1]
PY = ROOT / "py"
STDLIB = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
"""The runtime's whole standard library, where the build takes `html` from."""
sys.path.insert(0, str(ROOT / "boot" / "build"))

from app_zip import (  # noqa: E402
    FIRST_SCREEN, MANIFEST, AppZipError, gzip_whole, lazy_table, split_app, zip_packages,
)
from trim_stdlib import ENTRIES, app_modules  # noqa: E402

# Run in a Python whose path has the standard library and app.zip, not py/; the browser's
# modules stood in for.
# Prints what could be imported before and after mounting app-more.zip.
PAGE = STAND_INS + """
import importlib, json, sys
app, more = sys.argv[1:3]
sys.path.insert(0, app)

def importable(names):
    found = {}
    for name in names:
        try:
            found[name] = importlib.import_module(name).__file__.startswith((app, more))
        except ImportError:
            found[name] = False
    return found

NAMES = ["webui.browser.app", "webui.match.controller", "lostcities.bots",
         "webui.browser.plugins", "lostcities.fair.peer", "webui.online.lobby",
         "webui.features.stats", "webui.text.player_text"]
before = importable(NAMES)
import html  # as PyScript's package does: from app.zip, without its entity table
lazy = [html.__file__.startswith(app), "html.entities" in sys.modules, html.escape("<&>")]
from webui.browser.boot.more import mount
packages = mount(more)
mount(more)  # again: nothing is added twice
import webui.browser.plugins
with_plugins = sorted(sys.modules)
paths = {name: importlib.import_module(name).__path__ for name in packages}
lazy += ["html.entities" in sys.modules, html.unescape("caf&eacute; &amp; &#62;"),
         sys.modules["html.entities"].__file__.startswith(more)]
print(json.dumps([before, importable(NAMES), packages, paths, with_plugins, lazy]))
"""


@pytest.fixture(scope="module")
def zips(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    """app.zip and app-more.zip split from the sources (shipped gzipped, unpacked here as the
    page unpacks them), and the packages MANIFEST names."""
    folder = tmp_path_factory.mktemp("split")
    zip_packages(PY, STDLIB, folder / "sources.zip")
    packages = split_app(folder / "sources.zip", app_modules(PY, FIRST_SCREEN)[0],
                         folder / "app.zip.gz", folder / "app-more.zip.gz")
    for name in ("app.zip", "app-more.zip"):
        (folder / name).write_bytes(gzip.decompress((folder / f"{name}.gz").read_bytes()))
    return folder / "app.zip", folder / "app-more.zip", packages


def test_the_page_runs_from_app_zip_and_mounts_the_rest(
    zips: tuple[Path, Path, list[str]],
) -> None:
    app, more, packages = zips
    result = subprocess.run([sys.executable, "-I", "-c", PAGE, str(app), str(more)],
                            capture_output=True, text=True, timeout=60, cwd=app.parent)
    assert result.returncode == 0, result.stderr
    before, after, mounted, paths, with_plugins, lazy = json.loads(result.stdout)
    assert before == {"webui.browser.app": True, "webui.match.controller": True,
                      "lostcities.bots": False, "webui.browser.plugins": False,
                      "lostcities.fair.peer": False, "webui.online.lobby": False,
                      "webui.features.stats": False, "webui.text.player_text": False}
    assert all(after.values()), after
    assert mounted == packages
    assert {"lostcities", "webui", "webui.online", "webui.browser", "html"} <= set(packages)
    # `html` escapes without its entity table, which comes with app-more.zip and is imported
    # when unescaping first needs it
    assert lazy == [True, False, "&lt;&amp;&gt;", False, "café & >", True]
    for name, path in paths.items():
        assert path[1:] == [f"{more}/{name.replace('.', '/')}"]  # once, after app.zip's
    # Importing the plug-ins imports every module of app-more.zip the page can reach, so a
    # page whose boot snapshot holds the plug-ins needs the zip for nothing (webui.browser.app
    # lets its clicks through before the zip is written again).
    with zipfile.ZipFile(more) as rest:
        in_more = {name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
                   for name in rest.namelist() if name.endswith(".py")}
    reachable = in_more & app_modules(PY, ENTRIES)[0]
    assert "lostcities.fair.peer" in reachable
    assert sorted(reachable - set(with_plugins)) == []


def test_the_split_puts_what_the_first_screen_reaches_first(
    zips: tuple[Path, Path, list[str]],
) -> None:
    app, more, packages = zips
    with zipfile.ZipFile(app) as first, zipfile.ZipFile(more) as rest:
        first_names, more_names = set(first.namelist()), set(rest.namelist())
        manifest = rest.read(MANIFEST).decode().split()
    assert manifest == packages and first_names.isdisjoint(more_names)
    assert {"lostcities/engine.py", "webui/match/controller.py", "webui/online/codes.py",
            "webui/browser/boot/more.py"} <= first_names
    assert {"lostcities/fair/__init__.py", "webui/online/seat.py", "webui/features/history.py",
            "webui/browser/plugins.py", "html/entities.py"} <= more_names
    assert "html/__init__.py" in first_names
    # Everything app-more.zip holds that the page uses is reached from the plug-ins, which the
    # stdlib's trim scans too (its ENTRIES).
    page = app_modules(PY, ENTRIES)[0]
    assert "webui.browser.plugins" in page and "lostcities.fair.peer" in page


def test_each_zip_ships_as_stored_entries_gzipped_whole(
    zips: tuple[Path, Path, list[str]], tmp_path: Path,
) -> None:
    # One gzip stream over stored entries (the modules compress together, smaller than each
    # entry deflated alone), and the same sources give the same bytes. The page's unpacking,
    # and of a zip a host sent decoded: e2e/test_app_more.py.
    for path in zips[:2]:
        with zipfile.ZipFile(path) as zf:
            assert {info.compress_type for info in zf.infolist()} == {zipfile.ZIP_STORED}
        # a gzip member with no time and no file name in its header: nothing of the build's
        # moment goes in (a rebuild within the same second would not show a time)
        header = path.with_name(path.name + ".gz").read_bytes()[:10]
        assert header[:4] == b"\x1f\x8b\x08\x00" and header[4:8] == bytes(4), header
    zip_packages(PY, STDLIB, tmp_path / "sources.zip")
    split_app(tmp_path / "sources.zip", app_modules(PY, FIRST_SCREEN)[0],
              tmp_path / "app.zip.gz", tmp_path / "app-more.zip.gz")
    for path in zips[:2]:
        again = (tmp_path / (path.name + ".gz")).read_bytes()
        assert again == path.with_name(path.name + ".gz").read_bytes()


def test_html_is_made_to_import_its_entity_table_where_unescaping_needs_it() -> None:
    with zipfile.ZipFile(STDLIB) as stdlib:
        source = stdlib.read("html/__init__.py").decode()
    lazy = lazy_table(source)
    assert len(lazy.splitlines()) == len(source.splitlines()) + 1
    top = lazy.split("def ")[0]
    assert "html.entities" not in top and "html.entities" in source.split("def ")[0]
    # the lines before the function that reads the table keep their numbers
    at = source.splitlines().index("def _replace_charref(s):")
    assert lazy.splitlines()[:at + 1] == [
        "" if "html.entities" in line else line for line in source.splitlines()[:at + 1]]
    # an html whose import of the table changed upstream stops the build, not the page
    with pytest.raises(AppZipError, match="entity table"):
        lazy_table(source.replace("html5 as _html5", "html5"))


def test_mount_imports_nothing_and_extends_a_package_when_it_is_imported(tmp_path: Path) -> None:
    # PyScript's package, named in the manifest, cannot be imported in the boot snapshot's
    # worker (no PyScript there): mount does not import it. A package imported already gets
    # the zip's folder at once (html), one imported later when it is imported (later).
    archive = tmp_path / "more.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(MANIFEST, "needs_a_page\nhtml\nlater\n")
        zf.writestr("needs_a_page/__init__.py", "import polyscript\n")
        zf.writestr("html/extra.py", "VALUE = 7\n")
        zf.writestr("later/extra.py", "VALUE = 8\n")
    (tmp_path / "base" / "later").mkdir(parents=True)
    (tmp_path / "base" / "later" / "__init__.py").write_text("")
    code = STAND_INS + f"""
import html, sys
sys.path[:0] = [{str(archive)!r}, {str(PY)!r}, {str(tmp_path / "base")!r}]
from webui.browser.boot.more import mount
print(mount({str(archive)!r}))
print(sorted(name for name in ("needs_a_page", "later") if name in sys.modules))
from html.extra import VALUE
from later.extra import VALUE as LATER
print(VALUE, LATER)
"""
    result = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                            timeout=60, cwd=PY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["['needs_a_page', 'html', 'later']", "[]", "7 8"]


def test_gzip_whole_makes_a_smaller_member_and_leaves_an_unchanged_one_alone(
    tmp_path: Path,
) -> None:
    data = b"".join(f"module {i} = {i * i}\n".encode() for i in range(20_000))
    dest = tmp_path / "some.zip.gz"
    gzip_whole(data, dest)
    made = dest.read_bytes()
    assert gzip.decompress(made) == data
    assert len(made) < len(gzip.compress(data, 9, mtime=0))  # Zopfli beats zlib's best
    dest.touch()
    stamp = dest.stat().st_mtime_ns
    gzip_whole(data, dest)  # the same bytes: not made again
    assert dest.stat().st_mtime_ns == stamp and dest.read_bytes() == made
    dest.write_bytes(b"not gzip")
    gzip_whole(data, dest)  # anything else is made again
    assert dest.read_bytes() == made
