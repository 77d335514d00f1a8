"""app.zip.gz and app-more.zip.gz: the Python packages under py/ compiled to bytecode, split in
two (scripts/build.py calls `build_app_zip`; docs/boot.md).

The packages are zipped as sources with the standard modules that PyScript's package imports
(trim_stdlib.SHADOWED: `html`, made to import its entity table only when unescaping:
`lazy_table`), then compiled by the shipped runtime's own CPython under Node (compile_app.mjs
beside this file), with pycs of PyScript's own package (both zips hidden beside app.zip:
neither shipped nor precached). The compiled zip is then split:

- app.zip, what the boot fetches: the modules reachable from the page's script (`FIRST_SCREEN`,
  imports inside functions followed), i.e. the first screen and a match on this device (the
  engine, the table, the setup, the controller, the bots), with PyScript's package and `html`;
- app-more.zip, fetched once the first screen is up (py/webui/browser/boot/more.py): every other
  module of the page, i.e. what the page imports by name (webui/browser/plugins.py: online play
  with the fair protocol, the player's history, stats, replays, calculator and guide), and
  `LATER_EXTRAS` (`html`'s entity table and the modules of PyScript's package that only a
  page's own code would import, 47 KB on the wire that nothing reads on the first screen). It
  also holds `MANIFEST`: the packages of app.zip that it adds modules to, one per line, whose
  search path the page extends when it mounts the zip.

Each is a zip of stored (uncompressed) entries, gzipped whole by Zopfli (`gzip_whole`, as
scripts/build.py does the standard library): compressed as one stream, its modules share their
names and their bytecode's patterns, so it is 0.83x the zip deflated entry by entry
(docs/performance.md). The page unpacks it (boot/snapshot.mjs `zipBytes`) and imports
from the zip.

Each step leaves its output alone when nothing changed, and the same sources give the same bytes.
"""

from __future__ import annotations

import filecmp
import gzip
import io
import os
import shutil
import subprocess
import zipfile
import zlib
from pathlib import Path

from trim_stdlib import SHADOWED, app_modules, module_file

APP_SOURCES = ".app-sources.zip"
"""The app's sources as compiled (hidden: not shipped, not precached)."""
APP_COMPILED = ".app-compiled.zip"
"""The app compiled, before the split (hidden too)."""
APP = "app.zip.gz"
MORE = "app-more.zip.gz"
UNZIPPED = ("app.zip", "app-more.zip")
"""What older builds wrote instead (deleted: everything under static/ is precached)."""
MANIFEST = "more-packages.txt"
"""In app-more.zip: the packages of app.zip it adds modules to (py/webui/browser/boot/more.py)."""
FIRST_SCREEN = ("webui.browser.main",)
"""The page's script (index.html): what it reaches goes in app.zip."""
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
"""Fixed timestamp, so that the zip is byte-identical for identical sources."""
LATER_EXTRAS = ("html.entities", "pyscript.fs", "pyscript.media", "pyscript.web")
"""Modules compiled with the app that are not the app's (a SHADOWED standard module, PyScript's
package) and that neither the first screen nor PyScript imports: they go in app-more.zip."""
EAGER_TABLE = "from html.entities import html5 as _html5\n"
TABLE_USER = "def _replace_charref(s):\n"
"""`html`'s import of its entity table, and the function that reads it (`lazy_table`)."""
NATIVE_ONLY = ("lostcities/cli/", "lostcities/fair/sodium.py", "lostcities/viewcheck.py")
"""Sources the page never imports (the command line, the native group, the check of a view a
program receives from the command line's host): left out of both zips."""


class AppZipError(RuntimeError):
    """app.zip cannot be made: Node is missing or the compiler failed."""


def python_sources(py_dir: Path) -> list[Path]:
    """Every file of every package under py/ (a package is a folder with __init__.py), but
    the ``NATIVE_ONLY`` ones."""
    files = []
    for package in sorted(p for p in py_dir.iterdir() if (p / "__init__.py").is_file()):
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc" \
                    and not path.relative_to(py_dir).as_posix().startswith(NATIVE_ONLY):
                files.append(path)
    return files


def lazy_table(source: str) -> str:
    """`html`'s source importing its entity table (html.entities, in app-more.zip) in the one
    function that reads it, `unescape`'s helper, instead of at its own import: PyScript only
    calls `escape`. Later lines keep their numbers."""
    if source.count(EAGER_TABLE) != 1 or source.count(TABLE_USER) != 1:
        raise AppZipError("html no longer imports its entity table as app_zip.lazy_table "
                          "expects")
    source = source.replace(EAGER_TABLE, "\n")
    return source.replace(TABLE_USER, TABLE_USER + "    " + EAGER_TABLE)


def shadowed_sources(stdlib: Path) -> dict[str, bytes]:
    """{zip entry: source} of the SHADOWED modules in the whole standard library `stdlib`,
    `html` made lazy (`lazy_table`)."""
    found = {}
    with zipfile.ZipFile(stdlib) as zf:
        names = set(zf.namelist())
        for module in SHADOWED:
            entry = module_file(names, module)
            if entry is None:
                raise AppZipError(f"{stdlib} has no module {module}")
            source = zf.read(entry)
            if module == "html":
                source = lazy_table(source.decode("utf-8")).encode("utf-8")
            found[entry] = source
    return found


def zip_packages(py_dir: Path, stdlib: Path, dest: Path) -> list[Path]:
    """Write the packages under py_dir into the zip dest, paths relative to py_dir, with the
    SHADOWED modules of the standard library `stdlib` (dest is left alone if unchanged); the
    files of py_dir written."""
    files = python_sources(py_dir)
    entries = {path.relative_to(py_dir).as_posix(): path.read_bytes() for path in files}
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in {**entries, **shadowed_sources(stdlib)}.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    _replace_if_changed(tmp, dest)
    return files


