"""The table in real Chromium, driven by clicks only.

A click-bot reads the enabled buttons (``data-action`` and their other ``data-*`` hooks) and
clicks one, like a player who only ever does legal things. At every round end it reads the
expeditions shown and recomputes their scores with the engine's `score_expedition`, natively.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import AppPage, stored_once, wait_ready
import pytest
from playwright.sync_api import Page, Route
from test_trimmed_runtime import PLUGIN_CHUNKS

from lostcities import JOBS, MIXUPS, ScoringRules, score_expedition

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "e2e" / "artifacts"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ALL_OPTIONS = ("sixth-colour", "jobs", "skills", "objectives", "mixups")
from webui.match.seats import MATCH_KEY as SAVE_KEY  # noqa: E402

BUTTONS_JS = """() => ({
  screen: document.body.dataset.screen,
  buttons: [...document.querySelectorAll('#app button[data-action]:not([disabled])')]
    .filter(b => !b.closest('[hidden]'))
    .map(b => { const d = Object.assign({}, b.dataset); delete d.moving; return d; }),
})"""

SCREEN_JS = "[document.body.dataset.screen, document.querySelector('#screen').innerHTML]"
TASKS_RUN = "() => new Promise((done) => setTimeout(() => setTimeout(done, 0), 0))"
"""Resolves once the page has run the tasks queued before it (and those they queued)."""

RESULTS_JS = """() => [...document.querySelectorAll('.breakdown')].map(section => ({
  player: Number(section.dataset.player),
  job: section.querySelector('[data-job]')?.dataset.job ?? null,
  expeditions: [...section.querySelectorAll('[data-zone="expedition"]')].map(zone => ({
    colour: zone.dataset.colour,
    cards: [...zone.querySelectorAll('[data-card]')].map(card => card.dataset.card),
    shown: Number(section.querySelector(
      `[data-breakdown-score][data-colour="${zone.dataset.colour}"]`).textContent),
  })),
  objectives: [...section.querySelectorAll('[data-objective]')].map(li => ({
    id: li.dataset.objective, achieved: li.classList.contains('yes'),
    points: Number(li.querySelector('b').textContent),
  })),
  round: Number(section.querySelector('[data-round-score]').textContent),
  total: Number(section.querySelector('[data-total]').textContent),
}))"""


def open_table(open_app: Callable[..., AppPage], viewport: dict[str, int] = PHONE,
               failed: list[str] | None = None,
               setup: Callable[[Page], None] | None = None) -> AppPage:
    """The app at `viewport`, booted, on the setup screen; with `failed`, on a first visit (a
    new context), every response of status 400 or more put in `failed`; `setup(page)` runs
    before the page opens."""

    def prepare(page: Page) -> None:
        page.set_viewport_size(viewport)
        if setup is not None:
            setup(page)
        if failed is not None:
            page.on("response", lambda r: failed.append(f"{r.status} {r.url}")
                    if r.status >= 400 else None)

    app = open_app(setup=prepare, fresh=failed is not None)
    assert app.page.evaluate("document.body.dataset.screen") == "setup"
    return app


def fill_setup(page: Page, names: tuple[str, str] = ("Ana", "Ben"), rounds: int = 3,
               options: tuple[str, ...] = (), starts: str = "0") -> None:
    """Fill the setup form by clicks and typing (no click on Start)."""
    page.fill('[data-field="name1"]', names[0])
    page.fill('[data-field="name2"]', names[1])
    page.select_option('[data-option="rounds"]', str(rounds))
    page.check(f'[data-field="starts"][value="{starts}"]')
    for option in options:
        page.check(f'[data-option="{option}"]')


def click(page: Page, data: dict[str, str]) -> None:
    """Click the (first) enabled button carrying exactly these data-* values."""
    selector = "".join(f'[data-{k}="{v}"]' for k, v in data.items())
    page.locator(f"#app button{selector}:not([disabled])").first.click()


def assert_accessible(page: Page, name: str) -> None:
    """axe-core (npm) finds no serious or critical violation on the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => JSON.stringify(await axe.run(document))")
    violations = [v for v in json.loads(result)["violations"]
                  if v["impact"] in ("serious", "critical")]
    report = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in violations]
    assert not violations, f"axe on {name}: {report}"


