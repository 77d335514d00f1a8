"""Bytecode: the app ships compiled (boot/build/compile_app.mjs), and the first boot
compiles the standard library, which the service worker keeps for the next boots
(py/webui/browser/boot/warm.py, py/webui/browser/boot/bytecode.py, sw.js, boot/pyodide-early.mjs).

The standard library test is served like Netlify (netlify.toml's headers, Content-Security-Policy
included) in a persistent profile, with test_pwa.py's fixtures.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Page

from conftest import ROOT, AppPage, shipped_zip, wait_ready
from test_pwa import (  # noqa: F401  (fixtures)
    Player,
    first_visit,
    open_player,
    play_turns,
    serve,
    site,
    start_pass_and_play,
)

BYTECODE = "() => document.documentElement.dataset.bytecode"
KEEP = "([key, bytes]) => window.lcPwa.keepBytecode(key, new Uint8Array(bytes))"
OTHER_KEY = {"runtime": "0.27.0", "stdlib": "0123456789abcdef", "app": "0123456789abcdef"}
STDLIB_GZ = "static/vendor/pyodide/python_stdlib.zip.gz"
"""The standard library as the site ships it: gzipped whole."""


@pytest.mark.slow
def test_the_next_boot_runs_on_the_bytecode_the_first_one_compiled(
    site: Path, open_player: Callable[[], Player]  # noqa: F811
) -> None:
    player = open_player()
    with ExitStack() as stack:
        url = serve(stack, site)
        first_visit(player, url)
        page = player.page
        page.wait_for_function(f"() => ({BYTECODE})() === 'kept'")
        # The worker answers the runtime's request for the standard library with it.
        served = page.evaluate("""async () => {
            const response = await fetch('static/vendor/pyodide/python_stdlib.zip.gz');
            return [...new Uint8Array(await response.arrayBuffer())].length;
        }""")
        shipped = gzip.decompress((site / STDLIB_GZ).read_bytes())
        assert served > 2 * len(shipped)
        # A zip from another version, or something else, is refused; the kept one stays
        # (test_sw_bytecode_guard.py tries the other ways a zip can be refused).
        assert page.evaluate(KEEP, [OTHER_KEY, [80, 75, 3, 4]]) == {
            "kept": False, "reason": "built by another runtime"}
        page.reload()
        wait_ready(page, page_errors=player.page_errors)
        page.wait_for_function(f"() => ({BYTECODE})() === 'booted'")
        # The game plays on it: a few pass-and-play turns (a whole round by clicks is
        # e2e/test_table.py's).
        start_pass_and_play(page)
        assert play_turns(page, turns=3) == "handoff"
        assert player.page_errors == []
        # A kept zip that breaks the boot is dropped: the page reloads from the sources.
        page.evaluate(CORRUPT)
        page.reload()
        ready_after_reloads(page)
        assert page.evaluate("sessionStorage.getItem('lostcities.bytecode-retried')") == "1"
        page.wait_for_function(f"() => ({BYTECODE})() === 'kept'")


def ready_after_reloads(page: Page, timeout_s: float = 180) -> None:
    """Wait for html[data-ready=true], through the reload the page makes by itself (Playwright
    runs the wait again in each new document)."""
    page.wait_for_function("() => document.documentElement.dataset.ready === 'true'",
                           timeout=timeout_s * 1000)


# The kept zip replaced by its first 64 KiB: a zip without its directory.
CORRUPT = """async () => {
    const cache = await caches.open('lostcities-' + await window.lcPwa.version());
    const key = new URL('__bytecode-stdlib__.zip', document.baseURI).href;
    const kept = new Uint8Array(await (await cache.match(key)).arrayBuffer());
    await cache.put(key, new Response(kept.slice(0, 65536)));
}"""


# The runtime the page booted (boot/pyodide-early.mjs hands the same one to every caller).
RUN = """async (code) => {
    const early = await import('./boot/pyodide-early.mjs');
    return (await early.loadPyodide()).runPython(code);
}"""
# The source hash in a pyc's header of each of PyScript's modules {name: source}, as the page's
# Python makes it (CPython's key depends on its version), and what PyScript's prelude wrote in
# the page's working directory.
SOURCE_HASHES = """
import importlib.util, json, os
json.dumps([{name: importlib.util.source_hash(source.encode()).hex()
             for name, source in json.loads(SOURCES).items()}, os.listdir("pyscript")])
