"""Write the service worker's precache list from the built site (called by scripts/build.py).

The list is everything the page can fetch from its own origin: the page itself ("./", i.e.
index.html), every local file index.html references (scripts, styles, the manifest, the PyScript
entry script and config), every file under static/ (CSS, icons, config, and the built
static/vendor/: PyScript with all its chunks, the Pyodide runtime, PeerJS, libsodium, app.zip and
app-more.zip), and the boot's browser files under boot/ (its build/ folder runs at build time
only).
Each entry carries a hash of its bytes, and the list's version is a hash of all of them, so the
service worker's cache name changes whenever any file changes, and only changed files are
downloaded again.

On demand ("later"): what the page loads only for online play, i.e. the folders of the files
that window.lcOnlineLibraries() loads, which static/config.js names (PeerJS, the QR code
library, libsodium: its wrappers import their core from the same folder). The first visit does
not need them, so the worker's install does not download them: it fetches each on the first
request for it and keeps it from then on (see sw.js). Their entries carry "later": true; they
are listed, hashed and in the version like every other file. index.html may not reference them.

Output: static/vendor/precache.js, which sw.js loads with importScripts():

    self.LC_PRECACHE = {"version": "<16 hex>", "files": [{"url": "static/app.css",
                        "hash": "<16 hex>", "size": 1234}, ...,
                        {"url": "static/vendor/peerjs/peerjs.min.js", "hash": "<16 hex>",
                         "size": 86948, "later": true}, ...]};

("later" is present only on the on-demand entries.) A gzipped file (`*.gz`: the app's zips,
boot/build/app_zip.py) also carries "unpacked": the hash of what it unpacks to, the zip the page
imports from, which the service worker compares with a boot snapshot's key (boot/sw-kept.js).

Usage: python3 scripts/precache.py [--root DIR]   (DIR holds index.html, static/ and boot/)
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

OUTPUT = Path("static") / "vendor" / "precache.js"
PAGE_URL = "./"
REFERENCE_ATTRIBUTES = {"src", "href", "config"}
ONLINE_LOADER = Path("static") / "config.js"  # defines window.lcOnlineLibraries()
# A vendored file's path as static/config.js names it, in quotes: "static/vendor/FOLDER/FILE".
VENDOR_PATH = re.compile(r'"(static/vendor/[^"/]+)/[^"/]+"')


class PrecacheError(RuntimeError):
    """The site is incomplete: a missing page or a referenced file that does not exist."""


class _References(HTMLParser):
    """Collects src, href and config attribute values of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in REFERENCE_ATTRIBUTES and value:
                self.urls.append(value)


def local_path(url: str) -> str | None:
    """The site-relative path of a page-relative URL, or None for data:, remote and anchors."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
        return None
    path = parts.path.removeprefix("./")
    return path or None


def page_references(page: Path) -> list[str]:
    """The local files the page references (src, href and PyScript's config attributes)."""
    parser = _References()
    parser.feed(page.read_text(encoding="utf-8"))
    found = (local_path(url) for url in parser.urls)
    return sorted({path for path in found if path is not None})


def file_hash(path: Path, unpack: bool = False) -> str:
    """The first 16 hex digits of the file's SHA-256 (with `unpack`, of the file gunzipped)."""
    digest = hashlib.sha256()
    with (gzip.open(path, "rb") if unpack else path.open("rb")) as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def site_files(root: Path) -> list[str]:
    """Site-relative paths of every file the page may fetch (the page itself excluded)."""
    page = root / "index.html"
    if not page.is_file():
        raise PrecacheError(f"missing {page}")
    files = set()
    for path in page_references(page):
        if not (root / path).is_file():
            raise PrecacheError(f"index.html references {path}, which does not exist")
        files.add(path)
    for path in [*(root / "static").rglob("*"), *(root / "boot").glob("*")]:
        relative = path.relative_to(root)
        # hidden files are build temporaries and the like
        skip = any(part.startswith(".") or part == "__pycache__" for part in relative.parts)
        if path.is_file() and relative != OUTPUT and not skip:
            files.add(relative.as_posix())
    return sorted(files)


def online_folders(root: Path) -> list[str]:
    """The folders whose files the page loads only for online play: those of the vendored files
    static/config.js names (none without it). Each named file must exist."""
    loader = root / ONLINE_LOADER
    if not loader.is_file():
        return []
    folders = set()
    for match in VENDOR_PATH.finditer(loader.read_text(encoding="utf-8")):
        path = match.group(0).strip('"')
        if not (root / path).is_file():
            raise PrecacheError(f"{ONLINE_LOADER.as_posix()} loads {path}, which does not exist")
        folders.add(match.group(1))
    return sorted(folders)


def on_demand(root: Path, files: list[str]) -> set[str]:
    """The files of `files` fetched on demand: those in online_folders(root), which the page
    itself (index.html) may not reference."""
    folders = tuple(f"{folder}/" for folder in online_folders(root))
    later = {path for path in files if path.startswith(folders)}
    for path in page_references(root / "index.html"):
        if path in later:
            raise PrecacheError(f"index.html references {path}, which is loaded only for "
                                f"online play ({ONLINE_LOADER.as_posix()})")
    return later


def precache_list(root: Path) -> dict[str, object]:
    """The precache document: its content version and one entry per file, the page first;
    the on-demand entries (on_demand) marked "later": true."""
    files = site_files(root)  # first: a clear error if the page is missing
    later = on_demand(root, files)
    entries: list[dict[str, object]] = [{"url": PAGE_URL, "hash": file_hash(root / "index.html"),
                                         "size": (root / "index.html").stat().st_size}]
    for path in files:
        entry: dict[str, object] = {"url": path, "hash": file_hash(root / path),
                                    "size": (root / path).stat().st_size}
        if path in later:
            entry["later"] = True
        if path.endswith(".gz"):
            entry["unpacked"] = file_hash(root / path, unpack=True)
        entries.append(entry)
    fingerprint = "".join(f"{e['url']}\0{e['hash']}\n" for e in entries)
    version = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
    return {"version": version, "files": entries}


def write_precache(root: Path) -> dict[str, object]:
    """Write root/static/vendor/precache.js and return the document it holds."""
    document = precache_list(root)
    text = (
        "// Generated by scripts/precache.py from the built files: do not edit.\n"
        f"self.LC_PRECACHE = {json.dumps(document, separators=(',', ':'))};\n"
    )
    out = root / OUTPUT
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.is_file() or out.read_text(encoding="utf-8") != text:
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)  # atomic: a server running meanwhile never sends half a list
    files = document["files"]
    assert isinstance(files, list)
    later = [entry for entry in files if entry.get("later")]
    size = sum(entry["size"] for entry in files if not entry.get("later"))
    print(f"precache {document['version']}: {len(files) - len(later)} files, {size / 1e6:.1f} MB"
          f" at install; {len(later)} on demand, "
          f"{sum(entry['size'] for entry in later) / 1e6:.1f} MB")
    return document


def main() -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    try:
        write_precache(args.root)
    except PrecacheError as exc:
        print(f"precache failed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
