"""What the page's boot imports (webui.browser.app's imports): the standard modules that are dear to
compile on a first visit (no bytecode yet) stay out of it until they are used, and so do the
controller and the rules engine, imported once the page is ready (docs/boot.md)."""

import json
import subprocess
import sys
from pathlib import Path

from browserfakes import STAND_INS

PY = Path(__file__).resolve().parent.parent / "py"

# Imports webui.browser.app as the page does, with `js` and `pyodide.ffi` stood in for (they are
# only touched when the page runs), and prints the modules then loaded.
IMPORT_APP = STAND_INS + """
import json, sys
import webui.browser.app
print(json.dumps(sorted(sys.modules)))
"""

DEAR = {"html", "html.entities", "urllib.parse", "ipaddress", "secrets", "hmac", "hashlib"}
"""Measured in the shipped Pyodide from source: html ~75 ms (its entity table), urllib.parse
~125 ms (with ipaddress), secrets and hashlib ~30 ms."""


def test_the_boot_does_not_import_the_dear_standard_modules() -> None:
    result = subprocess.run([sys.executable, "-c", IMPORT_APP], cwd=PY, capture_output=True,
                            text=True, check=True, timeout=60)
    loaded = set(json.loads(result.stdout.splitlines()[-1]))
    assert "webui.browser.app" in loaded and "webui.online.codes" in loaded
    assert sorted(DEAR & loaded) == []
    later = {"lostcities", "webui.match.controller", "webui.match.session", "webui.screens.match",
             "dataclasses", "webui.player.players", "webui.browser.player_page",
             "webui.features.history", "webui.features.guide"}
    assert sorted(later & loaded) == []
