"""The player's features in real Chromium: statistics and the history (kept across a reload and
an offline boot, moved to another profile by file; a corrupt record set aside is proven natively,
tests/test_webui_players.py), the replay of a finished match, the first-game guide and the
score calculator.

Every wait is on a state (the screen, a data-* hook, a button enabled). The history is seeded
with matches played natively; the guide is played by clicks on the page's own buttons.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, BrowserType, Page, ViewportSize

from conftest import ROOT, STATE_TIMEOUT_MS, AppPage, wait_ready
from lostcities import Options
from webui.features.history import MatchRecord, dump
from webui.features.stats import OPPONENTS, RESULTS, compute_stats
from test_pwa import Player, first_visit, serve, server_is_down, site  # noqa: F401 (fixture)
from test_table import assert_accessible
from webui.features.replay import replay_of

sys.path.insert(0, str(ROOT / "tests"))
from test_history import play_match as play_native  # noqa: E402 - tests/test_history.py
from test_history import record_of  # noqa: E402

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}
TALL: ViewportSize = {"width": 1280, "height": 1400}

STATS = """() => Object.fromEntries([...document.querySelectorAll("[data-stat][data-opponent]")]
  .map((cell) => [cell.dataset.opponent + "." + cell.dataset.stat,
                  parseInt(cell.textContent, 10)]))"""

HISTORY_KEY = "lostcities.history"


def wait_screen(page: Page, name: str) -> None:
    page.wait_for_function("(name) => document.body.dataset.screen === name", arg=name)


def stats_shown(page: Page) -> dict[str, Any]:
    """Open the Stats screen (from the screen shown) and read its figures."""
    page.click('#app [data-action="stats"]:visible')
    wait_screen(page, "stats")
    return {"cells": page.evaluate(STATS),
            "best": page.inner_text('[data-record="best-round"]'),
            "average": page.inner_text('[data-record="average-round"]')}


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


def seeded_history(seeds: tuple[int, ...], rounds: int = 1) -> tuple[str, list[MatchRecord]]:
    """The stored history of matches against the Easy computer, played natively at random
    (tests/test_history.py): its text for ``localStorage`` and its records. That a match
    played on the page is recorded is shown by the whole match of e2e/test_bot.py."""
    records = [record_of(play_native(Options(rounds=rounds), seed), level="easy",
                         date=f"2026-12-0{n + 1}T10:00:00.000Z", seed=seed)
               for n, seed in enumerate(seeds)]
    return dump(records), records


FILE_BUTTON = """() => {
  const input = document.querySelector('input[data-field="import-stats"]');
  const button = input.closest("label.btn");
  const [i, b, e] = [input, button, document.querySelector('[data-action="export-stats"]')]
    .map((x) => x.getBoundingClientRect());
  return {opacity: getComputedStyle(input).opacity,
          fills: Math.abs(i.width - b.width) <= 4 && Math.abs(i.height - b.height) <= 4,
          alike: b.height === e.height && getComputedStyle(button).borderRadius
                 === getComputedStyle(document.querySelector('[data-action="export-stats"]'))
                 .borderRadius};
}"""


def seed_script(text: str) -> str:
    """An init script that puts the history `text` in storage when there is none."""
    return (f"if (localStorage.getItem({json.dumps(HISTORY_KEY)}) === null) "
            f"localStorage.setItem({json.dumps(HISTORY_KEY)}, {json.dumps(text)});")


RESULTS_WIDTH = """() => {
  const table = document.querySelector(".stats-table");
  return [table.scrollWidth, table.clientWidth, document.documentElement.scrollWidth,
          document.documentElement.clientWidth];
}"""


def assert_results_fit(page: Page, header: str, key: str) -> None:
    """On a phone, Stats' results table fits its width (no sideways scroll): the columns are
    headed by short forms, spelled out in the key under it, and still named by their words."""
    table, width, document, screen = page.evaluate(RESULTS_WIDTH)
    assert table <= width and document <= screen, (table, width, document, screen)
    assert page.get_by_role("columnheader", name=header, exact=True).is_visible()
    assert key in page.locator(".stats-key").inner_text()


def figures(records: list[MatchRecord]) -> dict[str, Any]:
    """What the Stats screen shows of `records` (`stats_shown`), worked out natively."""
    stats = compute_stats(records)
    cells = {f"{o}.{r}": stats.tally(o).count(r) for o in OPPONENTS for r in RESULTS}
    average = stats.average_round
    return {"cells": cells, "best": str(stats.best_round),
            "average": "—" if average is None else f"{average:.1f}"}


def test_stats_survive_a_reload_an_offline_boot_and_a_move_by_file(
    site: Path,  # noqa: F811 (the fixture imported above)
    open_profile: Callable[[dict[str, Any]], tuple[BrowserContext, Page, list[str]]],
    open_app: Callable[..., AppPage], tmp_path: Path,
) -> None:
    text, records = seeded_history((401, 402, 403))
    want = figures(records)
    context, page, errors = open_profile(PHONE)
    context.add_init_script(seed_script(text))
    with ExitStack() as stack:
        url = serve(stack, site)
        first_visit(Player(context, page, page_errors=errors), url)
        # a player with a history finds the guided round among the links, not at the top
        assert page.locator(".first-game").is_hidden()
        assert page.locator('.setup-links [data-action="guide"]').is_visible()
        assert stats_shown(page) == want
        assert_results_fit(page, "Abandoned by them", "A: abandoned by them")
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
        assert stats_shown(page) == want
    assert server_is_down(url)
    context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    wait_ready(page, page_errors=errors)
    assert stats_shown(page) == want
    page.click('[data-action="stats-close"]')
    wait_screen(page, "setup")
    page.click('#setup [data-action="lang"]')  # the widest words
    assert stats_shown(page)["cells"] == want["cells"]
    assert_results_fit(page, "Abandonadas por el rival", "A: abandonadas por el rival")
    assert errors == []
    # another profile imports the file: the same figures
    other = open_app()
    other.page.click('[data-action="stats"]')
    wait_screen(other.page, "stats")
    assert other.page.evaluate(STATS) == figures([])["cells"]
    # the import is a button like Export's: the browser's file box, invisible, fills it
    assert other.page.evaluate(FILE_BUTTON) == {"opacity": "0", "fills": True, "alike": True}
    other.page.set_input_files('input[data-field="import-stats"]', files=[{
        "name": "history.json", "mimeType": "application/json",
        "buffer": exported.encode("utf-8")}])
    other.page.wait_for_selector("#screen .notice >> text=3 new matches imported.")
    other.page.click('[data-action="stats-close"]')
    wait_screen(other.page, "setup")
    assert stats_shown(other.page) == want
    assert other.page_errors == []


STEP = "(step) => document.querySelector('[data-replay-step]').dataset.step === step"


def test_a_replay_steps_by_move_key_turn_round_and_by_itself_to_the_match_end_scores(
        open_app: Callable[..., AppPage]) -> None:
    text, (record,) = seeded_history((404,), rounds=2)
    app = open_app(setup=lambda page: page.add_init_script(seed_script(text)))
    page = app.page
    page.set_viewport_size(TALL)
    page.click('[data-action="stats"]')
    wait_screen(page, "stats")
    assert_accessible(page, "stats")
    page.click(f'#screen [data-action="replay"][data-record="{record.id}"]')
    wait_screen(page, "replay")
    assert_accessible(page, "replay")
    bar = page.locator("#screen [data-replay-step]")
    steps = int(bar.get_attribute("data-steps") or "")
    assert bar.get_attribute("data-step") == "0" and steps > 80
    assert page.locator('[data-action="replay-prev"]').is_disabled()
    assert page.locator("[data-replay-hand]").count() == 2
    page.click('[data-action="replay-next"]')
    page.wait_for_function(STEP, arg="1")
    for _ in range(2):  # the keyboard steps too
        page.keyboard.press("ArrowRight")
    page.wait_for_function(STEP, arg="3")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(STEP, arg="2")
    page.click('[data-action="replay-turn-next"]')  # to the end of the turn under way
    page.wait_for_function("() => +document.querySelector('[data-replay-step]').dataset.step > 2")
    page.click('[data-action="replay-round-end"][data-round="1"]')
    page.wait_for_function(STEP, arg=str(replay_of(record).round_ends()[0]))
    assert page.locator("#screen .replay-table [data-round-score]").count() == 2
    # the last three turns play by themselves, fast, to the match's end
    page.click('[data-action="replay-round-end"][data-round="2"]')
    page.wait_for_function(STEP, arg=str(steps))
    for _ in range(3):
        before = bar.get_attribute("data-step")
        page.click('[data-action="replay-turn-prev"]')
        page.wait_for_function("(before) => document.querySelector('[data-replay-step]')"
                               ".dataset.step !== before", arg=before)
    page.select_option('[data-field="replay-speed"]', "fast")
    page.click('[data-action="replay-play"]')
    page.wait_for_selector("[data-autoplay=fast]")
    page.wait_for_function(STEP, arg=str(steps))
    page.wait_for_selector('[data-action="replay-play"][disabled]')  # it stopped by itself
    totals = page.evaluate("""() => [0, 1].map((p) => parseInt(document.querySelector(
      `#screen .sums [data-total][data-player="${p}"]`).textContent, 10))""")
    assert totals == list(record.totals)
    page.keyboard.press("Escape")  # closes it, as its close button does
    wait_screen(page, "stats")
    assert app.page_errors == []


@pytest.mark.slow
def test_the_guide_is_completed_by_clicks_and_can_be_skipped(
        open_app: Callable[..., AppPage]) -> None:
    app = open_app()
    page = app.page
    # no history yet: the guided round is offered at the top of the setup, above the fold
    offer = page.locator('.first-game [data-action="guide"]')
    box = offer.bounding_box()
    assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"]
    assert page.locator('.setup-links [data-action="guide"]').is_hidden()
    offer.click()
    wait_screen(page, "turn")
    assert_accessible(page, "guide")
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
        pointed = page.locator("#screen .guided")  # what the step asks for is lit
        assert pointed.count() >= 1
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
    page.click('[data-action="guide"]:visible')
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
    assert_accessible(page, "calculator")
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
