"""Motion and drag and drop at the table, in real Chromium (static/motion.js, static/drag.js).

Each test resumes a one-round match against the easy computer, made natively and planted in
localStorage, so the hand is known: a colour with two numbered cards (the higher one played
first makes the lower one illegal there) and a card of another colour.

An init script records every card that starts moving (``data-moving`` set): its code (or
that it is a back of the opponent's hand), its zone, where it shows at that moment (the
animation's first frame: where it flies from) and the zones' places then, in page
coordinates.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Literal

import pytest
from conftest import STATE_TIMEOUT_MS, AppPage, Server, stored_once, wait_ready
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, ViewportSize

import lostcities
from webui.match.seats.computer import BotMatch
from webui.match.session import Session
from webui.text.cards import parse_card

from webui.match.seats import MATCH_KEY as SAVE_KEY  # noqa: E402
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
NEAR = 12
"""Pixels between where a card starts its flight and the place it left: the picked card's
lift (9 px) is left out of the measure, and the opponent's hand zone narrows by one back."""

RECORDER = """(() => {
  window.__moves = [];
  const page = (box) => ({left: box.left + scrollX, top: box.top + scrollY,
                          right: box.right + scrollX, bottom: box.bottom + scrollY});
  const zoneOf = (el) => el && {zone: el.dataset.zone, player: el.dataset.player ?? null,
                                colour: el.dataset.colour ?? null};
  new MutationObserver((records) => {
    for (const record of records) {
      const el = record.target;
      if (record.oldValue !== null || !el.hasAttribute('data-moving')) continue;
      const box = page(el.getBoundingClientRect());
      window.__moves.push({
        card: el.dataset.card ?? null, back: el.classList.contains('back'),
        zone: zoneOf(el.closest('[data-zone]')),
        x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2,
        scripted: el.getAnimations().filter(
          (a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition)).length,
        zones: [...document.querySelectorAll('#screen [data-zone]')].map(
          (z) => Object.assign(zoneOf(z), page(z.getBoundingClientRect()))),
      });
    }
  }).observe(document, {subtree: true, attributes: true,
                          attributeFilter: ['data-moving'],
                          attributeOldValue: true});
})();"""

HAND_JS = """() => [...document.querySelectorAll(
  '#screen [data-zone="hand"] [data-action="select"][data-card]')].map((b) => b.dataset.card)"""
PICKED_JS = """() => [...document.querySelectorAll(
  '#screen [data-zone="hand"] [aria-pressed="true"]')].map((b) => b.dataset.card)"""
LIT_JS = """() => [...document.querySelectorAll('#screen .drop-target')].map(
  (z) => `${z.dataset.zone}:${z.dataset.colour}`).sort()"""
ZONE_CARDS_JS = """(selector) => [...document.querySelectorAll(
  `#screen ${selector} [data-card]`)].map((c) => c.dataset.card)"""
WATCH_FLIGHT_JS = """([selector, hold]) => {
  window.__flight = null;
  const seen = new MutationObserver(() => {
    const card = document.querySelector(selector);
    if (card === null) return;
    seen.disconnect();
    // motion.js's observer is older, so its frame callback for this patch was requested
    // first: this one runs in the same frame, just after its animations started
    requestAnimationFrame(() => {
      const own = card.getAnimations().filter((a) => !(a instanceof CSSAnimation));
      const running = own.filter((a) => a.playState === 'running');
      if (hold) running.forEach((a) => a.pause());
      window.__held = running;
      window.__flight = {moving: card.hasAttribute('data-moving'), running: running.length,
                         keyframes: own.map((a) => a.effect.getKeyframes()[0].translate)};
    });
  });
  seen.observe(document.getElementById('screen'), {childList: true, subtree: true});
}"""
"""Arms a watch for the card `selector` to appear on the screen: `window.__flight` becomes
its script animations in the frame motion.js starts them (`hold`: paused there)."""
SETTLED_JS = "() => new Promise((done) => setTimeout(() => setTimeout(done, 0), 0))"
"""Resolves once the page has run the tasks queued before it (and those they queued)."""
AFTER_PAINT_JS = """() => new Promise((done) => requestAnimationFrame(
  () => setTimeout(() => requestAnimationFrame(() => setTimeout(done, 0)), 0)))"""
