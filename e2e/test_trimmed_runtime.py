"""The trimmed runtime still plays whole games; the engine gives the same games in Pyodide
as natively.

scripts/build.py ships a python_stdlib.zip that holds only what the game imports, with comments
and docstrings stripped (boot/build/trim_stdlib.py), and no unused PyScript plugin chunks.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import AppPage, Server
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "static" / "vendor" / "pyodide" / "python_stdlib.zip"
FULL = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
PLUGIN_CHUNKS = ("py-editor-", "py-game-", "py-terminal-", "donkey-", "deprecations-manager-",
                 "codemirror", "xterm", "/zip-")
SEEDS = (7, 2026)
BUTTONS = """() => [...document.querySelectorAll('#app button[data-action]:not([disabled])')]
  .filter(b => b.checkVisibility())
  .map(b => { const d = Object.assign({}, b.dataset); delete d.moving; return d; })"""
# Button groups in the order a click-bot that always moves the match on presses them.
PROGRESS = (("draw",), ("play", "discard"), ("pick-job",), ("ready",), ("dismiss-mixup",),
            ("next-round",), ("select",))
OPTION_SETS = ({}, {"sixth_colour": True, "jobs": True, "skills": True, "objectives": True,
                    "mixups": True})

# Plays seeded matches with the engine and a seeded random policy; the same code runs natively
# (exec below) and in the page (an added <script type="py"> runs in the app's interpreter).
PLAYOUT = '''
import hashlib, json, random
from lostcities import Options, apply, legal_moves, move_to_json, new_match, state_to_json

def playout(seed, options):
    state = new_match(Options(rounds=2, **options), seed=seed, first_player=seed % 2,
                      names=("Ana", "Ben"))
    rng = random.Random(seed)
    moves = []
    while state.phase != "match-end":
        move = rng.choice(legal_moves(state))
        moves.append(move_to_json(move))
        state = apply(state, move)
    final = json.dumps(state_to_json(state), sort_keys=True)
    digest = hashlib.sha256(json.dumps(moves).encode()).hexdigest()
    return {"moves": len(moves), "moves_sha": digest, "phase": state.phase,
            "final_sha": hashlib.sha256(final.encode()).hexdigest()}

def playouts(seeds, option_sets):
    return [playout(seed, options) for seed in seeds for options in option_sets]
'''

IN_PAGE = '''() => new Promise((resolve) => {
  const script = document.createElement("script");
  script.type = "py";
  script.textContent = %s;
  new MutationObserver((records, observer) => {
    observer.disconnect();
    resolve(document.documentElement.dataset.lcPlayouts);
  }).observe(document.documentElement, {attributes: true, attributeFilter: ["data-lc-playouts"]});
  document.body.append(script);
})'''

PAGE_CODE = PLAYOUT + '''
import js, traceback
try:
    result = json.dumps({"ok": playouts(SEEDS_HERE, OPTIONS_HERE)})
except Exception:
    result = json.dumps({"error": traceback.format_exc()})
js.document.documentElement.dataset.lcPlayouts = result
'''

NODE_CHECK = r'''
import { loadPyodide } from "%s";
import fs from "node:fs";
const py = await loadPyodide();
py.FS.writeFile("/tmp/shipped.zip", fs.readFileSync(%s));
console.log(py.runPython(`
import json, types, zipfile
full = zipfile.ZipFile("/lib/python314.zip")  # Pyodide's own, untouched
shipped = zipfile.ZipFile("/tmp/shipped.zip")
POSITIONS = {"co_linetable", "co_positions", "co_lnotab", "co_exceptiontable"}

def same(a, b):
    """Same bytecode, constants, names and flags: only position tables may differ."""
    for attr in ("co_code", "co_names", "co_varnames", "co_flags", "co_firstlineno",
                 "co_argcount", "co_kwonlyargcount", "co_name"):
        if getattr(a, attr) != getattr(b, attr):
            return False
    if len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if isinstance(x, types.CodeType):
            if not isinstance(y, types.CodeType) or not same(x, y):
                return False
        elif type(x) is not type(y) or x != y:
            return False
    return True

differ = []
for name in shipped.namelist():
    original = compile(full.read(name), name, "exec", optimize=2, dont_inherit=True)
    stripped = compile(shipped.read(name), name, "exec", optimize=2, dont_inherit=True)
    if not same(original, stripped):
        differ.append(name)
json.dumps({"compared": len(shipped.namelist()), "differ": differ})
`));
'''


def native_playouts() -> list[dict[str, object]]:
    """The PLAYOUT results natively, in this process."""
    namespace: dict[str, object] = {}
    exec(PLAYOUT, namespace)  # noqa: S102 (our own constant code, shared with the page)
    play = namespace["playouts"]
    assert callable(play)
    result = play(list(SEEDS), list(OPTION_SETS))
    assert isinstance(result, list)
    return result


def next_step(buttons: list[dict[str, str]], rng: random.Random) -> dict[str, str]:
    """A button of the first PROGRESS group present (a click-bot that always moves on).

    Draws come from the deck three times in four: a bot that picks any pile at random can
    trade discards back and forth for hundreds of turns before the deck runs out."""
    for group in PROGRESS:
        found = [b for b in buttons if b["action"] in group]
        deck = [b for b in found if b.get("source") == "deck"]
        if deck and rng.random() < 0.75:
            return deck[0]
        if found:
            return rng.choice(found)
    raise AssertionError(f"no button that moves the match on: {buttons}")


def test_the_built_stdlib_is_trimmed(lc_server: Server) -> None:
    """lc_server has run the build."""
    with zipfile.ZipFile(SHIPPED) as shipped, zipfile.ZipFile(FULL) as full:
        kept, everything = set(shipped.namelist()), set(full.namelist())
    assert kept < everything
    assert {"asyncio/__init__.py", "json/__init__.py", "random.py", "pyodide/ffi/__init__.py",
            "encodings/utf_8.py"} <= kept
    assert not {"unittest/__init__.py", "email/__init__.py", "xml/__init__.py"} & kept
    assert SHIPPED.stat().st_size < FULL.stat().st_size / 3


def test_stripped_sources_compile_to_the_same_code_in_pyodide(tmp_path: Path) -> None:
    """Comments and docstrings only: every shipped module, compiled by Pyodide's own Python
    with -OO, gives the same bytecode and constants as Pyodide's original source."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing (it is needed for `npm ci` too)")
    script = tmp_path / "check.mjs"
    script.write_text(NODE_CHECK % (ROOT / "node_modules" / "pyodide" / "pyodide.mjs",
                                    json.dumps(str(SHIPPED))))
    result = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["compared"] > 100
    assert report["differ"] == []