"""
PACKAGE = '{pyscript:{"__init__.py":'
"""Where PyScript's package starts in its chunk: an object literal of {file name: source}."""


def pyscript_package() -> dict[str, str]:
    """PyScript's Python package {file name: source}, from its chunk as the site ships it (the
    literal is JSON but for its first key)."""
    for chunk in sorted((ROOT / "static" / "vendor" / "pyscript").glob("*.js")):
        text = chunk.read_text(encoding="utf-8")
        if PACKAGE in text:
            start = text.index(PACKAGE) + len("{pyscript:")
            package, _ = json.JSONDecoder().raw_decode(text, start)
            return package
    raise AssertionError("PyScript's package is in none of its chunks")


# Where the boot's modules came from: app.zip (first on sys.path), app-more.zip or the standard
# library zip. `html`'s entity table is imported only once something unescapes, and PyScript's
# package (`pyscript`, `pyscript.web`) only by a page's own code (the app's never does).
IMPORTED_FROM = """
import sys
before = sorted({"html.entities", "pyscript", "pyscript.web"} & set(sys.modules))
import html, json, pyscript
text = html.unescape("caf&eacute; &amp; &#62;")
import pyscript.web
json.dumps([before, text, {m: sys.modules[m].__file__.split("/lib/")[-1]
                           for m in ("pyscript", "pyscript.web", "html", "html.entities",
                                     "json")}])
"""


# The positions (line, end line, column, end column) of each instruction of the first function
# of an app module and of a module of PyScript's package, as the page imported them.
POSITIONS = """
import inspect, json, sys, pyscript.display, webui.screens.table
def positions(name):
    code = next(value.__code__ for value in vars(sys.modules[name]).values()
                if inspect.isfunction(value) and value.__module__ == name)
    return list(code.co_positions())
json.dumps([positions("pyscript.display"), positions("webui.screens.table")])
"""


def test_the_page_runs_the_app_compiled_and_pycs_that_match_pyscripts_package(
    app: AppPage,
) -> None:
    # PyScript's package: pycs made from the very sources of PyScript's chunk as shipped (the
    # hash in their header), imported from the zips; its prelude no longer writes those
    # sources in the page (boot/build/js_edits.py).
    shipped_hashes = {}
    for zip_name in ("app.zip.gz", "app-more.zip.gz"):
        with shipped_zip(zip_name) as shipped:
            names = shipped.namelist()
            shipped_hashes.update({
                name.split("/")[-1].split(".")[0] + ".py": shipped.read(name)[8:16].hex()
                for name in names if name.startswith("pyscript/")})
            assert not any(n.endswith(".py") for n in names)
        if zip_name == "app.zip.gz":
            assert "webui/screens/table.pyc" in names
    code = f"SOURCES = {json.dumps(json.dumps(pyscript_package()))}\n{SOURCE_HASHES}"
    hashes, written = json.loads(app.page.evaluate(RUN, code))
    assert len(hashes) >= 10 and hashes == shipped_hashes
    assert written == []
    app.page.wait_for_function("document.documentElement.dataset.more === 'loaded'")
    before, text, origins = json.loads(app.page.evaluate(RUN, IMPORTED_FROM))
    assert (before, text) == ([], "café & >")
    assert origins.pop("json").endswith(".zip/json/__init__.py")  # the standard library's
    assert origins == {"pyscript": "lostcities-app.zip/pyscript/__init__.pyc",
                       "pyscript.web": "lostcities-app-more.zip/pyscript/web.pyc",
                       "html": "lostcities-app.zip/html/__init__.pyc",
                       "html.entities": "lostcities-app-more.zip/html/entities.pyc"}
    table_file = "import webui.screens.table; webui.screens.table.__file__"
    assert app.page.evaluate(RUN, table_file).endswith(".pyc")
    # Compiled without column positions (smaller), with line numbers (for tracebacks).
    for positions in json.loads(app.page.evaluate(RUN, POSITIONS)):
        assert positions and all(column is None and end is None for _, _, column, end in positions)
        assert any(isinstance(line, int) for line, _, _, _ in positions)
