"""Python run in a booted page's own interpreter, for the test and the benchmark that drive the
page's modules directly (e2e/test_fair_group.py, scripts/bench_fair_browser.py).

`install(page)` adds a ``<script type="py">`` (which runs in the app's interpreter) that
exposes ``window.lcPagePython(code)``: it runs `code` in one namespace kept between calls and
answers JSON, ``{"ok": <the namespace's result>}`` or ``{"error": <traceback>}``. `run(page,
code)` calls it.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

RUNNER = '''
import json, traceback
import js
from pyodide.ffi import create_proxy

_NS = {}

def _run(code):
    _NS.pop("result", None)
    try:
        exec(code, _NS)
        return json.dumps({"ok": _NS.get("result")})
    except Exception:
        return json.dumps({"error": traceback.format_exc()})

js.window.lcPagePython = create_proxy(_run)
js.document.documentElement.dataset.lcPagePython = "ready"
'''

INSTALL = '''(code) => new Promise((resolve) => {
  new MutationObserver((records, observer) => { observer.disconnect(); resolve(); })
    .observe(document.documentElement,
             {attributes: true, attributeFilter: ["data-lc-page-python"]});
  const script = document.createElement("script");
  script.type = "py";
  script.textContent = code;
  document.body.append(script);
})'''


class PagePythonError(RuntimeError):
    """The code run in the page raised: the page's traceback."""


def install(page: Page) -> None:
    """Expose ``window.lcPagePython`` in the booted page (its Python ready)."""
    page.evaluate(INSTALL, RUNNER)


def run(page: Page, code: str) -> Any:
    """Run `code` in the page's interpreter: its `result` (JSON), or PagePythonError with the
    page's traceback."""
    answer = json.loads(page.evaluate("(code) => window.lcPagePython(code)", code))
    if "error" in answer:
        raise PagePythonError(answer["error"])
    return answer["ok"]