def screenshot(page: Page, name: str) -> None:
    """Save a screenshot to e2e/artifacts/ (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def rules_for(job: str | None, mixup: str | None) -> ScoringRules:
    """A player's scoring rules from the job and mixup shown on the screen."""
    rules = ScoringRules()
    if job:
        rules = JOBS[job].adjust(rules)
    if mixup:
        rules = MIXUPS[mixup].adjust(rules)
    return rules


def check_results(page: Page, totals: list[int]) -> None:
    """Recompute every shown expedition score from the shown cards; check round and totals."""
    mixup = page.evaluate("document.querySelector('#screen [data-mixup]')?.dataset.mixup ?? null")
    sections = page.evaluate(RESULTS_JS)
    assert [s["player"] for s in sections] == [0, 1]
    for section in sections:
        rules = rules_for(section["job"], mixup)
        round_score = 0
        for exp in section["expeditions"]:
            score = score_expedition(exp["cards"], rules).score
            assert exp["shown"] == score, (section["player"], exp)
            round_score += score
        round_score += sum(o["points"] for o in section["objectives"] if o["achieved"])
        assert all(o["points"] in (0, 25) for o in section["objectives"])
        assert section["round"] == round_score
        totals[section["player"]] += round_score
        assert section["total"] == totals[section["player"]]


class ClickBot:
    """Plays by clicking enabled buttons: mostly moving on, a skill or an undo now and then."""

    def __init__(self, page: Page, seed: int) -> None:
        self.page = page
        self.rng = random.Random(seed)
        self.seen: list[str] = []
        self.totals = [0, 0]

    def step(self) -> str:
        """Look at the screen, click one button; returns the screen it was on."""
        state: dict[str, Any] = self.page.evaluate(BUTTONS_JS)
        screen, buttons = state["screen"], state["buttons"]
        self.seen.append(screen)
        by: dict[str, list[dict[str, str]]] = {}
        for b in buttons:
            by.setdefault(b["action"], []).append(b)
        if screen in ("round-end", "match-end"):
            check_results(self.page, self.totals)
            if screen == "round-end":
                click(self.page, {"action": "next-round"})
            return screen
        for single in ("ready", "dismiss-mixup"):
            if single in by:
                click(self.page, {"action": single})
                return screen
        if "pick-job" in by:
            click(self.page, self.rng.choice(by["pick-job"]))
            return screen
        extras = [b for a in ("undo", "radio", "airlift", "sabotage") for b in by.get(a, [])]
        finish = by.get("play", []) + by.get("discard", [])
        if extras and self.rng.random() < 0.06:
            pick = self.rng.choice(extras)
        elif finish:
            pick = by["play"][0] if "play" in by and self.rng.random() < 0.7 else finish[-1]
        elif "draw" in by:
            deck = [b for b in by["draw"] if b.get("source") == "deck"]
            pick = deck[0] if deck and self.rng.random() < 0.85 else self.rng.choice(by["draw"])
        else:
            pick = self.rng.choice(by["select"])
        click(self.page, pick)
        return screen

    def play_until_pick(self, limit: int = 200) -> None:
        """Click until a turn shows with cards to pick (the start of a play)."""
        for _ in range(limit):
            state = self.page.evaluate(BUTTONS_JS)
            if state["screen"] == "turn" and any(b["action"] == "select"
                                                 for b in state["buttons"]):
                return
            self.step()
        raise AssertionError("never reached a turn to play")

    def play_until(self, screens: tuple[str, ...], limit: int = 4000) -> str:
        """Click until one of `screens` shows; returns it."""
        for _ in range(limit):
            screen = self.page.evaluate("document.body.dataset.screen")
            if screen in screens:
                return str(screen)
            self.step()
        raise AssertionError(f"never reached {screens}")


