"""Faster next boots (issue 8): the first boot compiles the standard library and the app, the
service worker keeps that bytecode, and the next boot runs on it (py/webui/warm_boot.py,
py/webui/bytecode.py, sw.js, static/pyodide-early.mjs).

Served like Netlify (netlify.toml's headers, Content-Security-Policy included) in a persistent
profile, with test_pwa.py's fixtures.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from conftest import wait_ready
from test_pwa import (  # noqa: F401  (fixtures)
    Player,
    first_visit,
    open_player,
    play_turns,
    serve,
    site,
    start_pass_and_play,
)

COMPILE_TIMEOUT_MS = 240_000
BYTECODE = "() => document.documentElement.dataset.bytecode"
KEEP = "([source, bytes]) => window.lcPwa.keepBytecode(source, new Uint8Array(bytes))"


def test_the_next_boot_runs_on_the_bytecode_the_first_one_compiled(
    site: Path, open_player: Callable[[], Player]  # noqa: F811
) -> None:
    player = open_player()
    with ExitStack() as stack:
        url = serve(stack, site)
        first_visit(player, url)
        page = player.page
        page.wait_for_function(f"() => ({BYTECODE})() === 'kept'", timeout=COMPILE_TIMEOUT_MS)
        # The worker answers the runtime's request for the standard library with it.
        served = page.evaluate("""async () => {
            const response = await fetch('static/vendor/pyodide/python_stdlib.zip');
            return [...new Uint8Array(await response.arrayBuffer())].length;
        }""")
        assert served > 3 * (site / "static/vendor/pyodide/python_stdlib.zip").stat().st_size
        # A zip from another version, or something else, is refused; the kept one stays.
        assert page.evaluate(KEEP, ["0123456789abcdef", [80, 75, 3, 4]]) == {
            "kept": False, "reason": "built from another version"}
        page.reload()
        wait_ready(page, page_errors=player.page_errors)
        page.wait_for_function(f"() => ({BYTECODE})() === 'booted'", timeout=30_000)
        # The game plays on it: a pass-and-play round to its end.
        start_pass_and_play(page)
        assert play_turns(page) == "match-end"
        assert player.page_errors == []
