"""The edits of the runtime's JavaScript (boot/build/js_edits.py): each matches the npm
release exactly once, a release they do not match stops the build, and the edited runtime
(run by Node) starts in more tasks than the original and still works."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "boot" / "build"))
sys.path.insert(0, str(ROOT / "scripts"))

from build import PYODIDE_FILES, STDLIB, pyscript_files  # noqa: E402
from js_edits import (  # noqa: E402
    PYODIDE,
    PYSCRIPT,
    Edit,
    JsEditError,
    edited,
    edited_chunks,
)

NPM = ROOT / "node_modules"
NEEDS_NPM = pytest.mark.skipif(not (NPM / "pyodide" / "pyodide.mjs").exists(),
                               reason="needs node_modules (npm ci)")
NEEDS_NODE = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")


@NEEDS_NPM
def test_each_edit_matches_the_npm_release_once() -> None:
    for name, edits in PYODIDE.items():
        text = (NPM / "pyodide" / name).read_text(encoding="utf-8")
        assert edited(text, edits, name) != text
    chunks = {name: path.read_text(encoding="utf-8") for name, path in
              pyscript_files(NPM / "@pyscript" / "core" / "dist").items()}
    changed = edited_chunks(chunks, PYSCRIPT)
    assert len(changed) == 1
    (name, text), = changed.items()
    for gone in ("_path.write_text(", "import pyscript as _pyscript"):
        assert gone in chunks[name] and gone not in text
    # the package's sources stay, for boot/build/compile_app.mjs
    assert '{pyscript:{"__init__.py":' in text


@pytest.mark.parametrize("text", ["", "old old"])
def test_an_edit_that_does_not_match_once_stops_the_build(text: str) -> None:
    with pytest.raises(JsEditError, match="js_edits.X"):
        edited(text, (Edit("X", "old", "new"),), "file.mjs")


@pytest.mark.parametrize("chunks", [{"a.js": "none"}, {"a.js": "old", "b.js": "old"}])
def test_a_pyscript_edit_must_be_in_exactly_one_chunk(chunks: dict[str, str]) -> None:
    with pytest.raises(JsEditError, match="js_edits.X"):
        edited_chunks(chunks, (Edit("X", "old", "new"),))


def edited_runtime(dest: Path) -> Path:
    """A copy of npm's Pyodide in dest with PYODIDE's edits made."""
    dest.mkdir()
    for name in PYODIDE_FILES:
        source = NPM / "pyodide" / name
        if name in PYODIDE:
            text = edited(source.read_text(encoding="utf-8"), PYODIDE[name], name)
            (dest / name).write_text(text, encoding="utf-8")
        else:
            shutil.copyfile(source, dest / name)
    return dest


def turns(pyodide: Path, page: bool = False) -> dict[str, int | bool]:
    """tests/pyodide/boot_tasks.mjs's count of the shared memories the runtime makes, and of
    the event loop's turns while it links its wasm and restores a snapshot (two runtimes: one
    made, one restored)."""
    result = subprocess.run(
        ["node", str(ROOT / "tests" / "pyodide" / "boot_tasks.mjs"), str(pyodide),
         str(NPM / "pyodide" / STDLIB), *(["page"] if page else [])],
        capture_output=True, text=True, timeout=300, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


@NEEDS_NPM
@NEEDS_NODE
def test_the_edited_runtime_links_and_restores_in_more_tasks(tmp_path: Path) -> None:
    original = turns(NPM / "pyodide")
    edited_turns = turns(edited_runtime(tmp_path / "pyodide"), page=True)
    # npm's makes a shared memory for a sleep no page calls; the edited one, none
    assert original["sharedMemories"] == 2 and edited_turns["sharedMemories"] == 0
    # the link in three tasks; the restore, then the bootstrap in two
    assert edited_turns["link"] >= original["link"] + 2, (original, edited_turns)
    assert edited_turns["restore"] >= original["restore"] + 2, (original, edited_turns)
    # the link fills only the globals the wasm asks for, and the restored runtime still runs
    assert original["got"] > 8000 and edited_turns["got"] < original["got"] / 10
    assert original["answer"] == edited_turns["answer"] == "42"
    # the wrappers of the JavaScript functions it takes the address of: a few modules, not one
    # each; and an image written straight into memory from the stored pages (boot/snapshot.mjs)
    assert original["wrapperModules"] > 200 and edited_turns["wrapperModules"] < 10
    assert edited_turns["pageAnswer"] == "42"
