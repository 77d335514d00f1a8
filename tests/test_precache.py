"""scripts/precache.py (the service worker's list) and the web app manifest with its icons."""

from __future__ import annotations

import gzip
import hashlib
import json
import struct
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from precache import PrecacheError, precache_list, write_precache  # noqa: E402

PAGE = """<!doctype html><html><head>
<link rel="manifest" href="./static/manifest.webmanifest">
<link rel="icon" href="data:,">
<script src="https://cdn.example.org/x.js"></script>
<script defer src="./static/app.js"></script>
</head><body><script type="py" src="./py/main.py" config="./static/pyscript.json"></script>
</body></html>"""
# What static/config.js names for online play (window.lcOnlineLibraries()).
CONFIG_JS = """var ONLINE = ["static/vendor/peerjs/peerjs.min.js"];
var SODIUM = "static/vendor/sodium/libsodium-wrappers.js";  /* imports libsodium-sumo.js */
var CONFIG = "static/config.json";"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A small built site: a page, its references, and a vendor folder."""
    files = {
        "index.html": PAGE,
        "static/manifest.webmanifest": "{}",
        "static/app.js": "1",
        "static/pyscript.json": "{}",
        "static/config.js": CONFIG_JS,
        "static/config.json": "{}",
        "static/vendor/peerjs/peerjs.min.js": "peer",
        "static/vendor/sodium/libsodium-wrappers.js": "wrappers",
        "static/vendor/sodium/libsodium-sumo.js": "core",
        "static/vendor/pyodide/pyodide.asm.wasm": "wasm",
        "static/vendor/pyscript/core-AbCd1234.js": "chunk",
        "static/vendor/.app.zip.123.tmp": "half-written",
        "py/main.py": "print(1)",
        "py/unreferenced.py": "x = 1",
        "boot/snapshot.mjs": "export {}",
        "boot/build/trim_stdlib.py": "x = 1",
        "sw.js": "worker",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def urls(document: dict[str, object]) -> list[str]:
    files = document["files"]
    assert isinstance(files, list)
    return [entry["url"] for entry in files]


def later(document: dict[str, object]) -> list[str]:
    """The URLs of the entries fetched on demand."""
    files = document["files"]
    assert isinstance(files, list)
    return [entry["url"] for entry in files if entry.get("later")]


def test_the_list_is_the_page_its_local_references_and_everything_under_static_and_boot(
    site: Path
) -> None:
    # boot/build/ holds the boot's build steps: never fetched by a page.
    assert urls(precache_list(site)) == [
        "./", "boot/snapshot.mjs", "py/main.py", "static/app.js", "static/config.js",
        "static/config.json", "static/manifest.webmanifest", "static/pyscript.json",
        "static/vendor/peerjs/peerjs.min.js", "static/vendor/pyodide/pyodide.asm.wasm",
        "static/vendor/pyscript/core-AbCd1234.js", "static/vendor/sodium/libsodium-sumo.js",
        "static/vendor/sodium/libsodium-wrappers.js",
    ]


def test_the_folders_of_what_config_js_loads_for_online_play_are_fetched_on_demand(
    site: Path
) -> None:
    document = precache_list(site)
    # The whole folder: libsodium's wrappers import their core from beside them.
    assert later(document) == [
        "static/vendor/peerjs/peerjs.min.js", "static/vendor/sodium/libsodium-sumo.js",
        "static/vendor/sodium/libsodium-wrappers.js"]
    files = document["files"]
    assert isinstance(files, list)
    assert {tuple(sorted(entry)) for entry in files if not entry.get("later")} == {
        ("hash", "size", "url")}  # "later" only where true
    assert all(entry["later"] is True and entry["hash"] and entry["size"]
               for entry in files if "later" in entry)
    (site / "static" / "config.js").unlink()  # nothing loads anything for online play
    assert later(precache_list(site)) == []


def test_an_on_demand_file_the_page_references_or_a_missing_one_is_a_clear_error(
    site: Path
) -> None:
    page = site / "index.html"
    page.write_text(PAGE.replace("</head>", '<script src="./static/vendor/peerjs/peerjs.min.js">'
                                            "</script></head>"))
    with pytest.raises(PrecacheError, match="index.html references static/vendor/peerjs/"
                                            "peerjs.min.js, which is loaded only for online"):
        precache_list(site)
    page.write_text(PAGE)
    (site / "static" / "vendor" / "peerjs" / "peerjs.min.js").unlink()
    with pytest.raises(PrecacheError, match="static/config.js loads static/vendor/peerjs/"
                                            "peerjs.min.js, which does not exist"):
        precache_list(site)


def changed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The files whose hash differs between two precache lists of the same files."""
    return [a["url"] for a, b in zip(before["files"], after["files"], strict=True)
            if a["hash"] != b["hash"]]


def test_the_version_changes_with_any_file_and_only_then(site: Path) -> None:
    first = precache_list(site)
    assert precache_list(site) == first
    (site / "py" / "unreferenced.py").write_text("x = 2")  # not part of the page
    assert precache_list(site)["version"] == first["version"]
    (site / "static" / "vendor" / "pyodide" / "pyodide.asm.wasm").write_text("wasm2")
    second = precache_list(site)
    assert second["version"] != first["version"]
    assert changed(first, second) == ["static/vendor/pyodide/pyodide.asm.wasm"]
    # The files fetched on demand are part of the version too.
    (site / "static" / "vendor" / "sodium" / "libsodium-sumo.js").write_text("core2")
    third = precache_list(site)
    assert third["version"] != second["version"]
    assert changed(second, third) == ["static/vendor/sodium/libsodium-sumo.js"]


def test_written_list_is_loadable_by_the_worker_and_not_listed_in_itself(site: Path) -> None:
    document = write_precache(site)
    text = (site / "static" / "vendor" / "precache.js").read_text()
    assert text.rstrip().endswith(";")
    body = text[text.index("self.LC_PRECACHE = ") + len("self.LC_PRECACHE = "):].rstrip("; \n")
    assert json.loads(body) == document
    assert write_precache(site) == document  # the list does not list itself
    assert "static/vendor/precache.js" not in urls(document)


def test_a_missing_referenced_file_is_a_clear_error(site: Path) -> None:
    (site / "static" / "app.js").unlink()
    with pytest.raises(PrecacheError, match="index.html references static/app.js"):
        precache_list(site)


def test_the_real_site_list_covers_the_runtime_and_every_pyscript_chunk(
    built_site: Path
) -> None:
    vendor = built_site / "static" / "vendor"
    document = precache_list(built_site)
    listed = set(urls(document))
    for folder in ("pyodide", "pyscript", "peerjs", "qrcode", "sodium"):
        for path in (vendor / folder).iterdir():
            assert f"static/vendor/{folder}/{path.name}" in listed
    # Fetched on demand: exactly the libraries only online play loads (static/config.js).
    assert later(document) == [
        "static/vendor/peerjs/peerjs.min.js", "static/vendor/qrcode/qrcode.js",
        "static/vendor/sodium/libsodium-sumo.js", "static/vendor/sodium/libsodium-wrappers.js"]
    assert {"./", "static/vendor/app.zip.gz", "static/vendor/app-more.zip.gz",
            "static/app.css", "static/config.json", "static/config.js", "static/pyscript.json",
            "static/sw-register.js",
            "static/manifest.webmanifest", "py/webui/browser/main.py", "boot/preboot.js",
            "boot/pyodide-early.mjs", "boot/snapshot.mjs", "boot/snapshot-worker.mjs",
            "boot/sw-kept.js"} <= listed
    assert not [url for url in listed if url.startswith("boot/build/")]
    assert "sw.js" not in listed  # the browser fetches the worker itself
    # The app's gzipped zips also name the zip they unpack to (a boot snapshot's key names it).
    for entry in document["files"]:
        if entry["url"].endswith(".gz"):
            unpacked = gzip.decompress((built_site / entry["url"]).read_bytes())
            assert entry["unpacked"] == hashlib.sha256(unpacked).hexdigest()[:16]
        else:
            assert "unpacked" not in entry


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_makes_the_app_installable_with_192_and_512_icons_any_and_maskable() -> None:
    manifest_path = ROOT / "static" / "manifest.webmanifest"
    manifest = json.loads(manifest_path.read_text())
    for key in ("id", "name", "short_name", "start_url", "scope", "theme_color",
                "background_color"):
        assert isinstance(manifest[key], str) and manifest[key], key
    assert manifest["display"] == "standalone"
    # start_url and scope are relative to the manifest (static/): both must be the site root.
    site_root = (manifest_path.parent / manifest["start_url"]).resolve()
    assert site_root == ROOT.resolve()
    assert (manifest_path.parent / manifest["scope"]).resolve() == ROOT.resolve()
    seen = set()
    for icon in manifest["icons"]:
        path = manifest_path.parent / icon["src"]
        width, height = png_size(path)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        seen.add((width, icon.get("purpose", "any")))
    assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= seen


def test_the_page_links_the_manifest_theme_colour_and_worker_registration() -> None:
    page = (ROOT / "index.html").read_text()
    manifest = json.loads((ROOT / "static" / "manifest.webmanifest").read_text())
    assert '<link rel="manifest" href="./static/manifest.webmanifest">' in page
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page
    assert '<script defer src="./static/sw-register.js"></script>' in page


def test_icon_script_writes_valid_pngs(tmp_path: Path) -> None:
    import make_icons

    data = make_icons.png_bytes(2, 1, [b"\xff\x00\x00\xff\x00\x00\xff\x80"])
    (tmp_path / "x.png").write_bytes(data)
    assert png_size(tmp_path / "x.png") == (2, 1)
    assert set(make_icons.icon_names()) == {p.name for p in (ROOT / "static" / "icons").glob(
        "*.png")}