def play_whole_match(app: AppPage, options: tuple[str, ...], seed: int, tag: str) -> ClickBot:
    """Set up and play a one-round match to the match end, checking screens on the way (a
    round's end screen between rounds: `test_the_round_end_screen_is_accessible`; several
    rounds by buttons: tests/test_webui_table.py)."""
    page = app.page
    assert_accessible(page, "setup")
    fill_setup(page, rounds=1, options=options)
    click(page, {"action": "start"})
    bot = ClickBot(page, seed)
    if "jobs" in options:
        bot.play_until(("jobs",))
        assert_accessible(page, "jobs")
    bot.play_until(("turn",))
    for _ in range(12):  # a few turns in, the table has something on it
        bot.play_until(("turn",))
        bot.step()
    bot.play_until(("turn",))
    assert_accessible(page, "table")
    screenshot(page, f"table-phone{tag}")
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"table-desktop{tag}")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    bot.play_until(("handoff",))
    assert_accessible(page, "handoff")
    bot.play_until(("match-end",))
    bot.step()  # checks the last round's breakdown and the totals
    assert_accessible(page, "match-end")
    screenshot(page, f"match-end-phone{tag}")
    totals = [int(page.locator(f'[data-total][data-player="{p}"]').inner_text()) for p in (0, 1)]
    assert totals == bot.totals
    winner = page.locator("[data-winner]").get_attribute("data-winner")
    expected = "draw" if totals[0] == totals[1] else str(totals.index(max(totals)))
    assert winner == expected
    assert app.page_errors == [] and app.console_errors == []
    return bot


@pytest.mark.slow
def test_a_whole_match_with_every_option_on_a_first_visit(
        open_app: Callable[..., AppPage]) -> None:
    """Also: the trimmed runtime (e2e/test_trimmed_runtime.py) carries all a match needs."""
    failed: list[str] = []
    app = open_table(open_app, failed=failed)
    bot = play_whole_match(app, ALL_OPTIONS, seed=2, tag="-options")
    assert "jobs" in bot.seen
    assert failed == []
    assert [url for url in app.requests if any(c in url for c in PLUGIN_CHUNKS)] == []
    assert any(url.endswith("/python_stdlib.zip.gz") for url in app.requests)
    page = app.page
    click(page, {"action": "new-match"})
    assert page.evaluate("document.body.dataset.screen") == "setup"
    assert page.evaluate(f"localStorage.getItem('{SAVE_KEY}')") is None
    assert page.input_value('[data-field="name1"]') == "Ana"  # the form keeps its values


def test_a_reload_mid_turn_resumes_identical(open_app: Callable[..., AppPage]) -> None:
    app = open_table(open_app)
    page = app.page
    fill_setup(page, names=("Zoë", "Ben"), options=("skills", "objectives"))
    click(page, {"action": "start"})
    bot = ClickBot(page, 5)
    for _ in range(5):
        bot.play_until_pick()
        bot.step()
    bot.play_until_pick()
    page.locator('#app [data-action="select"]').first.click()
    click(page, {"action": "discard"})  # now mid-turn: discarded, not yet drawn
    before = page.evaluate(SCREEN_JS)
    assert before[0] == "turn"
    page.reload()
    wait_ready(page, page_errors=app.page_errors)
    after = page.evaluate(SCREEN_JS)
    assert after == before
    click(page, {"action": "undo"})  # the resumed turn goes on
    assert page.locator('#app [data-action="discard"]').is_disabled()


def test_the_save_waits_for_the_paint_and_is_never_lost(
        open_app: Callable[..., AppPage]) -> None:
    """A move is saved after it is painted (off the click's path), and a save still pending
    when the page is hidden or left is written then."""
    app = open_table(open_app)
    page = app.page
    click(page, {"action": "start"})
    click(page, {"action": "ready"})
    saved = f"() => JSON.parse(localStorage.getItem('{SAVE_KEY}')).match.state.phase"
    # the last click's save: a task after the next frame, queued before this one's
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")
    page.evaluate("window.requestAnimationFrame = () => 0")  # no frame is painted any more
    page.locator('#app [data-action="select"]').first.click()
    click(page, {"action": "discard"})
    assert page.evaluate("document.body.dataset.screen") == "turn"
    page.evaluate(TASKS_RUN)
    assert page.evaluate(saved) == "play"  # not painted: still to be saved
    page.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
                  " document.dispatchEvent(new Event('visibilitychange'))")
    assert page.evaluate(saved) == "draw"  # hidden: written at once
    page.evaluate("delete document.hidden")
    click(page, {"action": "draw", "source": "deck"})
    page.evaluate(TASKS_RUN)
    assert page.evaluate(saved) == "draw"
    page.reload()  # left with the draw unsaved: pagehide writes it
    wait_ready(page, page_errors=app.page_errors)
    assert page.evaluate("document.body.dataset.screen") == "handoff"
    assert page.evaluate(saved) == "play"
    assert app.page_errors == [] and app.console_errors == []


