"""The shell before Python has started, in real Chromium: the player's language from the first
frame (static/vendor/shell-lang.js: boot/build/shell-lang.js with the words
boot/build/shell_text.py takes from the catalogue).

Python is held (its runtime's download never answered), so what shows is the shell's own
doing. A recorder in the page notes when the shell's words changed and when the first
contentful paint was: the Spanish words are in before the first paint, so no English frame is
ever drawn. Choices made while Python loads, the language among them, are kept once it is up:
e2e/test_table.py (`test_choices_made_while_python_loads_are_kept`).
"""

from __future__ import annotations

from collections.abc import Iterator

from conftest import STATE_TIMEOUT_MS, Server, hold_python
import pytest
from playwright.sync_api import Browser, BrowserContext

FIRST_PAINT = """
window.__lcShell = {changes: [], paint: null};  // the shell's words over time, the first paint
new MutationObserver(() => {
  const start = document.querySelector('[data-action="start"]');
  const line = document.getElementById("lc-loading-line");
  window.__lcShell.changes.push({at: performance.now(), lang: document.documentElement.lang,
                                 start: start && start.textContent,
                                 line: line && line.textContent});
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true,
                      attributeFilter: ["lang"]});
new PerformanceObserver((list) => {
  const paint = list.getEntriesByName("first-contentful-paint")[0];
  if (paint) window.__lcShell.paint = paint.startTime;
}).observe({type: "paint", buffered: true});
"""


@pytest.fixture
def spanish_browser(browser: Browser, lc_server: Server) -> Iterator[BrowserContext]:
    """A new profile whose browser speaks Spanish (Argentina), nothing stored."""
    context = browser.new_context(base_url=lc_server.url, locale="es-AR",
                                  reduced_motion="reduce")
    context.set_default_timeout(STATE_TIMEOUT_MS)
    yield context
    context.close()


def test_the_shell_speaks_the_browsers_language_from_the_first_frame(
        spanish_browser: BrowserContext, lc_server: Server) -> None:
    page = spanish_browser.new_page()
    hold_python(page)
    page.add_init_script(FIRST_PAINT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(lc_server.url)
    page.wait_for_selector('html[data-shell="painted"]', state="attached")
    page.wait_for_function("window.__lcShell.paint !== null")
    shell = page.evaluate("window.__lcShell")
    before = [c for c in shell["changes"] if c["at"] <= shell["paint"]]
    assert before and before[-1]["lang"] == "es", shell
    assert before[-1]["start"] == "Empezar partida" and before[-1]["line"] == (
        "Barajando las cartas"), shell
    assert page.inner_text("#setup h2") == "Nueva partida"
    assert page.get_attribute('#setup [data-action="lang"]', "aria-label") == (
        "Switch to English")
    assert page.locator('#setup [data-action="lang"]').inner_text() == "English"
    # the bar shows only when the wait is long: Python is held, so it comes
    page.wait_for_selector("#lc-loading-bar", state="visible")
    assert errors == []