"""Resolves after two frames and the tasks after them: the save after a paint has been written."""
MY_TURN_JS = """() => !document.body.hasAttribute('data-thinking')
  && document.body.dataset.screen === 'turn'
  && document.querySelector('#screen [data-action="select"]:not([disabled])') !== null"""


def hand_with_pair() -> tuple[str, list[str]]:
    """(save text, player 1's sorted hand) of the first seed whose hand holds two numbered
    cards of one colour and a card of another colour."""
    for seed in range(200):
        match = BotMatch.new(lostcities.Options(rounds=1), seed, 0, ("Ana", "Bot"), "easy")
        hand: list[str] = list(match.view()["hand"])
        numbers: dict[str, int] = {}
        for code in hand:
            colour, number = parse_card(code)
            if number is not None:
                numbers[colour] = numbers.get(colour, 0) + 1
        if any(n >= 2 for n in numbers.values()) and len({c[0] for c in hand}) >= 2:
            return Session(match).save_text(), hand
    raise AssertionError("no seed gives the hand these tests need")


def pair_of(hand: list[str]) -> tuple[str, str, str]:
    """(higher, lower) numbered cards of one colour in `hand`, and a card of another colour."""
    by: dict[str, list[tuple[int, str]]] = {}
    for code in hand:
        colour, number = parse_card(code)
        if number is not None:
            by.setdefault(colour, []).append((number, code))
    colour, cards = next((c, sorted(v)) for c, v in by.items() if len(v) >= 2)
    other = next(code for code in hand if code[0] != colour)
    return cards[-1][1], cards[0][1], other


Motion = Literal["reduce", "no-preference"]


def plant(save: str, motion: Motion, viewport: ViewportSize) -> Callable[[Page], None]:
    """Put the save in localStorage before the first boot and record the moves."""
    script = stored_once(SAVE_KEY, save) + RECORDER

    def setup(page: Page) -> None:
        page.set_viewport_size(viewport)
        page.emulate_media(reduced_motion=motion)
        page.add_init_script(script)

    return setup


def moves(page: Page) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate("() => window.__moves")
    return result


def centre_of(page: Page, selector: str) -> tuple[float, float]:
    """The centre of an element in page coordinates."""
    box = page.evaluate("""(selector) => { const b = document.querySelector(selector)
      .getBoundingClientRect(); return [b.left + b.right, b.top + b.bottom].map((v, i) =>
      v / 2 + (i ? scrollY : scrollX)); }""", selector)
    return box[0], box[1]


def zone_box(move: dict[str, Any], zone: str, player: str | None = None,
             colour: str | None = None) -> dict[str, Any]:
    """The box of a zone as recorded with a move."""
    return next(z for z in move["zones"] if z["zone"] == zone
                and (player is None or z["player"] == player)
                and (colour is None or z["colour"] == colour))


def inside(move: dict[str, Any], box: dict[str, Any], margin: float = NEAR) -> bool:
    """Whether the move started within the box (grown by `margin`)."""
    return bool(box["left"] - margin <= move["x"] <= box["right"] + margin
                and box["top"] - margin <= move["y"] <= box["bottom"] + margin)


def near(move: dict[str, Any], point: tuple[float, float]) -> bool:
    return bool(abs(move["x"] - point[0]) <= NEAR and abs(move["y"] - point[1]) <= NEAR)


def exp(colour: str, player: int = 0) -> str:
    return f'[data-zone="expedition"][data-player="{player}"][data-colour="{colour}"]'


