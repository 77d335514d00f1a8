"""The trimmed runtime: what it ships, and the engine gives the same games in Pyodide as
natively (a whole match by clicks on it, every option on: e2e/test_table.py).

scripts/build.py ships a python_stdlib.zip that holds only what the game imports, with comments
and docstrings stripped (boot/build/trim_stdlib.py), and no unused PyScript plugin chunks.
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import AppPage, Server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "boot" / "build"))
from trim_stdlib import FALLBACKS  # noqa: E402  (boot/build/trim_stdlib.py)

SHIPPED = ROOT / "static" / "vendor" / "pyodide" / "python_stdlib.zip.gz"  # gzipped whole
FULL = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
PLUGIN_CHUNKS = ("py-editor-", "py-game-", "py-terminal-", "donkey-", "deprecations-manager-",
                 "codemirror", "xterm", "/zip-")
SEEDS = (7, 2026)
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
# the C modules that make the fallbacks left out unneeded are the runtime's own
import importlib, sys
fallbacks = %s
for accelerator in fallbacks.values():
    importlib.import_module(accelerator)
import datetime
loaded = sorted(set(fallbacks) & set(sys.modules))
json.dumps({"compared": len(shipped.namelist()), "differ": differ, "fallbacks": loaded})
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


def test_the_built_stdlib_is_trimmed(lc_server: Server) -> None:
    """lc_server has run the build."""
    with zipfile.ZipFile(io.BytesIO(gzip.decompress(SHIPPED.read_bytes()))) as shipped, \
            zipfile.ZipFile(FULL) as full:
        kept, everything = set(shipped.namelist()), set(full.namelist())
    assert kept < everything
    assert {"asyncio/__init__.py", "json/__init__.py", "random.py", "pyodide/ffi/__init__.py",
            "encodings/utf_8.py"} <= kept
    assert not {"unittest/__init__.py", "email/__init__.py", "xml/__init__.py"} & kept
    assert "datetime.py" in kept and "_pydatetime.py" not in kept  # FALLBACKS
    assert SHIPPED.stat().st_size < FULL.stat().st_size / 3


def test_the_built_lock_file_lists_no_package(lc_server: Server) -> None:
    """lc_server has run the build: the runtime's lock file ships without its package index
    (scripts/build.py `packageless_lock`), and the whole suite boots with it."""
    shipped = json.loads((SHIPPED.parent / "pyodide-lock.json").read_text(encoding="utf-8"))
    full = json.loads((FULL.parent / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert shipped["packages"] == {} and full["packages"]
    assert shipped["info"] == full["info"]


def test_stripped_sources_compile_to_the_same_code_in_pyodide(tmp_path: Path) -> None:
    """Comments and docstrings only: every shipped module, compiled by Pyodide's own Python
    with -OO, gives the same bytecode and constants as Pyodide's original source."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing (it is needed for `npm ci` too)")
    script = tmp_path / "check.mjs"
    unpacked = tmp_path / "python_stdlib.zip"
    unpacked.write_bytes(gzip.decompress(SHIPPED.read_bytes()))
    script.write_text(NODE_CHECK % (ROOT / "node_modules" / "pyodide" / "pyodide.mjs",
                                    json.dumps(str(unpacked)),
                                    repr(FALLBACKS)))
    result = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["compared"] > 100
    assert report["differ"] == []
    assert report["fallbacks"] == []  # datetime used the runtime's _datetime


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
