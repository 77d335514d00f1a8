"""The same seeded games give the same results in Pyodide (Python 3.14, via Node) as natively.

Runs the real Pyodide from node_modules (``npm ci``); skipped where Node or it is missing. The
browser e2e test checks the same through the page.
"""

import json
import runpy
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide" / "pyodide.mjs"
HERE = Path(__file__).resolve().parent / "pyodide"


@pytest.mark.skipif(shutil.which("node") is None or not PYODIDE.exists(),
                    reason="needs node and node_modules/pyodide (npm ci)")
def test_seeded_games_are_identical_in_pyodide() -> None:
    result = subprocess.run(
        ["node", str(HERE / "run_in_pyodide.mjs"), str(PYODIDE), str(ROOT / "py"),
         str(HERE / "golden.py"), str(HERE.parent / "fastmatch.py")],
        capture_output=True, text=True, timeout=300, check=True,
    )
    in_pyodide = json.loads(result.stdout.strip().splitlines()[-1])
    native = json.loads(json.dumps(runpy.run_path(str(HERE / "golden.py"))["results"]()))
    assert in_pyodide.pop("python").startswith("3.14")
    native.pop("python")
    assert in_pyodide == native
    assert in_pyodide["every"]["phase"] == "match-end"