def test_a_corrupt_save_is_reported_and_set_aside(open_app: Callable[..., AppPage]) -> None:
    # planted before the first script: a save written after ready could be read by the
    # controller this page still makes in the background, before a reload
    corrupt = stored_once(SAVE_KEY, '{"app": "lostcities-webui"')
    app = open_table(open_app, setup=lambda page: page.add_init_script(corrupt))
    page = app.page
    assert page.locator("#notice [role=alert]").is_visible()
    assert page.evaluate(f"localStorage.getItem('{SAVE_KEY}')") is None
    aside = page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith("
                          "'lostcities.match.set-aside.')).map((k) => localStorage.getItem(k))")
    assert len(aside) == 1 and aside[0].startswith("{"), aside
    click(page, {"action": "dismiss-notice"})
    click(page, {"action": "start"})  # the page still works
    assert page.evaluate("document.body.dataset.screen") == "handoff"


def test_abandon_asks_then_returns_to_setup(open_app: Callable[..., AppPage]) -> None:
    app = open_table(open_app)
    page = app.page
    click(page, {"action": "start"})
    click(page, {"action": "ready"})
    click(page, {"action": "abandon"})
    click(page, {"action": "abandon-no"})
    assert page.evaluate("document.body.dataset.screen") == "turn"
    click(page, {"action": "abandon"})
    click(page, {"action": "abandon-yes"})
    assert page.evaluate("document.body.dataset.screen") == "setup"
    assert page.evaluate(f"localStorage.getItem('{SAVE_KEY}')") is None