def pile(colour: str) -> str:
    return f'[data-zone="discard"][data-colour="{colour}"]'


def card_button(code: str) -> str:
    return f'#screen [data-zone="hand"] [data-action="select"][data-card="{code}"]'


def watch_flight(page: Page, selector: str, hold: bool = False) -> None:
    """Watch for the card `selector` to arrive (WATCH_FLIGHT_JS), before the move is made."""
    page.evaluate(WATCH_FLIGHT_JS, [selector, hold])


def flight(page: Page) -> dict[str, Any]:
    """What the watched card's script animations were in the frame motion.js started them."""
    result: dict[str, Any] = page.wait_for_function("() => window.__flight").json_value()
    return result


def saved(page: Page) -> str | None:
    page.evaluate(AFTER_PAINT_JS)
    result: str | None = page.evaluate(f"() => localStorage.getItem({json.dumps(SAVE_KEY)})")
    return result


def draw_and_wait_for_the_computer(page: Page) -> None:
    """Draw from the deck, then wait until the computer has played and drawn."""
    page.locator('#screen [data-action="draw"][data-source="deck"]:not([disabled])').click()
    page.wait_for_function(MY_TURN_JS)


# -- motion ------------------------------------------------------------------------------------


def test_cards_fly_from_where_they_were_and_never_hold_up_a_click(
        open_app: Callable[..., AppPage]) -> None:
    save, hand = hand_with_pair()
    high, _, _ = pair_of(hand)
    app = open_app(setup=plant(save, "no-preference", DESKTOP))
    page = app.page
    assert page.evaluate(HAND_JS) == hand

    page.locator(card_button(high)).click()
    origin = centre_of(page, card_button(high))
    played = f"#screen {exp(high[0])} [data-card='{high}']"
    watch_flight(page, played, hold=True)  # held in mid-flight from then on
    page.locator('#screen [data-action="play"]').click()
    # in the frame after the click: the card in the expedition is flying, by a script
    # animation (not only the CSS pop of a fresh card), from where it was in the hand
    flying = flight(page)
    assert flying["moving"] and flying["running"] >= 1, flying
    assert flying["keyframes"][0] not in (None, "0px 0px", "none"), flying
    [play] = [m for m in moves(page) if m["card"] == high]
    assert play["zone"] == {"zone": "expedition", "player": "0", "colour": high[0]}
    assert play["scripted"] >= 1 and near(play, origin), (play, origin)

    # the next click works while that flight is still under way
    deck = centre_of(page, '[data-zone="deck"]')
    before = len(moves(page))
    page.locator('#screen [data-action="draw"][data-source="deck"]:not([disabled])').click()
    page.wait_for_function(f"() => ({HAND_JS})().length === {len(hand)}")
    assert page.evaluate("() => window.__held.every((a) => a.playState === 'paused')")
    [drawn] = list((Counter(page.evaluate(HAND_JS)) - Counter(hand)).elements())
    drawn_move = [m for m in moves(page) if m["card"] == drawn and m["zone"]["zone"] == "hand"]
    assert drawn_move and near(drawn_move[0], deck), (drawn_move, deck)

    # the computer's play (or discard) flies from its hand, its draw to its hand
    page.wait_for_function(MY_TURN_JS)
    theirs = moves(page)[before:]
    placed = [m for m in theirs if m["card"] and m["zone"]["zone"] in ("expedition", "discard")
              and (m["zone"]["zone"] == "discard" or m["zone"]["player"] == "1")]
    assert placed, theirs
    assert inside(placed[0], zone_box(placed[0], "hand", "1")), placed[0]
    backs = [m for m in theirs if m["back"]]
    assert backs and backs[0]["zone"]["player"] == "1", theirs
    sources = [zone_box(backs[0], "deck")] + [z for z in backs[0]["zones"]
                                              if z["zone"] == "discard"]
    assert any(inside(backs[0], box) for box in sources), backs[0]
    assert not app.page_errors


