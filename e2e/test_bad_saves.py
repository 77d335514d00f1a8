"""Bad saves and bad fields in real Chromium: the page always boots.

What only a browser shows: a match the DOM refuses to write is set aside, a storage that
throws the browser's own QuotaExceededError still lets the page boot, and the lobby's fields
holding region markers render. Proven natively (the controller on a fake page): names cleaned
where they enter, typed or saved (tests/test_names.py), each wrong field of a save refused and
set aside (tests/test_save_types.py, "a null objective" among them), a second bad save kept
beside the first (tests/test_set_aside.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from conftest import AppPage, wait_ready
from playwright.sync_api import Page

from lostcities import Options
from webui.match.seats.local import LocalMatch
from webui.match.session import Session

from webui.match.seats import MATCH_KEY as SAVE_KEY  # noqa: E402
SET_ASIDE_JS = """(key) => Object.keys(localStorage)
  .filter((k) => k.startsWith(key + '.set-aside.')).sort().map((k) => localStorage.getItem(k))"""


def save_text(names: tuple[str, str] = ("Ana", "Ben"), seed: int = 8) -> str:
    """A real pass-and-play save (objectives on), made natively."""
    options = Options(rounds=2, objectives=True)
    return Session(LocalMatch.new(options, seed, 0, names)).save_text()


def with_null_objective() -> str:
    """A save that loaded, then failed at render: a null among a player's objectives."""
    doc = json.loads(save_text())
    doc["match"]["state"]["objectives"][0][1] = None
    return json.dumps(doc)


def plant(items: dict[str, str], extra_js: str = "") -> Callable[[Page], None]:
    """Put `items` in localStorage before the app's first boot in this context (not again on
    reloads), and run `extra_js` before the page's own scripts on every load."""
    script = ("if (!sessionStorage.getItem('planted')) { sessionStorage.setItem('planted', '1');"
              f" for (const [k, v] of Object.entries({json.dumps(items)}))"
              " localStorage.setItem(k, v); }\n" + extra_js)
    return lambda page: page.add_init_script(script)


def set_aside(page: Page, key: str = SAVE_KEY) -> list[str]:
    """The texts set aside from `key`, oldest first."""
    result: list[str] = page.evaluate(SET_ASIDE_JS, key)
    return result


def notice(page: Page) -> str:
    return page.inner_text("#notice [role=alert]")


THROW_ON_THE_TABLE = """
const inner = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
Object.defineProperty(Element.prototype, 'innerHTML', {
  configurable: true,
  get() { return inner.get.call(this); },
  set(html) {
    if (String(html).includes('Zoltan')) throw new Error('the table was refused');
    inner.set.call(this, html);
  },
});
"""
"""The DOM refuses any markup naming Zoltan: the screens of his match can't be written, the
setup can (a render failure that no check of the save can prevent)."""


def test_a_match_that_cannot_be_rendered_is_set_aside_and_the_page_boots(
        open_app: Callable[..., AppPage]) -> None:
    good = save_text(("Zoltan", "Ben"))
    app = open_app(setup=plant({SAVE_KEY: good}, THROW_ON_THE_TABLE))
    page = app.page
    assert page.evaluate("document.body.dataset.screen") == "setup"
    assert "could not be shown" in notice(page) and "the table was refused" in notice(page)
    assert page.evaluate(f"localStorage.getItem('{SAVE_KEY}')") is None
    assert [json.loads(t) for t in set_aside(page)] == [json.loads(good)]
    assert app.page_errors == []


QUOTA = """
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  const others = Object.keys(this).filter((k) => k.includes('.set-aside'));
  if (String(key).includes('.set-aside') && (window.lcAlwaysFull || others.length > 0)) {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  }
  return setItem.call(this, key, value);
};
"""
"""A storage with room for one set-aside save (none when window.lcAlwaysFull is set)."""


def test_setting_aside_in_a_full_storage_drops_the_oldest_and_boots(
        open_app: Callable[..., AppPage]) -> None:
    old, bad = '"an old bad save"', with_null_objective()
    items = {f"{SAVE_KEY}.set-aside.1": old, SAVE_KEY: bad}
    app = open_app(setup=plant(items, QUOTA))
    page = app.page
    assert "set aside" in notice(page)
    assert set_aside(page) == [bad]  # the oldest made room
    # and with no room at all, the bad save is logged, dropped, and the page boots
    page.evaluate("(text) => localStorage.setItem('lostcities.match', text)", bad)
    page.add_init_script("window.lcAlwaysFull = true")
    page.reload()
    wait_ready(page, page_errors=app.page_errors)
    assert "set aside" in notice(page)
    assert set_aside(page) == [] and page.evaluate(f"localStorage.getItem('{SAVE_KEY}')") is None
    assert any("storage full" in e for e in app.console_errors)
    page.click('[data-action="start"]')
    page.wait_for_selector('body[data-screen="handoff"]')
    assert app.page_errors == []


def test_lobby_fields_holding_region_markers_render(open_app: Callable[..., AppPage]) -> None:
    app = open_app()
    page = app.page
    page.locator('[data-option="mode"][value="online"]').check()
    page.click('[data-action="start"]')
    page.wait_for_selector('[data-screen="lobby"]')
    page.evaluate("""() => {
        document.querySelector('[data-field="room-code"]').value = '\\x02AB\\x04';
        document.querySelector('[data-field="guest-name"]').value = '\\x04\\u202e'; }""")
    page.click('[data-action="join-room"]')  # a code too short: the lobby says so
    page.wait_for_selector('p.online-error[role="alert"]')
    assert app.page_errors == []