LOADING_LINES = """
window.__lcLoadingLines = [];  // every text the loading line showed
new MutationObserver(() => {
  const line = document.getElementById("lc-loading-line");
  const seen = window.__lcLoadingLines;
  if (line && seen[seen.length - 1] !== line.textContent) seen.push(line.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_choices_made_while_python_loads_are_kept(open_app: Callable[..., AppPage]) -> None:
    held: list[Route] = []
    released = False

    def hold(route: Route) -> None:  # until released, the runtime's download waits
        if released:
            route.continue_()
        else:
            held.append(route)

    def setup(page: Page) -> None:
        page.route("**/pyodide.asm.wasm", hold)
        page.add_init_script(LOADING_LINES)

    app = open_app(ready=False, setup=setup)
    page = app.page
    page.set_viewport_size(PHONE)
    page.wait_for_function("document.readyState === 'complete'")
    # the language button works before Python does: the shell is in Spanish at once
    page.click('#setup [data-action="lang"]')
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.locator('[data-action="start"]').inner_text() == "Empezar partida"
    assert page.locator("#lc-loading-line").inner_text() == "Barajando las cartas"
    fill_setup(page, names=("", "Ben"), rounds=2, options=("skills",), starts="1")
    name = page.locator('[data-field="name1"]')
    name.press_sequentially("Zoë")  # key by key, as a player types
    assert name.input_value() == "Zoë"
    click(page, {"action": "start"})
    assert page.locator("#setup-wait").is_visible()
    assert page.evaluate("document.documentElement.dataset.ready") is None
    released = True
    for route in held:  # asked for and held meanwhile; if not yet asked for, let through then
        route.continue_()
    wait_ready(page, page_errors=app.page_errors)
    assert page.evaluate("document.body.dataset.screen") == "handoff"
    assert "Ben" in page.locator("#screen h1").inner_text()  # Ben starts, as chosen
    assert "Ronda 1 de 2" in page.locator("#screen .round").inner_text()  # in Spanish
    click(page, {"action": "ready"})
    assert page.evaluate("document.body.dataset.screen") == "turn"
    assert page.locator('#screen [data-action="radio"]').count() == 1  # skills: on, as chosen
    assert "Zoë" in page.locator("#screen").inner_text()  # the name typed while loading
    # the loading line said the player's words only, never the runtime's own
    assert set(page.evaluate("window.__lcLoadingLines")) <= {
        "Shuffling the cards", "Barajando las cartas"}


def test_keyboard_and_spanish(open_app: Callable[..., AppPage]) -> None:
    app = open_table(open_app)
    page = app.page
    click(page, {"action": "lang"})
    assert page.locator('[data-action="start"]').inner_text() == "Empezar partida"
    page.focus('[data-action="start"]')
    page.keyboard.press("Enter")
    assert page.evaluate("document.body.dataset.screen") == "handoff"
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.action")
    for _ in range(10):  # Tab to the Ready button
        if focused == "ready":
            break
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.action")
    page.keyboard.press("Enter")
    assert page.evaluate("document.body.dataset.screen") == "turn"
    names = page.eval_on_selector_all('[data-action="select"]', "bs => bs.map(b => b.ariaLabel)")
    assert names and all(any(w in n for w in ("Amarillo", "Azul", "Blanco", "Verde", "Rojo",
                                               "Apretón")) for n in names)
    for _ in range(80):  # Tab to a card and pick it with Enter
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action") == "select":
            break
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action") == "discard":
            break
    page.keyboard.press("Enter")
    assert page.locator('[data-action="undo"]').is_enabled()
    label = page.get_attribute('[data-action="draw"][data-source="deck"]', "aria-label")
    assert label is not None and label.startswith("Robar del mazo")
    page.click('#screen [data-action="rules"]')  # the Rules page, in Spanish
    page.wait_for_selector("#rules:not([hidden])")
    assert_accessible(page, "rules (es)")


ACTIVE = "() => document.activeElement?.dataset.action ?? null"


def test_a_whole_turn_takes_at_most_six_keys_and_the_focus_follows_the_turn(
        open_app: Callable[..., AppPage]) -> None:
    """Against the Easy computer, by keys alone: from the table's heading, a card picked, played
    or discarded, and a card drawn; the focus goes to the deck after the play, and back to
    the hand when the turn comes again; arrow keys move within the hand."""
    app = open_table(open_app, viewport=DESKTOP)
    page = app.page
    fill_setup(page, rounds=1)
    page.select_option('[data-option="opponent"]', "easy")
    click(page, {"action": "start"})
    page.wait_for_function("() => document.body.dataset.screen === 'turn'")
    presses = 0

    def press(key: str) -> None:
        nonlocal presses
        presses += 1
        page.keyboard.press(key)

    said: list[str] = []  # what a screen reader announces: the focused control, the live line

    def focused() -> str:
        said.append(page.locator(":focus").aria_snapshot())
        return said[-1]

    def live() -> str:
        said.append(page.inner_text("#screen [data-last-move]"))
        return said[-1]

    for turn in range(2):
        if turn == 0:
            press("Tab")  # from the table's heading, to the one card in the tab order
        else:  # the computer has moved: the focus came back to the hand by itself
            page.wait_for_function(f"() => ({ACTIVE})() === 'select'")
        assert page.evaluate(ACTIVE) == "select"
        assert page.evaluate("document.activeElement.tabIndex") == 0
        card = str(page.evaluate("document.activeElement.ariaLabel"))
        assert focused() == f'- button "{card}"'  # not pressed
        press("Enter")  # pick it
        assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
        assert focused() == f'- button "{card}" [pressed]'
        press("Tab")  # to Play, or to Discard when it can't be played
        action = str(page.evaluate(ACTIVE))
        assert action in ("play", "discard")
        assert focused().startswith(f'- button "{action.capitalize()} {card}"')
        press("Enter")
        page.wait_for_function(f"() => ({ACTIVE})() === 'draw'")  # the focus is on the deck
        assert page.evaluate("document.activeElement.dataset.source") == "deck"
        assert live().startswith("Ana played " if action == "play" else "Ana discarded ")
        assert focused().startswith('- button "Draw from the deck')
        ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
        assert ring == "rgb(124, 199, 255)"  # blue: not the gold glow of a legal place
        press("Enter")  # draw
        page.wait_for_function("() => document.querySelector('#screen [data-last-move]')"
                               ".textContent.includes(' drew ')")
        assert presses <= 6 * (turn + 1), presses
        page.wait_for_function("() => !document.body.hasAttribute('data-thinking')"
                               " && document.body.dataset.screen === 'turn'")
    # the arrow keys move the focus, and the tab order, within the hand
    page.wait_for_function(f"() => ({ACTIVE})() === 'select'")
    place = ("() => [...document.querySelectorAll('#screen [data-zone=\"hand\"] "
             "[data-action=\"select\"]')].indexOf(document.activeElement)")  # cards alike
    first = page.evaluate(place)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(ACTIVE) == "select"
    count = page.locator('#screen [data-zone="hand"] [data-action="select"]').count()
    assert page.evaluate(place) == (first + 1) % count  # the next card, round to the first
    assert page.evaluate("document.activeElement.tabIndex") == 0
    assert page.locator('#screen [data-zone="hand"] [tabindex="0"]').count() == 1
    ARTIFACTS.mkdir(exist_ok=True)  # what was announced, for the record
    (ARTIFACTS / "screen-reader-turn.txt").write_text("\n".join(said) + "\n", encoding="utf-8")
    assert app.page_errors == [] and app.console_errors == []


def open_saved(open_app: Callable[..., AppPage], save: str,
               viewport: dict[str, int]) -> AppPage:
    """The app at `viewport`, booted on the match `save` (put in storage before the page's
    first script runs, once)."""

    def setup(page: Page) -> None:
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        page.add_init_script(stored_once(SAVE_KEY, save))

    return open_app(setup=setup)


def long_expeditions_save() -> str:
    """A match against the computer saved mid-round with a whole colour (12 cards) in an
    expedition on each side: the player's turn to play, a Yellow card picked."""
    from lostcities.scenario import position
    from webui.kernel.uistate import UiState
    from webui.match.seats.computer import BotMatch
    from webui.match.session import Session

    whole = lambda colour: (f"{colour}H",) * 3 + tuple(f"{colour}{n}" for n in range(2, 11))  # noqa: E731
    state = position(expeditions=({"Y": whole("Y")}, {"B": whole("B")}),
                     hands=(("R2", "R5", "G3", "G8", "W4", "W9", "R10", "G10"), ()),
                     names=("Ana", "Computer (easy)"), seed=5)
    session = Session(BotMatch(state, "easy", 0, 5), UiState(handoff=False, selected="R2"))
    text = session.save_text()
    assert text is not None
    return text


