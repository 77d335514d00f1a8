"""The player's features in real Chromium: statistics and the history (kept across a reload and
an offline boot, moved to another profile by file; a corrupt record set aside is proven natively,
tests/test_webui_players.py), the series and
Play again, the replay of a finished match, the first-game guide and the score calculator.

Every wait is on a state (the screen, a data-* hook, a button enabled); the matches are played
by clicks on the page's own buttons.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, BrowserType, Page, ViewportSize

from conftest import ROOT, STATE_TIMEOUT_MS, AppPage, wait_ready
from test_pwa import Player, first_visit, serve, server_is_down, site  # noqa: F401 (fixture)

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}
TALL: ViewportSize = {"width": 1280, "height": 1400}

OUR_TURN = """() => {
  const b = document.body;
  if (b.dataset.screen === "match-end") return "end";
  if (b.hasAttribute("data-thinking") || b.dataset.screen !== "turn") return false;
  const on = (s) => document.querySelector("#screen " + s + ":not([disabled])") !== null;
  if (on('[data-action="draw"][data-source="deck"]')) return "draw";
  if (on('[data-action="select"]')) return "play";
  return false;
}"""

STATS = """() => Object.fromEntries([...document.querySelectorAll("[data-stat][data-opponent]")]
  .map((cell) => [cell.dataset.opponent + "." + cell.dataset.stat,
                  parseInt(cell.textContent, 10)]))"""

HISTORY_KEY = "lostcities.history"


def screen(page: Page) -> str:
    return str(page.evaluate("() => document.body.dataset.screen"))


def wait_screen(page: Page, name: str) -> None:
    page.wait_for_function("(name) => document.body.dataset.screen === name", arg=name)


def play_turn(page: Page, what: str) -> None:
    """Our part of a turn by clicks: the first playable hand card (else discard it), or a
    draw from the deck."""
    if what == "draw":
        page.locator('#screen [data-action="draw"][data-source="deck"]:not([disabled])').click()
        return
    page.locator('#screen [data-action="select"]:not([disabled])').first.click()
    play = page.locator('#screen [data-action="play"]:not([disabled])')
    if play.count():
        play.click()
    else:
        page.locator('#screen [data-action="discard"]:not([disabled])').click()


def play_match(page: Page) -> dict[str, Any]:
    """Play the match on screen against the computer to its end; what the match-end screen
    shows: both totals and round scores, the winner, the series score (null if none)."""
    for _ in range(400):
        what = page.wait_for_function(OUR_TURN).json_value()
        if what == "end":
            break
        play_turn(page, what)
    else:
        raise AssertionError("the match never ended")
    return dict(page.evaluate("""() => {
      const num = (s) => {
        const found = document.querySelector("#screen " + s);
        return found === null ? null : parseInt(found.textContent, 10);
      };
      return {
        totals: [0, 1].map((p) => num(`.sums [data-total][data-player="${p}"]`)),
        rounds: [0, 1].map((p) => num(`[data-round-score][data-player="${p}"]`)),
        winner: document.querySelector("#screen [data-winner]").dataset.winner,
        series: [0, 1].map((p) => num(`[data-series][data-player="${p}"]`)),
      };
    }"""))


def start_against_computer(page: Page, level: str = "easy") -> None:
    page.select_option('[data-option="opponent"]', level)
    page.select_option('[data-option="rounds"]', "1")
    page.click('[data-action="start"]')
    wait_screen(page, "turn")


def expected_stats(ends: list[dict[str, Any]]) -> dict[str, int]:
    """The Stats screen's cells for these matches against the Easy computer (this device's
    player is player 1, seat 0)."""
    won = sum(1 for e in ends if e["winner"] == "0")
    drawn = sum(1 for e in ends if e["winner"] == "draw")
    counts = {f"{o}.{s}": 0 for o in ("easy", "medium", "hard", "human", "online")
              for s in ("played", "won", "lost", "drawn", "abandoned")}
    counts.update({"easy.played": len(ends), "easy.won": won, "easy.drawn": drawn,
                   "easy.lost": len(ends) - won - drawn})
    return counts


def stats_shown(page: Page) -> dict[str, Any]:
    """Open the Stats screen (from the screen shown) and read its figures."""
    page.click('#app [data-action="stats"]:visible')
    wait_screen(page, "stats")
    return {"cells": page.evaluate(STATS),
            "best": page.inner_text('[data-record="best-round"]'),
            "average": page.inner_text('[data-record="average-round"]')}


def figures_of(ends: list[dict[str, Any]]) -> dict[str, Any]:
    mine = [e["rounds"][0] for e in ends]
    return {"cells": expected_stats(ends), "best": str(max(mine)),
            "average": f"{sum(mine) / len(mine):.1f}"}


@pytest.fixture
def open_profile(browser_type: BrowserType, browser_type_launch_args: dict[str, Any],
                 tmp_path: Path) -> Iterator[Callable[[dict[str, Any]], tuple[BrowserContext,
                                                                               Page, list[str]]]]:
    """open_profile(device) -> (context, page, page errors): a fresh persistent profile (a
    service worker needs one) with the device's viewport; closed at teardown."""
    contexts: list[BrowserContext] = []

    def launch(device: dict[str, Any]) -> tuple[BrowserContext, Page, list[str]]:
        context = browser_type.launch_persistent_context(
            str(tmp_path / f"profile-{len(contexts)}"), **browser_type_launch_args, **device,
            reduced_motion="reduce", accept_downloads=True)
        contexts.append(context)
        context.set_default_timeout(STATE_TIMEOUT_MS)
        page = context.pages[0] if context.pages else context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        return context, page, errors

    yield launch
    for context in contexts:
        context.close()


