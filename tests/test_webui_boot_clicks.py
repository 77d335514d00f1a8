"""A click that comes while app-more.zip is on its way (webui.browser.app): it waits, in order,
unless the zip's modules are in already (a later visit's boot snapshot holds them), when it is
carried out at once. The page's Python is imported natively, the browser's modules stood in for."""

import json
import subprocess
import sys
from pathlib import Path

from browserfakes import STAND_INS

PY = Path(__file__).resolve().parent.parent / "py"

# Prints, for a page without and with app-more.zip's modules imported, the clicks the
# controller got while the zip was on its way, and then once it was mounted.
CLICKS = STAND_INS + """
import asyncio, json, sys, types
from webui.browser import app as page_app

class Controller:
    def __init__(self):
        self.clicks = []
    def click(self, action, data):
        self.clicks.append(action)
    def kick(self):
        pass

async def clicks(snapshot):
    if snapshot:  # what a later visit's boot snapshot holds
        sys.modules[page_app.PLUGINS] = types.ModuleType(page_app.PLUGINS)
    page_app.MORE = ()  # (their import is not what is checked here)
    app = page_app.App()
    app._controller = controller = Controller()
    app._more = asyncio.get_running_loop().create_future()  # the zip on its way
    later = asyncio.ensure_future(app._import_later(True))
    await asyncio.sleep(0)
    app.on_click("stats", {})
    app.on_click("stats-close", {})
    while_coming = list(controller.clicks)
    app._more.set_result(True)
    await later
    return [while_coming, controller.clicks]

async def main():
    print(json.dumps([await clicks(False), await clicks(True)]))

asyncio.run(main())
"""


def test_a_click_waits_for_app_more_zip_unless_its_modules_are_in() -> None:
    result = subprocess.run([sys.executable, "-c", CLICKS], cwd=PY, capture_output=True,
                            text=True, check=True, timeout=60)
    first_visit, from_snapshot = json.loads(result.stdout.splitlines()[-1])
    assert first_visit == [[], ["stats", "stats-close"]]  # waited, then done in order
    assert from_snapshot == [["stats", "stats-close"], ["stats", "stats-close"]]
