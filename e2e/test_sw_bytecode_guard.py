"""The service worker keeps only the bytecode zip that a page of its own version compiles
(boot/sw-kept.js, checkBytecode): any other script of the origin can post one, so a zip with
an extra or a missing entry, a changed or compressed entry, or one made for another runtime,
standard library or app is refused, the next boot is not served it, and a zip that is what the
page compiles is kept.

The messages are posted to the worker directly, as a hostile script would, with the fields an
older worker read (`source`) beside the key. Served like Netlify in a persistent profile, with
test_pwa.py's fixtures.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zipfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from conftest import wait_ready
from test_pwa import Player, first_visit, open_player, serve, site  # noqa: F401  (fixtures)
from webui.browser.boot.bytecode import MARKER

STDLIB = "static/vendor/pyodide/python_stdlib.zip.gz"
APP = "static/vendor/app.zip.gz"

# Posts the zip fetched from `url` to the active worker, as any script of the origin can.
POST = """async ([url, key]) => {
    const zip = await (await fetch(url)).arrayBuffer();
    const worker = (await navigator.serviceWorker.ready).active;
    return new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        worker.postMessage({type: 'bytecode', source: key.stdlib, key, zip}, [channel.port2, zip]);
    });
}"""
SERVED = """async () => {
    const response = await fetch('static/vendor/pyodide/python_stdlib.zip.gz');
    const digest = await crypto.subtle.digest('SHA-256', await response.arrayBuffer());
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}"""


def short_hash(data: bytes) -> str:
    """A file's hash as the precache list writes it (scripts/precache.py)."""
    return hashlib.sha256(data).hexdigest()[:16]


def bytecode_zip(original: bytes, *, extra: tuple[str, ...] = (), drop: tuple[str, ...] = (),
                 change: tuple[str, ...] = (), method: int = zipfile.ZIP_STORED) -> bytes:
    """A zip laid out as webui.browser.boot.bytecode.BytecodeZip assembles one from `original` (its
    entries stored, a pyc beside each module, the marker), with the given entries added, left out or
    changed. The pycs are not real bytecode: the worker cannot tell, and none is imported."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(original)) as source, \
            zipfile.ZipFile(out, "w", method) as new:
        for info in source.infolist():
            data = source.read(info)
            if info.filename in change:
                data += b"\nimport os; os.system('echo changed')\n"
            new.writestr(info.filename, data)
            pyc = info.filename.removesuffix(".py") + ".pyc"
            if info.filename.endswith(".py") and pyc not in drop:
                new.writestr(pyc, b"bytecode of " + info.filename.encode())
        for name in extra:
            new.writestr(name, b"import os  # not a module of the standard library\n")
        new.writestr(MARKER, b"bytecode compiled by webui.browser.boot.bytecode\n")
    return out.getvalue()


def post(page: Page, root: Path, name: str, data: bytes, key: dict[str, str]) -> Any:
    """Serve `data` as root/<name> and post it to the worker from the page; its answer."""
    (root / name).write_bytes(data)
    return page.evaluate(POST, [name, key])


def test_the_worker_keeps_only_the_bytecode_a_page_of_its_version_compiles(
    site: Path, open_player: Callable[[], Player]  # noqa: F811
) -> None:
    original = gzip.decompress((site / STDLIB).read_bytes())  # the zip the runtime reads
    runtime = json.loads((site / "static/vendor/pyodide/package.json").read_text())["version"]
    key = {"runtime": runtime, "stdlib": short_hash(original),
           "app": short_hash(gzip.decompress((site / APP).read_bytes()))}
    with zipfile.ZipFile(io.BytesIO(original)) as source:
        modules = [name for name in source.namelist() if name.endswith(".py")]
    assert "json/__init__.py" in modules
    tampered = {
        "extra-module.zip": (bytecode_zip(original, extra=("sitecustomize.pyc",)), key,
                             "unexpected entries: sitecustomize.pyc"),
        "missing-module.zip": (bytecode_zip(original, drop=("json/__init__.pyc",)), key,
                               "missing entries: json/__init__.pyc"),
        "changed-source.zip": (bytecode_zip(original, change=("json/__init__.py",)), key,
                               "changed or compressed entries: json/__init__.py"),
        "deflated.zip": (bytecode_zip(original, method=zipfile.ZIP_DEFLATED), key,
                         "changed or compressed entries"),
        "other-runtime.zip": (bytecode_zip(original), {**key, "runtime": "0.27.0"},
                              "built by another runtime"),
        "other-stdlib.zip": (bytecode_zip(original), {**key, "stdlib": "0123456789abcdef"},
                             "built from another standard library"),
        "other-app.zip": (bytecode_zip(original), {**key, "app": "0123456789abcdef"},
                          "built by another version of the app"),
        "truncated.zip": (bytecode_zip(original)[:-100], key, "not a zip"),
    }
    player = open_player()
    page = player.page
    with ExitStack() as stack:
        url = serve(stack, site)
        first_visit(player, url)
        for name, (data, posted_key, reason) in tampered.items():
            answer = post(page, site, name, data, posted_key)
            assert answer["kept"] is False and answer["reason"].startswith(reason), (name, answer)
        # The next boot is not served any of them (it boots from the sources, or from the
        # bytecode the page itself compiled meanwhile, if it was kept).
        page.reload()
        wait_ready(page, page_errors=player.page_errors)
        served = page.evaluate(SERVED)
        assert served not in {hashlib.sha256(data).hexdigest() for data, _, _ in tampered.values()}
        # What a page of this version compiles, laid out the same way, is kept.
        answer = post(page, site, "as-compiled.zip", bytecode_zip(original), key)
        assert answer == {"kept": True, "reason": ""}
        assert player.page_errors == []