@pytest.mark.slow
def test_stats_of_a_match_survive_a_reload_an_offline_boot_and_a_move_by_file(
    site: Path,  # noqa: F811 (the fixture imported above)
    open_profile: Callable[[dict[str, Any]], tuple[BrowserContext, Page, list[str]]],
    open_app: Callable[..., AppPage], tmp_path: Path,
) -> None:
    context, page, errors = open_profile(PHONE)
    with ExitStack() as stack:
        url = serve(stack, site)
        first_visit(Player(context, page, page_errors=errors), url)
        start_against_computer(page)
        # One match here: a series of Play again is counted natively
        # (tests/test_webui_players.py), and online by e2e/test_online_rematch.py.
        ends = [play_match(page)]
        assert ends[0]["rounds"] == ends[0]["totals"]  # one round
        want = figures_of(ends)
        assert stats_shown(page) == want
        # the history as stored: the same matches
        stored = json.loads(page.evaluate(f"() => localStorage.getItem('{HISTORY_KEY}')"))
        assert [r["rounds"][0]["scores"] for r in stored["records"]] == [
            e["rounds"] for e in ends]
        with page.expect_download() as download:
            page.click('[data-action="export-stats"]')
        exported = Path(download.value.path()).read_text(encoding="utf-8")
        assert re.fullmatch(r"lost-cities-history-\d{4}-\d\d-\d\d\.json",
                            download.value.suggested_filename)
        # the first visit's idle work is over before it is left (as in test_pwa)
        page.wait_for_function("() => ['kept', 'refused', 'failed']"
                               ".includes(document.documentElement.dataset.snapshot)")
        page.reload()
        wait_ready(page, page_errors=errors)
        assert screen(page) == "match-end"  # the last match, kept
        assert stats_shown(page) == want
    assert server_is_down(url)
    context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    wait_ready(page, page_errors=errors)
    assert stats_shown(page) == want
    page.click('[data-action="stats-close"]')
    wait_screen(page, "match-end")
    assert errors == []
    # another profile imports the file: the same figures
    other = open_app()
    other.page.click('[data-action="stats"]')
    wait_screen(other.page, "stats")
    assert other.page.evaluate(STATS) == expected_stats([])
    other.page.set_input_files('input[data-field="import-stats"]', files=[{
        "name": "history.json", "mimeType": "application/json",
        "buffer": exported.encode("utf-8")}])
    other.page.wait_for_selector("#screen .notice >> text=1 new match imported.")
    other.page.click('[data-action="stats-close"]')
    wait_screen(other.page, "setup")
    assert stats_shown(other.page) == want
    assert other.page_errors == []


@pytest.mark.slow
def test_a_replay_steps_through_every_move_to_the_match_end_scores(
        open_app: Callable[..., AppPage]) -> None:
    app = open_app(setup=lambda page: page.emulate_media(reduced_motion="reduce"))
    page = app.page
    page.set_viewport_size(TALL)
    start_against_computer(page, "medium")
    end = play_match(page)
    page.click('#screen [data-action="replay"]')
    wait_screen(page, "replay")
    bar = page.locator("#screen [data-replay-step]")
    steps = int(bar.get_attribute("data-steps") or "")
    assert bar.get_attribute("data-step") == "0" and steps > 40
    assert page.locator('[data-action="replay-prev"]').is_disabled()
    assert page.locator("[data-replay-hand]").count() == 2
    for step in range(1, 4):
        page.click('[data-action="replay-next"]')
        page.wait_for_function(
            "(step) => document.querySelector('[data-replay-step]').dataset.step === step",
            arg=str(step))
        assert page.locator("[data-replay-step]").get_attribute("data-steps") == str(steps)
    for _ in range(3, steps):  # the rest by the keyboard, each step in turn
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "(step) => document.querySelector('[data-replay-step]').dataset.step === step",
        arg=str(steps))
    assert page.locator('[data-action="replay-next"]').is_disabled()
    totals = page.evaluate("""() => [0, 1].map((p) => parseInt(document.querySelector(
      `#screen .sums [data-total][data-player="${p}"]`).textContent, 10))""")
    assert totals == end["totals"]
    page.keyboard.press("ArrowLeft")  # the keyboard steps back too
    page.wait_for_function(
        "(step) => document.querySelector('[data-replay-step]').dataset.step === step",
        arg=str(steps - 1))
    page.keyboard.press("Escape")  # closes it, as its close button does
    wait_screen(page, "match-end")
    assert app.page_errors == []