VISIBLE = """() => {
  const out = [];
  for (const selector of ['#screen [data-zone="hand"]', '#screen [data-action="play"]',
                          '#screen [data-action="discard"]']) {
    const box = document.querySelector(selector).getBoundingClientRect();
    out.push(box.top >= 0 && box.bottom <= innerHeight && box.height > 0);
  }
  return {shown: out, scrollY: scrollY, wide: document.documentElement.scrollWidth <= innerWidth};
}"""


LOOK = """(b) => [b.disabled, getComputedStyle(b).borderTopStyle,
                 getComputedStyle(b).backgroundColor]"""
# Whether each lit place's label (play here, discard here) shows its words whole: one line
# (the height of one), nothing cut (its text no wider than its box) and inside the window.
LABELS_WHOLE = """() => [...document.querySelectorAll('#screen .target-label')].map((label) => {
  const box = label.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(label).lineHeight);
  return box.height < 1.5 * line + 4 && label.scrollWidth <= label.clientWidth
    && box.left >= 0 && box.right <= innerWidth;
})"""
OVERLAP = """([a, b]) => {
  const [p, q] = [a, b].map((s) => document.querySelector(s).getBoundingClientRect());
  return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_board_of_twelve_card_expeditions_fits_with_the_hand_in_view(
        open_app: Callable[..., AppPage], size: str) -> None:
    viewport = PHONE if size == "phone" else {"width": 1280, "height": 800}
    app = open_saved(open_app, long_expeditions_save(), viewport)
    page = app.page
    page.wait_for_selector('body[data-screen="turn"] #screen [data-zone="hand"]')
    for lang in ("en", "es"):
        counts = page.eval_on_selector_all('#screen [data-zone="expedition"] .stack',
                                           "ss => ss.map(s => s.children.length)")
        assert sorted(counts)[-2:] == [12, 12]
        assert page.evaluate(VISIBLE) == {"shown": [True, True, True], "scrollY": 0, "wide": True}
        assert page.locator("#screen .tap-target").count() == 2  # the picked card's places
        assert_accessible(page, f"a long board ({size}, {lang})")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"long-expeditions-{size}-{lang}.png"))
        # the lit places' labels are whole, on one line and in view, the discard pile's
        # leaves the pile's size readable, and the expedition's leaves its head (colour icon
        # and score) in view
        assert page.evaluate(LABELS_WHOLE) == [True, True]
        assert not page.evaluate(OVERLAP, ['#screen [data-action="discard-here"] .target-label',
                                           '#screen .tap-target .pile-size'])
        assert not page.evaluate(OVERLAP, ['#screen [data-action="play-here"] .target-label',
                                           '#screen .tap-target .exp-head'])
        if lang == "en":
            page.click('#screen [data-action="lang"]')
            page.wait_for_function("() => document.documentElement.lang === 'es'")
    # discarded by a tap on the lit pile: in the draw step Play and Discard look disabled
    # (dashed, unfilled), and the pile's lock marker leaves the card's number readable
    page.click('#screen [data-action="discard-here"]')
    page.wait_for_selector("#screen .pile.is-locked .pile-mark")
    for action in ("play", "discard"):
        look = page.eval_on_selector(f'#screen [data-action="{action}"]', LOOK)
        assert look == [True, "dashed", "rgba(0, 0, 0, 0)"], (action, look)
    for lang in ("es", "en"):
        if lang == "en":
            page.click('#screen [data-action="lang"]')
            page.wait_for_function("() => document.documentElement.lang === 'en'")
            page.wait_for_selector("#screen .pile.is-locked .pile-mark")
        assert not page.evaluate(OVERLAP, ["#screen .pile.is-locked .pile-mark",
                                           "#screen .pile.is-locked .num"])
        screenshot(page, f"locked-pile-{size}-{lang}")
    assert app.page_errors == []


def round_end_save(seed: int = 3) -> str:
    """A pass-and-play match with every option, played natively at random to the end of its
    first round of two, saved as the page saves it."""
    from lostcities import Options
    from webui.kernel.uistate import UiState
    from webui.match.seats.local import LocalMatch
    from webui.match.session import Session

    rng = random.Random(seed)
    seat = LocalMatch.new(Options(rounds=2, sixth_colour=True, jobs=True, skills=True,
                                  objectives=True, mixups=True), seed, 0, ("Ana", "Ben"))
    while seat.view()["phase"] != "round-end":
        moves = [m for m in seat.view()["legal_moves"] if m["type"] != "undo"]
        assert seat.submit(rng.choice(moves)) is None
    text = Session(seat, UiState(handoff=False, jobs_seen=[0, 1])).save_text()
    assert text is not None
    return text


def test_the_round_end_screen_is_accessible(open_app: Callable[..., AppPage]) -> None:
    app = open_saved(open_app, round_end_save(), PHONE)
    page = app.page
    page.wait_for_selector('body[data-screen="round-end"]')
    assert page.locator("[data-round-score]").count() == 2
    assert_accessible(page, "round-end")
    screenshot(page, "round-end-phone-options")
    click(page, {"action": "next-round"})
    page.wait_for_function("() => document.body.dataset.screen !== 'round-end'")
    assert app.page_errors == []
