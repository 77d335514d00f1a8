"""Bad saves and bad names in real Chromium: the page always boots.

A name holding a region marker's control character once made every render raise, and the
match, saved first, failed every later boot the same way; a save with a null objective loaded
and then failed at render. Now names are cleaned where they enter, saves are checked field by
field, a screen that can't be rendered sets its match aside, and set-aside saves are kept side
by side (``<key>.set-aside.<stamp>``), even when the storage is full.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from conftest import AppPage, wait_ready
from playwright.sync_api import Page

from lostcities import Options
from webui.match.seats.local import LocalMatch
from webui.match.session import Session

SAVE_KEY = "lostcities.match"
HIDDEN = "\x02\x04\x00\x1b\u202e\u2066\u200b\ufeff\u00ad"
"""Each kind of character a name never keeps: the old region markers, NUL, ESC, a bidi
override and isolate, a zero-width space, a byte-order mark, a soft hyphen."""

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


def names_shown(page: Page) -> list[Any]:
    result: list[Any] = page.evaluate(
        "() => JSON.parse(localStorage.getItem('lostcities.match')).match.state.names")
    return result


def test_a_save_whose_names_hold_hidden_characters_boots_and_shows_the_match(
        open_app: Callable[..., AppPage]) -> None:
    text = save_text((f"A{HIDDEN}na", f"{HIDDEN}Ben{HIDDEN}"))
    app = open_app(setup=plant({SAVE_KEY: text}))
    page = app.page
    assert page.evaluate("document.body.dataset.screen") == "handoff"
    assert page.locator("#notice [role=alert]").count() == 0
    assert "Ana" in page.inner_text("#screen")
    page.click('[data-action="ready"]')
    page.wait_for_selector('body[data-screen="turn"]')
    page.wait_for_function("() => !localStorage.getItem('lostcities.match').includes('\\\\u')")
    assert names_shown(page) == ["Ana", "Ben"]  # saved again, cleaned
    assert app.page_errors == []


def test_names_typed_with_hidden_characters_start_save_reload_and_render(
        open_app: Callable[..., AppPage]) -> None:
    app = open_app()
    page = app.page
    page.evaluate("""(names) => {
        document.querySelector('[data-field="name1"]').value = names[0];
        document.querySelector('[data-field="name2"]').value = names[1]; }""",
                  [f"A{HIDDEN}na", HIDDEN])
    page.click('[data-action="start"]')
    page.wait_for_selector('body[data-screen="handoff"]')
    page.wait_for_function("() => localStorage.getItem('lostcities.match') !== null")
    assert names_shown(page) == ["Ana", "Player 2"]  # nothing that shows: the default
    page.reload()
    wait_ready(page, page_errors=app.page_errors)
    assert page.evaluate("document.body.dataset.screen") == "handoff"
    page.click('[data-action="ready"]')
    page.wait_for_selector('body[data-screen="turn"]')
    assert app.page_errors == []


def test_a_save_with_a_null_objective_is_set_aside_and_the_page_boots(
        open_app: Callable[..., AppPage]) -> None:
    bad = with_null_objective()
    app = open_app(setup=plant({SAVE_KEY: bad}))
    page = app.page
    assert page.evaluate("document.body.dataset.screen") == "setup"
    assert "set aside" in notice(page) and "objective" in notice(page)
    assert page.evaluate(f"localStorage.getItem('{SAVE_KEY}')") is None
    assert set_aside(page) == [bad]
    page.click('[data-action="start"]')  # the page works
    page.wait_for_selector('body[data-screen="handoff"]')
    assert app.page_errors == []


def test_two_bad_saves_in_a_row_are_both_kept(open_app: Callable[..., AppPage]) -> None:
    first, second = with_null_objective(), '{"app": "lostcities-webui"'
    app = open_app(setup=plant({SAVE_KEY: first}))
    page = app.page
    page.evaluate("(text) => localStorage.setItem('lostcities.match', text)", second)
    page.reload()
    wait_ready(page, page_errors=app.page_errors)
    assert "set aside" in notice(page)
    assert set_aside(page) == [first, second]


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