def _replace_if_changed(tmp: Path, dest: Path) -> None:
    """Move tmp to dest, unless dest holds the same bytes already (then tmp goes)."""
    if dest.is_file() and filecmp.cmp(tmp, dest, shallow=False):
        tmp.unlink()
    else:
        os.replace(tmp, dest)


def compile_app(sources: Path, dest: Path, pyodide: Path, pyscript: Path,
                stdlib: Path) -> None:
    """Write dest: the zip `sources` with every module compiled to a sourceless pyc by the
    runtime's own CPython (with the standard library zip `stdlib`), and pycs for PyScript's
    own package (compile_app.mjs under Node), unless dest is newer than the sources, the
    runtime, PyScript and the compiler."""
    compiler = Path(__file__).with_name("compile_app.mjs")
    inputs = (sources, compiler, pyodide / "pyodide.asm.wasm", stdlib, *pyscript.glob("*.js"))
    if dest.is_file() and all(dest.stat().st_mtime_ns > p.stat().st_mtime_ns for p in inputs):
        return
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    result = subprocess.run([_node(), str(compiler), str(pyodide), str(pyscript), str(sources),
                             str(tmp), str(stdlib)],
                            capture_output=True, text=True)
    if result.returncode != 0 or not tmp.is_file():
        tmp.unlink(missing_ok=True)
        raise AppZipError(f"compiling the app failed: {result.stderr.strip()[-2000:]}")
    os.replace(tmp, dest)


def module_name(entry: str) -> str | None:
    """The module a zip entry holds (``a/b.pyc`` is ``a.b``, ``a/__init__.pyc`` is ``a``), or
    None for a file that is no module."""
    if not entry.endswith((".py", ".pyc")):
        return None
    name = entry.rpartition(".")[0].replace("/", ".")
    return name.removesuffix(".__init__")


def split_app(compiled: Path, first: set[str], app: Path, more: Path) -> list[str]:
    """Write app.zip.gz (the entries of `compiled` that are no app module outside `first`, nor
    LATER_EXTRAS) and app-more.zip.gz (the others, and `MANIFEST`); the packages MANIFEST
    names."""
    packages = {name.split(".")[0] for name in first}
    kept: dict[Path, list[tuple[str, bytes]]] = {app: [], more: []}
    first_modules: set[str] = set()
    later_modules: set[str] = set()
    with zipfile.ZipFile(compiled) as zf:
        for entry in zf.namelist():
            module = module_name(entry)
            later = module in LATER_EXTRAS or (module is not None and module not in first
                                               and module.split(".")[0] in packages)
            kept[more if later else app].append((entry, zf.read(entry)))
            if module is not None:
                (later_modules if later else first_modules).add(module)
    extended = {m.rpartition(".")[0] for m in later_modules} & first_modules
    kept[more].append((MANIFEST, "".join(f"{p}\n" for p in sorted(extended)).encode()))
    for dest, entries in kept.items():
        stored = io.BytesIO()
        with zipfile.ZipFile(stored, "w", compression=zipfile.ZIP_STORED) as zf:
            for entry, data in entries:
                info = zipfile.ZipInfo(entry, date_time=ZIP_DATE)
                info.external_attr = 0o644 << 16
                zf.writestr(info, data)
        gzip_whole(stored.getvalue(), dest)
    return sorted(extended)


def gzip_whole(data: bytes, dest: Path) -> None:
    """Write dest: `data` (a zip of stored entries) as one gzip member made by Zopfli
    (gzip_whole.mjs under Node), with no time and no file name in its header, so the same
    bytes give the same file; dest is left alone if it unpacks to `data` already (Zopfli takes
    seconds)."""
    if dest.is_file():
        try:
            if gzip.decompress(dest.read_bytes()) == data:
                return
        except (OSError, EOFError, zlib.error):
            pass  # not a gzip file: made again
    stored = dest.with_name(f".{dest.name}.{os.getpid()}.in")
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    stored.write_bytes(data)
    try:
        result = subprocess.run([_node(), str(Path(__file__).with_name("gzip_whole.mjs")),
                                 str(stored), str(tmp)], capture_output=True, text=True)
    finally:
        stored.unlink()
    if result.returncode != 0 or not tmp.is_file():
        tmp.unlink(missing_ok=True)
        raise AppZipError(f"gzipping {dest.name} failed: {result.stderr.strip()[-2000:]}")
    os.replace(tmp, dest)


def _node() -> str:
    """The path of Node, which the build runs its JavaScript steps with."""
    node = shutil.which("node")
    if node is None:
        raise AppZipError("node is needed to build the app (npm installs it with Node.js)")
    return node


def build_app_zip(py_dir: Path, vendor: Path, stdlib: Path) -> list[Path]:
    """Bring vendor/app.zip.gz and vendor/app-more.zip.gz up to date with the packages under
    py_dir and the SHADOWED modules of the whole standard library `stdlib`, compiled by the
    runtime in vendor/pyodide with PyScript's chunks in vendor/pyscript; the files of py_dir
    zipped."""
    for name in UNZIPPED:
        (vendor / name).unlink(missing_ok=True)
    sources = zip_packages(py_dir, stdlib, vendor / APP_SOURCES)
    compile_app(vendor / APP_SOURCES, vendor / APP_COMPILED, vendor / "pyodide",
                vendor / "pyscript", stdlib)
    split_app(vendor / APP_COMPILED, app_modules(py_dir, FIRST_SCREEN)[0], vendor / APP,
              vendor / MORE)
    return sources
