"""The table for thumbs and keys, seen: a tour of the screens a new player meets, in English and
Spanish, each point shown at 390x844 and at 1280x800 in a screenshot (e2e/artifacts/tour-*, git-
ignored) and checked on the page as it is shot: what the point is about is on screen, in view,
in the language of the tour.

The points' behaviour is proven where it is decided (natively, and by the focused browser tests:
tap to a target and the lock marker in test_table.py's long board, keys and focus in its whole
turn by keys, the guide in test_players.py); this tour makes sure each one is also seen, at both
sizes, in both languages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import AppPage, stored_once, wait_ready
from onlinekit import enter_lobby
import pytest
from playwright.sync_api import Page
from test_players import HISTORY_KEY, wait_screen
from test_table import ARTIFACTS, assert_accessible, fill_setup

from webui.text.cards import card_name

SIZES: dict[str, Any] = {"phone": {"width": 390, "height": 844},
                         "desktop": {"width": 1280, "height": 800}}

IN_VIEW = """(selector) => {
  const found = [...document.querySelectorAll(selector)].filter((e) => e.offsetParent !== null);
  return found.length > 0 && found.every((e) => {
    const b = e.getBoundingClientRect();
    return b.height > 0 && b.top >= 0 && b.bottom <= innerHeight && b.left >= 0
      && b.right <= innerWidth;
  });
}"""
"""Whether every shown element `selector` finds lies wholly in the viewport (and one does)."""

WORDS = {
    "en": {"join": "Join Ana's room", "computer": "Computer (hard)", "pass": "Pass to"},
    "es": {"join": "Unirse a la sala de Ana", "computer": "Ordenador (difícil)",
           "pass": "Pásale"},
}


def history_text() -> str:
    """A history of two one-round matches against the Hard computer, its name stored in
    English as older versions stored it (worded at render in the language shown)."""
    from test_history import play_match, record_of, reid

    from lostcities import Options
    from webui.features.history import dump, record_from_json

    records = []
    for n, seed in enumerate((401, 402)):
        doc = record_of(play_match(Options(rounds=1), seed), level="hard",
                        date=f"2026-12-0{n + 1}T10:00:00.000Z").to_json()
        doc["names"] = ["Ana", "Computer (hard)"]
        records.append(record_from_json(reid(doc)))
    return dump(records)


def seen(page: Page, point: str, lang: str, *in_view: str,
         check: Callable[[str], None] | None = None, scrolls: bool = False) -> None:
    """Screenshots of `point` at both sizes, each once every `in_view` selector is wholly in
    view (on a screen that `scrolls`, once scrolled to: the screenshot is then of the whole
    page) and `check(size)` holds; the page is left at the phone's size."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for selector in in_view:
            if scrolls:
                page.locator(selector).first.scroll_into_view_if_needed()
            page.wait_for_function(IN_VIEW, arg=selector)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), size
        if check is not None:
            check(size)
        page.screenshot(path=str(ARTIFACTS / f"tour-{point}-{size}-{lang}.png"),
                        full_page=scrolls)
    page.set_viewport_size(SIZES["phone"])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_point_is_seen_at_both_sizes_in_the_players_language(
        open_app: Callable[..., AppPage], lang: str) -> None:
    words = WORDS[lang]

    def setup(page: Page) -> None:
        page.set_viewport_size(SIZES["phone"])
        page.add_init_script(stored_once("lostcities.lang", lang))

    app = open_app(setup=setup)
    page = app.page
    assert page.evaluate("document.documentElement.lang") == lang

    # the guide is offered at the top of a first-timer's setup, then points at what to press
    # from a compact bar
    seen(page, "setup", lang, '.first-game [data-action="guide"]')
    page.click('.first-game [data-action="guide"]')
    wait_screen(page, "turn")

    def compact(size: str) -> None:
        share = page.evaluate("""() => document.querySelector('#screen [data-guide]')
          .getBoundingClientRect().height / innerHeight""")
        assert share <= (0.25 if size == "phone" else 0.4), (size, share)

    seen(page, "guide", lang, "#screen .guided", "#screen [data-guide]", check=compact)
    page.click('#screen [data-action="guide-skip"]')
    wait_screen(page, "setup")

    # pass and play: a card picked by keys lights where it can go; after the play the focus
    # is on the deck, ringed in blue, not the gold of a legal place; the hand-off tells the
    # whole turn
    fill_setup(page, rounds=1)
    page.click('[data-action="start"]')
    page.wait_for_selector('body[data-screen="handoff"]')
    page.click('#screen [data-action="ready"]')
    wait_screen(page, "turn")
    page.focus('#screen [data-action="select"][tabindex="0"]')
    page.keyboard.press("Enter")
    card = page.evaluate("document.activeElement.dataset.card")
    seen(page, "picked", lang, "#screen .tap-target", '#screen [data-zone="hand"]',
         '#screen [data-action="play"]')
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.dataset.source === 'deck'")

    def ring(size: str) -> None:
        assert page.evaluate("document.activeElement?.dataset.source") == "deck", size
        assert page.evaluate("getComputedStyle(document.activeElement).outlineColor") == (
            "rgb(124, 199, 255)")

    seen(page, "focus-on-deck", lang, '#screen [data-action="draw"][data-source="deck"]',
         check=ring)
    page.keyboard.press("Enter")
    page.wait_for_selector('body[data-screen="handoff"]')

    def whole_turn(size: str) -> None:
        lines = page.locator("#screen .handoff .last li").all_inner_texts()
        assert len(lines) == 2 and all(line.startswith("Ana ") for line in lines), lines
        assert card_name(lang, card) in lines[0], (card, lines)  # what was played or discarded

    seen(page, "handoff", lang, "#screen .handoff .last", '#screen [data-action="ready"]',
         check=whole_turn)
    assert words["pass"] in page.inner_text("#screen .handoff h1")
    page.click('#app [data-action="abandon"]')
    page.click('#app [data-action="abandon-yes"]')
    wait_screen(page, "setup")

    # online: the waiting room's exit says what it does
    enter_lobby(app)
    page.click('[data-action="create-room"]')
    page.wait_for_selector("[data-room-code]")
    seen(page, "room", lang, "[data-room-code]", '[data-action="leave-room"]')
    page.click('[data-action="leave-room"]')
    wait_screen(page, "setup")

    # a join link opens "Join Ana's room": the name and one button; hosting is a link away
    page.evaluate("([key, text]) => localStorage.setItem(key, text)",
                  [HISTORY_KEY, history_text()])
    page.goto("/?room=ABCDEF&host=Ana")
    wait_ready(page, page_errors=app.page_errors)
    page.wait_for_selector('[data-lobby="join"]')

    def one_way_in(size: str) -> None:
        assert page.inner_text('[data-lobby="join"] h2, [data-lobby="join"] h1').startswith(
            words["join"])
        assert page.locator('[data-lobby="join"] .btn.primary').count() == 1

    seen(page, "join", lang, '[data-lobby="join"] [data-field="guest-name"]',
         '[data-lobby="join"] [data-action="join-room"]', check=one_way_in)
    assert_accessible(page, f"join ({lang})")
    page.click('[data-lobby="join"] [data-action="leave-room"]')
    wait_screen(page, "setup")
    assert "?" not in page.url  # the link is left behind: a reload shows the setup

    # stats: the import control is a button, the margins chart has its values and an axis
    page.click('#app [data-action="stats"]:visible')
    wait_screen(page, "stats")

    def chart(size: str) -> None:
        bars = page.locator('svg[data-chart="margins"] rect[data-margin]').count()
        labels = page.locator('svg[data-chart="margins"] text').all_inner_texts()
        assert bars == 2 and len(labels) >= bars + 2, labels  # a value a bar, and the axis
        assert page.evaluate("""() => getComputedStyle(document.querySelector(
          'input[data-field="import-stats"]')).opacity""") == "0"

    seen(page, "stats", lang, 'svg[data-chart="margins"]', "label.btn", check=chart,
         scrolls=True)

    # a replay: autoplay with a speed, a turn at a time, each round's end
    page.click('#screen [data-action="replay"] >> nth=0')
    wait_screen(page, "replay")

    def controls(size: str) -> None:
        for action in ("replay-play", "replay-turn-next", "replay-round-end"):
            assert page.locator(f'[data-action="{action}"]').count() >= 1, action
        assert words["computer"] in page.inner_text("#screen")

    page.click('[data-action="replay-turn-next"]')
    page.wait_for_selector('[data-replay-step]:not([data-step="0"])')
    seen(page, "replay", lang, '[data-action="replay-play"]', '[data-field="replay-speed"]',
         check=controls, scrolls=True)
    assert app.page_errors == [] and app.console_errors == [], (app.page_errors,
                                                                app.console_errors)
