"""The runtime starts without WebAssembly stack switching (boot/no-stack-switching.mjs): the
module removes the API from its realm, and every script that starts the runtime imports it
before the runtime. e2e/test_boot_snapshot.py checks the runtime of a page booted from a
worker's image and from a kept snapshot."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "boot" / "no-stack-switching.mjs"
STARTERS = ("pyodide-early.mjs", "snapshot-worker.mjs")
IMPORT = re.compile(r'^import\b.*?["\']([^"\']+)["\'];', re.MULTILINE)

# In a realm that has the API (both of its forms, as a browser may), then after the module.
RUNNER = """
WebAssembly.Suspending = function Suspending() {};
WebAssembly.Suspender = function Suspender() {};
const before = ["Suspending" in WebAssembly, "Suspender" in WebAssembly];
await import(%s);
console.log(JSON.stringify({before, after: ["Suspending" in WebAssembly,
                                           "Suspender" in WebAssembly]}));
"""


def test_the_module_takes_stack_switching_away() -> None:
    script = RUNNER % json.dumps(MODULE.as_uri())
    result = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                            text=True, timeout=60, check=True)
    assert json.loads(result.stdout) == {"before": [True, True], "after": [False, False]}


def test_every_script_that_starts_the_runtime_imports_it_first() -> None:
    for name in STARTERS:
        imports = IMPORT.findall((ROOT / "boot" / name).read_text(encoding="utf-8"))
        assert imports[0] == "./no-stack-switching.mjs", (name, imports)
        assert any(path.endswith("/pyodide/pyodide.mjs") for path in imports[1:]), name