@pytest.mark.slow
def test_the_guide_is_completed_by_clicks_and_can_be_skipped(
        open_app: Callable[..., AppPage]) -> None:
    app = open_app(setup=lambda page: page.emulate_media(reduced_motion="reduce"))
    page = app.page
    page.click('[data-action="guide"]')
    wait_screen(page, "turn")
    panel = page.locator("#screen [data-guide]")
    steps = int(panel.get_attribute("data-steps") or "")
    assert 6 <= steps <= 8
    for step in range(steps):
        page.wait_for_function("""(step) => {
          const panel = document.querySelector("#screen [data-guide]");
          return panel && panel.dataset.step === step && document.querySelector(
            '#screen [data-action="select"]:not([disabled]), '
            + '#screen [data-action="draw"]:not([disabled])') !== null;
        }""", arg=str(step))
        move = json.loads(panel.get_attribute("data-move") or "")
        if move["type"] == "draw":
            source = move.get("source", "deck")
            page.click(f'#screen [data-action="draw"][data-source="{source}"]')
        else:
            page.click(f'#screen [data-action="select"][data-card="{move["card"]}"]')
            page.click(f'#screen [data-action="{move["type"]}"]')
    page.wait_for_selector('#screen [data-guide="done"]')
    page.click('#screen [data-action="guide-close"]')
    page.wait_for_selector("#screen [data-guide]", state="detached")
    # The rest of the guide's match, counted nowhere, is played out natively
    # (tests/test_webui_players.py); here the player leaves it.
    page.click('#app [data-action="abandon"]')
    page.click('#app [data-action="abandon-yes"]')
    wait_screen(page, "setup")
    assert page.evaluate(f"() => localStorage.getItem('{HISTORY_KEY}')") is None
    page.click('[data-action="guide"]')
    wait_screen(page, "turn")
    page.click('#screen [data-action="guide-skip"]')
    wait_screen(page, "setup")
    assert page.evaluate("() => localStorage.getItem('lostcities.match')") is None
    assert app.page_errors == []


def score_examples() -> list[dict[str, Any]]:
    """The worked examples of docs/rules.md §3.1 (its ``score`` blocks)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    found = []
    for body in re.findall(r"^```score\n(.*?)^```$", text, re.S | re.M):
        fields = dict(line.split(":", 1) for line in body.strip().splitlines())
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        found.append({"cards": [] if fields["cards"] == "-" else fields["cards"].split(),
                      "job": fields.get("job", ""), "mixup": fields.get("mixup", ""),
                      "formula": fields.get("formula", ""), "score": fields["score"]})
    return found


def test_the_calculator_gives_the_worked_examples(open_app: Callable[..., AppPage]) -> None:
    app = open_app()
    page = app.page
    page.click('[data-action="calculator"]')
    wait_screen(page, "calculator")
    examples = score_examples()
    assert len(examples) >= 10
    for example in examples:
        if page.locator('[data-action="calc-clear"]:not([disabled])').count():
            page.click('[data-action="calc-clear"]')
        page.select_option('select[data-field="calc-job"]', example["job"])
        page.select_option('select[data-field="calc-mixup"]', example["mixup"])
        copies = 0
        for card in example["cards"]:
            copy = ""
            if card == "H":
                copies += 1
                copy = f'[data-copy="{copies}"]'
            page.click(f'[data-action="calc-toggle"][data-card="R{card}"]{copy}')
        score = page.locator('[data-calc-score][data-colour="R"]')
        page.wait_for_function(
            "(want) => document.querySelector('[data-calc-total]').textContent === want",
            arg=example["score"])
        assert score.inner_text() == example["score"], example
        if example["formula"]:
            assert page.inner_text('[data-calc-formula][data-colour="R"]') == example["formula"]
    page.click('[data-action="calc-close"]')
    wait_screen(page, "setup")
    assert app.page_errors == []