def test_the_engine_in_the_page_plays_seeded_matches_like_native(
    open_app: Callable[..., AppPage],
) -> None:
    app = open_app()
    code = PAGE_CODE.replace("SEEDS_HERE", repr(list(SEEDS)))
    code = code.replace("OPTIONS_HERE", repr(list(OPTION_SETS)))
    page_result = json.loads(app.page.evaluate(IN_PAGE % json.dumps(code)))
    assert "error" not in page_result, page_result.get("error")
    native = native_playouts()
    assert page_result["ok"] == native
    assert all(r["phase"] == "match-end" and int(str(r["moves"])) > 50 for r in native)
    assert app.page_errors == []


def test_a_whole_match_is_played_by_clicks_on_the_trimmed_runtime(
    open_app: Callable[..., AppPage],
) -> None:
    failed: list[str] = []

    def watch(page: Page) -> None:
        page.on("response",
                lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    app = open_app(setup=watch, fresh=True)  # every request of a first visit recorded
    page = app.page
    page.select_option('[data-option="rounds"]', "1")
    for box in page.locator('#setup-form input[type="checkbox"][data-option]').all():
        box.check()
    page.click('[data-action="start"]')
    rng = random.Random(8)
    clicks = 0
    while page.evaluate("document.body.dataset.screen") != "match-end":
        buttons = page.evaluate(BUTTONS)
        assert buttons, page.evaluate(
            "() => [document.body.dataset.screen, document.querySelector('#app').innerHTML]")
        data = next_step(buttons, rng)
        selector = "".join(f'[data-{k}="{v}"]' for k, v in data.items())
        page.locator(f"#app button{selector}:not([disabled]) >> visible=true").first.click()
        clicks += 1
        assert clicks < 1000, "the match did not end"
    assert page.locator(".breakdown").count() == 2
    assert app.page_errors == [] and app.console_errors == [] and failed == []
    plugins = [url for url in app.requests if any(c in url for c in PLUGIN_CHUNKS)]
    assert plugins == []
    assert any(url.endswith("/python_stdlib.zip") for url in app.requests)