def test_reduced_motion_moves_nothing(open_app: Callable[..., AppPage]) -> None:
    save, hand = hand_with_pair()
    high, _, _ = pair_of(hand)
    app = open_app(setup=plant(save, "reduce", DESKTOP))
    page = app.page
    page.locator(card_button(high)).click()
    watch_flight(page, f"#screen {exp(high[0])} [data-card='{high}']")
    page.locator('#screen [data-action="play"]').click()
    assert flight(page) == {"moving": False, "running": 0, "keyframes": []}
    assert page.evaluate("() => document.getAnimations().length") == 0
    draw_and_wait_for_the_computer(page)
    page.evaluate(SETTLED_JS)
    assert moves(page) == []
    assert page.evaluate("() => document.querySelectorAll('[data-moving]').length") == 0
    assert not app.page_errors


# -- drag and drop -----------------------------------------------------------------------------


def still(page: Page, selector: str) -> None:
    """Wait until the element runs no animation (a card put back after a drop moves)."""
    page.wait_for_function("""(selector) => document.querySelector(selector).getAnimations()
      .every((a) => a.playState !== 'running')""", arg=selector)


def click_card(page: Page, code: str) -> None:
    """Click the card `code` of the hand once it has stopped moving (a card put back after a
    drop moves back for 150 ms: a click aimed at where it was would miss it)."""
    still(page, card_button(code))
    page.locator(card_button(code)).click()


def mouse_drag(page: Page, source: str, target: str, check: Callable[[], None] | None = None
               ) -> None:
    """Press on `source`, move onto `target` in steps, run `check()`, release."""
    still(page, source)
    start = page.locator(source).bounding_box()
    end = page.locator(target).bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=6)
    if check is not None:
        check()
    page.mouse.up()


def test_a_mouse_drag_plays_and_discards_and_an_illegal_drop_changes_nothing(
        open_app: Callable[..., AppPage]) -> None:
    save, hand = hand_with_pair()
    high, low, other = pair_of(hand)
    app = open_app(setup=plant(save, "no-preference", DESKTOP))
    page = app.page

    # dragged onto its expedition: played; while dragged, its expedition and pile light up
    def lit_for_high() -> None:
        assert page.evaluate(LIT_JS) == sorted([f"discard:{high[0]}", f"expedition:{high[0]}"])
        assert page.evaluate(PICKED_JS) == [high]

    watch_flight(page, f"#screen {exp(high[0])} [data-card='{high}']")
    mouse_drag(page, card_button(high), f"#screen {exp(high[0])}", lit_for_high)
    assert flight(page)["moving"]
    assert page.evaluate(ZONE_CARDS_JS, exp(high[0])) == [high]
    assert high not in page.evaluate(HAND_JS) and page.evaluate(LIT_JS) == []
    draw_and_wait_for_the_computer(page)

    # a lower card of that colour can't go there: only its pile lights up, and a drop on the
    # expedition, or on another colour's, changes nothing (hand, picked card, save)
    hand_now, save_now = page.evaluate(HAND_JS), saved(page)
    pile_before = page.evaluate(ZONE_CARDS_JS, pile(low[0]))

    def lit_for_low() -> None:
        assert page.evaluate(LIT_JS) == [f"discard:{low[0]}"]

    mouse_drag(page, card_button(low), f"#screen {exp(low[0])}", lit_for_low)
    mouse_drag(page, card_button(other), f"#screen {exp(low[0])}")
    mouse_drag(page, card_button(low), "#screen .bar")
    page.evaluate(SETTLED_JS)
    assert page.evaluate(HAND_JS) == hand_now and page.evaluate(PICKED_JS) == []
    assert page.evaluate(ZONE_CARDS_JS, exp(low[0])) == [high]
    assert page.evaluate(LIT_JS) == [] and saved(page) == save_now
    assert page.locator("#screen .dragging, #screen [data-drag-x]").count() == 0

    # the keyboard still picks and unpicks
    page.locator(card_button(other)).focus()
    page.keyboard.press("Enter")
    assert page.evaluate(PICKED_JS) == [other]
    page.keyboard.press("Enter")
    assert page.evaluate(PICKED_JS) == []

    # what was picked before the drag is picked after a drop elsewhere
    click_card(page, other)
    mouse_drag(page, card_button(low), f"#screen {exp(low[0])}")
    assert page.evaluate(PICKED_JS) == [other] and page.evaluate(HAND_JS) == hand_now
    click_card(page, low)
    mouse_drag(page, card_button(low), f"#screen {exp(low[0])}")
    assert page.evaluate(PICKED_JS) == [low] and page.evaluate(HAND_JS) == hand_now

    # dragged onto its pile: discarded
    mouse_drag(page, card_button(low), f"#screen {pile(low[0])}")
    page.wait_for_function(f"() => ({HAND_JS})().length === {len(hand_now) - 1}")
    assert page.evaluate(ZONE_CARDS_JS, pile(low[0])) == [low] != pile_before
    assert page.evaluate(ZONE_CARDS_JS, exp(low[0])) == [high]
    assert not app.page_errors


