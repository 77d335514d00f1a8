"""Playing alone against the computer in real Chromium.

One human (player 1) plays by clicks against the Hard bot the rest of a one-round match, saved
natively with 30 cards left in the deck: the page resumes it, plays it to its end and records
it. The page shows that the computer thinks (body[data-thinking], on for each of its turns)
and stays responsive
meanwhile: real clicks on the Rules button and the move log, made while it thinks, take
effect while it still thinks (a recorder in the page notes the state at the click and at its
effect). The same match asks for hints and survives a reload while the bot is thinking.
Everything is checked by states; how fast a click is handled is measured by
``scripts/bench_bots.py --page``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from conftest import AppPage, stored_once, wait_ready
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, ViewportSize

import lostcities
from webui.match.seats import MATCH_KEY as SAVE_KEY

START_DECK = 30
"""The match is saved with this many cards in the deck: the page plays the rest of the round."""
RELOAD_DECK = 24
"""The page reloads while the bot thinks once the deck is down to this."""
LATE_DECK = 12
"""The second hint is asked for this late in the round (the whole-round search)."""
CLICKS = 3
"""How many clicks must take effect while the bot thinks (each of its turns gets clicks until
then: about twenty turns, each thinking for at least two paces of 0.3 s)."""
TALL: ViewportSize = {"width": 1280, "height": 1600}
"""A viewport where the whole table fits: the clicks need no scrolling."""

RECORDER = """
(() => {
  window.__lcClicks = [];  // trusted clicks on Rules or the log: the state at click and effect
  let pending = null;
  const thinking = () => document.body.hasAttribute("data-thinking");
  document.addEventListener("click", (e) => {
    if (!e.isTrusted || !e.target.closest) return;
    const rules = e.target.closest('[data-action="rules"]');
    const summary = e.target.closest("details.log > summary");
    if (!rules && !summary) return;
    const details = summary ? summary.parentElement : null;
    const wasOpen = details ? details.open : false;
    pending = {
      what: rules ? "rules" : "log", thinking: thinking(),
      done: rules ? () => !document.getElementById("rules")?.hidden
                  : () => details.isConnected && details.open !== wasOpen,
    };
  }, true);
  new MutationObserver(() => {
    if (pending && pending.done()) {
      window.__lcClicks.push({what: pending.what, thinking: pending.thinking,
                              thinkingAtEffect: thinking()});
      pending = null;
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["hidden", "open"]});
  window.__lcThinking = 0;  // how often data-thinking came on (once a computer's turn)
  let on = false;
  new MutationObserver(() => {
    if (thinking() && !on) window.__lcThinking += 1;
    on = thinking();
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-thinking"]});
})();
"""

STATE = """() => {
  const b = document.body;
  const on = (s) => document.querySelector('#app button' + s + ':not([disabled])') !== null;
  const deck = document.querySelector('[data-zone="deck"] .deck-count');
  return {screen: b.dataset.screen, thinking: b.hasAttribute("data-thinking"),
          select: on('[data-action="select"]'), draw: on('[data-action="draw"]'),
          deck: deck ? parseInt(deck.textContent, 10) : null};
}"""

OUR_MOVE_OR_END = """() => {
  const b = document.body;
  if (b.dataset.screen === "match-end") return true;
  if (b.hasAttribute("data-thinking") || b.dataset.screen !== "turn") return false;
  return document.querySelector(
    '#app button[data-action="select"]:not([disabled]),'
    + '#app button[data-action="draw"]:not([disabled])') !== null;
}"""
THINKING_OR_OUR_MOVE = "() => document.body.hasAttribute('data-thinking') || (%s)()" % (
    OUR_MOVE_OR_END)


def hard_match_save() -> str:
    """A one-round match against Hard, saved at the human's turn once the deck is down to
    START_DECK: the moves before are random ones (seeded), made natively."""
    from webui.kernel.uistate import UiState
    from webui.match.seats.computer import BotMatch
    from webui.match.session import Session

    state = lostcities.new_match(lostcities.Options(rounds=1), seed=11, first_player=0,
                                 names=("Ana", "Computer (hard)"))
    rng = random.Random(11)
    moves = 0
    while not (state.to_act == 0 and state.phase == "play" and len(state.deck) <= START_DECK):
        moves += state.to_act == 1  # the computer's random stream counts its moves
        state = lostcities.apply(state, rng.choice(lostcities.legal_moves(state)))
    text = Session(BotMatch(state, "hard", 0, 11, moves), UiState(handoff=False)).save_text()
    assert text is not None
    return text


def centre_of(page: Page, selector: str) -> tuple[float, float]:
    """Where to click `selector` (scrolled into view); the bot's moves redraw the table, so
    an element can be replaced under our feet: then look again."""
    for _ in range(20):
        target = page.locator(selector).first
        try:
            target.scroll_into_view_if_needed(timeout=5_000)
            box = target.bounding_box(timeout=5_000)
        except PlaywrightError:
            continue
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    raise AssertionError(f"{selector} never stayed put")


def click_while_thinking(page: Page, spots: tuple[tuple[float, float], ...]) -> None:
    """While the bot thinks: click the Rules button (then Escape) and the log, as real mouse
    clicks at `spots` taken while the page was idle (a click that misses after a redraw is
    simply not recorded); the recorder notes whether the bot still thought at each effect."""
    rules, log = spots
    page.mouse.click(*rules)
    page.keyboard.press("Escape")  # closes the Rules page
    page.wait_for_function("() => document.getElementById('rules').hidden")
    page.mouse.click(*log)


def recorded(page: Page) -> tuple[list[dict[str, object]], int]:
    """The clicks the page's recorder saw so far and its count of thinking turns, cleared."""
    clicks, turns = page.evaluate(
        "() => { const r = [window.__lcClicks.splice(0), window.__lcThinking];"
        " window.__lcThinking = 0; return r; }")
    return clicks, int(turns)


def follow_hint(page: Page) -> dict[str, str]:
    """Press Hint, wait for the suggestion, check it, and play it by clicks."""
    page.locator('#app [data-action="hint"]').click()
    box = page.locator("#app .hint-box")
    box.wait_for(timeout=15_000)
    move: dict[str, str] = json.loads(box.get_attribute("data-hint") or "{}")
    assert box.locator(".hint-move").inner_text().strip()
    assert box.locator(".hint-reason").inner_text().strip()
    if move["type"] in ("play", "discard"):
        page.locator(f'#app [data-action="select"][data-card="{move["card"]}"]').first.click()
        page.locator(f'#app [data-action="{move["type"]}"]:not([disabled])').click()
    elif move["type"] == "draw":
        page.locator(f'#app [data-action="draw"][data-source="{move["source"]}"]'
                     ":not([disabled])").click()
    else:
        raise AssertionError(f"unexpected hint {move}")
    return move


def human_turn_step(page: Page, state: dict[str, object]) -> None:
    """One plain move: play the first playable card (else discard it), or draw from the deck."""
    if state["select"]:
        page.locator('#app [data-action="select"]:not([disabled])').first.click()
        play = page.locator('#app [data-action="play"]:not([disabled])')
        if play.count():
            play.click()
        else:
            page.locator('#app [data-action="discard"]:not([disabled])').click()
    else:
        page.locator('#app [data-action="draw"][data-source="deck"]:not([disabled])').click()


@pytest.mark.slow
def test_a_match_against_the_hard_computer(open_app: Callable[..., AppPage]) -> None:
    def setup(page: Page) -> None:
        page.set_viewport_size(TALL)
        page.add_init_script(stored_once(SAVE_KEY, hard_match_save()) + RECORDER)

    app = open_app(setup=setup)
    page = app.page
    page.wait_for_selector('body[data-screen="turn"]')
    # no hand-off screen, the human's hand face up, the computer's never
    assert page.locator('[data-zone="hand"][data-player="0"] [data-card]').count() == 8
    assert page.locator('[data-zone="hand"][data-player="1"] [data-card]').count() == 0
    hints: list[dict[str, str]] = []
    reloaded = False
    clicks: list[dict[str, object]] = []
    thinking_turns = our_turns = 0
    for _ in range(400):
        page.wait_for_function(OUR_MOVE_OR_END)
        state = page.evaluate(STATE)
        if state["screen"] == "match-end":
            break
        ends_turn = not state["select"]  # the draw: then the bot thinks
        spots = (centre_of(page, '#screen [data-action="rules"]'),
                 centre_of(page, "#screen details.log > summary")) if ends_turn else ()
        if state["select"] and (not hints or (len(hints) == 1 and state["deck"] <= LATE_DECK)):
            hints.append(follow_hint(page))
        else:
            human_turn_step(page, state)
        if not ends_turn:
            continue
        our_turns += 1
        page.wait_for_function(THINKING_OR_OUR_MOVE)
        if not page.evaluate("document.body.hasAttribute('data-thinking')"):
            continue  # its turn is already over (never seen on an idle machine)
        if not reloaded and state["deck"] <= RELOAD_DECK:
            new_clicks, turns = recorded(page)  # the page's records go with the reload
            clicks += new_clicks
            thinking_turns += turns
            page.reload()
            wait_ready(page, page_errors=app.page_errors)
            saved = json.loads(page.evaluate("localStorage.getItem('lostcities.match')"))
            assert saved["match"]["opponent"] == "hard"
            assert page.evaluate("document.body.dataset.screen") == "turn"
            reloaded = True  # the bot goes on by itself: the loop waits for our turn
        elif sum(1 for c in clicks if c["thinkingAtEffect"]) < CLICKS:
            click_while_thinking(page, spots)
            clicks += page.evaluate("() => window.__lcClicks.splice(0)")
    new_clicks, turns = recorded(page)
    clicks += new_clicks
    thinking_turns += turns
    assert page.evaluate("document.body.dataset.screen") == "match-end"
    assert page.locator("[data-winner]").get_attribute("data-winner") in ("0", "1", "draw")
    assert reloaded and len(hints) == 2
    # Thinking showed for each of the computer's turns (one more: the turn the reload cut
    # short is counted again when it resumes; one less if our last draw ended the round).
    assert our_turns > 10 and our_turns - 1 <= thinking_turns <= our_turns + 1, (
        thinking_turns, our_turns)
    during = [c for c in clicks if c["thinking"] and c["thinkingAtEffect"]]
    assert len(during) >= CLICKS, clicks
    # the match is recorded: Stats counts it against the Hard computer
    winner = page.locator("[data-winner]").get_attribute("data-winner")
    page.click('#screen [data-action="stats"]')
    page.wait_for_selector('body[data-screen="stats"]')
    result = {"0": "won", "1": "lost", "draw": "drawn"}[str(winner)]
    for stat, count in (("played", "1"), (result, "1")):
        assert page.inner_text(f'[data-opponent="hard"][data-stat="{stat}"]') == count
    # a match finished here: the setup no longer offers the guided first round on top
    page.click('#screen [data-action="stats-close"]')
    page.click('#screen [data-action="new-match"]')
    page.wait_for_selector('body[data-screen="setup"]')
    assert page.get_attribute("html", "data-first-game") == "false"
    assert page.locator(".first-game").is_hidden()
    assert not app.page_errors and not app.console_errors, (app.page_errors, app.console_errors)