@pytest.fixture
def touch_context(browser: Browser, lc_server: Server) -> Iterator[BrowserContext]:
    """A phone-sized context with a touch screen."""
    context = browser.new_context(base_url=lc_server.url, viewport=PHONE, has_touch=True,
                                  is_mobile=True)
    context.set_default_timeout(STATE_TIMEOUT_MS)
    yield context
    context.close()


def touch_drag(cdp: CDPSession, page: Page, source: str, target: str | None) -> None:
    """A finger on `source`, moved onto `target` in steps (or not moved: a tap), lifted."""
    still(page, source)
    start = page.locator(source).bounding_box()
    assert start
    x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    if target is not None:
        end = page.locator(target).bounding_box()
        assert end
        tx, ty = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
        for step in range(1, 9):
            point = {"x": x + (tx - x) * step / 8, "y": y + (ty - y) * step / 8}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_touch_drag_plays_and_discards_and_a_tap_stays_a_tap(
        touch_context: BrowserContext) -> None:
    save, hand = hand_with_pair()
    high, low, other = pair_of(hand)
    page = touch_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    plant(save, "no-preference", PHONE)(page)
    page.goto("/")
    wait_ready(page, page_errors=errors)
    cdp = touch_context.new_cdp_session(page)
    page.evaluate("() => scrollTo(0, 0)")

    touch_drag(cdp, page, card_button(other), None)  # a tap picks the card
    page.wait_for_function(f"() => ({PICKED_JS})().includes({json.dumps(other)})")
    touch_drag(cdp, page, card_button(other), None)  # and a second tap drops it
    page.wait_for_function(f"() => ({PICKED_JS})().length === 0")

    touch_drag(cdp, page, card_button(high), f"#screen {exp(high[0])}")
    page.evaluate(SETTLED_JS)  # the drop is handled at once
    assert page.evaluate(ZONE_CARDS_JS, exp(high[0])) == [high]
    assert high not in page.evaluate(HAND_JS)
    draw_and_wait_for_the_computer(page)

    hand_now, save_now = page.evaluate(HAND_JS), saved(page)
    touch_drag(cdp, page, card_button(low), f"#screen {exp(low[0])}")  # illegal: nothing
    page.evaluate(SETTLED_JS)
    assert page.evaluate(HAND_JS) == hand_now and page.evaluate(PICKED_JS) == []
    assert saved(page) == save_now

    touch_drag(cdp, page, card_button(low), f"#screen {pile(low[0])}")
    page.evaluate(SETTLED_JS)
    assert page.evaluate(ZONE_CARDS_JS, pile(low[0])) == [low]
    assert Counter(hand_now) - Counter(page.evaluate(HAND_JS)) == Counter([low])
    assert not errors
