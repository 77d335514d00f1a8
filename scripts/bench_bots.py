"""Benchmark the bots: natively, playouts per second of the bots' simulator and how long the
strong bot thinks per move (mean, 95th percentile and max) at a given budget; in the page
(--page), how soon a click takes effect while the Hard bot thinks.

    PYTHONPATH=py .venv/bin/python scripts/bench_bots.py [--playouts 300] [--matches 2]
                                                         [--all-options]
    .venv/bin/python scripts/bench_bots.py --page [--clicks 24]

--page builds the site into a temporary folder, serves it (scripts/site_browser.py) and plays
a one-round match against the Hard bot in headless Chromium (the human's moves are simple:
the first playable card, else a discard, then a draw from the deck). Each time the bot thinks,
it clicks the Rules button (then Escape) and the move log with real mouse clicks, and a
recorder in the page times each click, from the trusted event's ``timeStamp`` to its visible
effect (a DOM mutation). First it calibrates the recorder: a click while the page is blocked
for 300 ms must read at least that long. Prints the median, p95 and max against the budget
(RESPONSIVE_MS), how long the computer's turns took, and the longest main-thread task and
the total blocking time while it thought (the Long Tasks API; budget 200 ms).

Prints figures and ratios only; nothing here is a test (e2e/test_bot.py checks, by states, that
the clicks take effect while the bot thinks).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts")]
from bench_load import machine, pct  # noqa: E402
from site_browser import LONG_TASKS, blocking, chromium_options, served_site  # noqa: E402

from lostcities import Options, apply, move_from_json, new_match, view  # noqa: E402
from lostcities.bots import HeuristicBot, StrongBot  # noqa: E402
from lostcities.bots.knowledge import Knowledge  # noqa: E402
from lostcities.bots.policy import SHARP, playout  # noqa: E402

RESPONSIVE_MS = 100.0
"""The budget: while the bot thinks, a click on the move log or the menu takes effect within
this many milliseconds (the median of --page's clicks)."""
CALIBRATION_MS = 300
"""--page first blocks the page this long from a click's press: the recorder must see it."""
TALL: ViewportSize = {"width": 1280, "height": 1600}
"""A viewport where the whole table fits: the clicks need no scrolling."""
LATENCY = """
(() => {
  window.__lcLatency = [];
  let pending = null;
  document.addEventListener("click", (e) => {
    if (!e.isTrusted || !e.target.closest) return;
    const rules = e.target.closest('[data-action="rules"]');
    const summary = e.target.closest("details.log > summary");
    if (!rules && !summary) return;
    const details = summary ? summary.parentElement : null;
    const wasOpen = details ? details.open : false;
    pending = {
      t0: e.timeStamp, what: rules ? "rules" : "log",
      thinking: document.body.hasAttribute("data-thinking"),
      done: rules ? () => !document.getElementById("rules")?.hidden
                  : () => details.isConnected && details.open !== wasOpen,
    };
  }, true);
  new MutationObserver(() => {
    if (pending && pending.done()) {
      window.__lcLatency.push({ms: performance.now() - pending.t0, what: pending.what,
                               thinking: pending.thinking});
      pending = null;
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["hidden", "open"]});
  window.__lcTurns = [];  // each of the computer's turns (play and draw): [from, to], ms
  let since = null;
  new MutationObserver(() => {
    const on = document.body.hasAttribute("data-thinking");
    if (on && since === null) since = performance.now();
    if (!on && since !== null) { window.__lcTurns.push([since, performance.now()]); since = null; }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-thinking"]});
})();
"""
"""Times each trusted click on Rules or the log summary, click to effect (__lcLatency), and
each of the computer's turns (__lcTurns: from, to)."""
READY = "() => document.documentElement.dataset.ready === 'true'"
THINKING = "() => document.body.hasAttribute('data-thinking')"
OUR_MOVE_OR_END = """() => {
  const b = document.body;
  if (b.dataset.screen === "match-end") return true;
  if (b.hasAttribute("data-thinking") || b.dataset.screen !== "turn") return false;
  return document.querySelector('#app button[data-action="select"]:not([disabled]),'
                                + '#app button[data-action="draw"]:not([disabled])') !== null;
}"""
THINKING_OR_OUR_MOVE = f"() => ({THINKING})() || ({OUR_MOVE_OR_END})()"


def playouts_per_second(options: Options, seconds: float = 3.0) -> float:
    """Whole-round policy playouts per second from the first position of a match."""
    state = new_match(options, seed=1)
    while state.phase == "jobs":
        state = apply(state, move_from_json(view(state, state.to_act or 0)["legal_moves"][0]))
    know = Knowledge.from_view(view(state, state.to_act or 0))
    rng = random.Random(0)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        playout(know.world(rng), style=SHARP)
        n += 1
    return n / (time.perf_counter() - start)


def decision_times(options: Options, playouts: int, matches: int) -> list[float]:
    """Seconds per strong-bot decision over whole matches against the heuristic bot."""
    times: list[float] = []
    for seed in range(matches):
        bots = (StrongBot(playouts), HeuristicBot())
        state = new_match(options, seed=seed, first_player=seed % 2)
        rng = random.Random(seed)
        while state.phase != "match-end":
            seat = state.to_act if state.to_act is not None else 0
            v = view(state, seat)
            start = time.perf_counter()
            move = bots[seat].choose(v, rng)
            if seat == 0 and state.phase in ("play", "draw"):
                times.append(time.perf_counter() - start)
            state = apply(state, move_from_json(move))
    return times


def centre_of(page: Page, selector: str) -> tuple[float, float]:
    """Where a real mouse click hits `selector`."""
    box = page.locator(selector).first.bounding_box()
    if box is None:
        raise RuntimeError(f"{selector} is not shown")
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def calibrate(page: Page) -> float:
    """What the recorder reads for a click while the page is blocked CALIBRATION_MS from
    the press on (the release and the click arrive while it is blocked)."""
    page.evaluate("""(ms) => addEventListener('pointerdown', () => {
        const t = performance.now(); while (performance.now() - t < ms) {} }, {once: true})""",
                  CALIBRATION_MS)
    page.mouse.click(*centre_of(page, '[data-action="rules"]'))
    page.wait_for_function("() => window.__lcLatency.length > 0")
    page.keyboard.press("Escape")
    return float(page.evaluate("() => window.__lcLatency.splice(0)[0].ms"))


def human_move(page: Page) -> bool:
    """One simple move by clicks; True when it ended the human's turn (a draw)."""
    select = page.locator('#app [data-action="select"]:not([disabled])')
    if select.count():
        select.first.click()
        play = page.locator('#app [data-action="play"]:not([disabled])')
        (play if play.count() else page.locator(
            '#app [data-action="discard"]:not([disabled])')).click()
        return False
    page.locator('#app [data-action="draw"][data-source="deck"]:not([disabled])').click()
    return True


def clicks_while_thinking(url: str, clicks: int) -> tuple[float, list[dict[str, float]],
                                                            list[list[float]],
                                                            list[list[float]]]:
    """Play a match against Hard at `url`, clicking while it thinks; returns the calibration
    reading, the clicks made while it thought, its turns ([from, to] ms) and the page's long
    tasks ([start, ms])."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_options(pw))
        page = browser.new_page(viewport=TALL)
        page.add_init_script(LATENCY)
        page.add_init_script(LONG_TASKS)
        page.goto(url)
        page.wait_for_function(READY, timeout=300_000)
        calibration = calibrate(page)
        page.select_option('[data-option="opponent"]', "hard")
        page.select_option('[data-option="rounds"]', "1")
        page.click('[data-action="start"]')
        page.set_default_timeout(120_000)
        while True:
            page.wait_for_function(OUR_MOVE_OR_END)
            if page.evaluate("document.body.dataset.screen") == "match-end":
                break
            spots = (centre_of(page, '#screen [data-action="rules"]'),
                     centre_of(page, "#screen details.log > summary"))
            if not human_move(page):
                continue
            page.wait_for_function(THINKING_OR_OUR_MOVE)
            while page.evaluate(THINKING) and page.evaluate(
                    "() => window.__lcLatency.length") < clicks:
                page.mouse.click(*spots[0])
                page.keyboard.press("Escape")  # closes the Rules page
                page.wait_for_function("() => document.getElementById('rules').hidden")
                page.mouse.click(*spots[1])
        samples = [s for s in page.evaluate("window.__lcLatency") if s["thinking"]]
        turns = page.evaluate("window.__lcTurns")
        tasks = page.evaluate("window.__lcLongTasks")
        browser.close()
    return calibration, samples, turns, tasks


def page_report(clicks: int) -> None:
    """--page: build and serve the site, measure, print."""
    print(f"machine: {machine()}", flush=True)
    with served_site() as site:
        calibration, samples, turns, tasks = clicks_while_thinking(site.url, clicks)
    print(f"machine at the end: {machine()}")
    works = "the recorder sees it" if calibration >= CALIBRATION_MS * 0.9 else \
        "THE RECORDER MISSES IT: the figures below are not to be trusted"
    print(f"calibration: a click while the page is blocked {CALIBRATION_MS} ms reads "
          f"{calibration:.0f} ms ({works})")
    if not samples:
        print("no click landed while the bot thought")
        return
    values = [float(s["ms"]) for s in samples]
    median = statistics.median(values)
    print(f"click -> effect while the Hard bot thinks: n={len(values)} median {median:.1f} ms "
          f"({median / RESPONSIVE_MS:.2f}x the {RESPONSIVE_MS:.0f} ms budget), "
          f"p95 {pct(values, 95):.1f} ms, max {max(values):.1f} ms")
    if turns:
        spans = [b - a for a, b in turns]
        print(f"the computer's turns (play + draw): n={len(turns)} "
              f"median {statistics.median(spans):.0f} ms, max {max(spans):.0f} ms")
        longest, blocked = blocking(tasks, turns)
        print(f"while it thinks, the page's longest task: {longest:.0f} ms (budget 200), "
              f"total blocking time {blocked:.0f} ms over {sum(spans) / 1000:.1f} s of thinking"
              f" (the whole page: {len(tasks)} long tasks, the longest"
              f" {max((ms for _, ms in tasks), default=0):.0f} ms: the boot, the calibration)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--playouts", type=int, default=300)
    p.add_argument("--matches", type=int, default=2)
    p.add_argument("--all-options", action="store_true")
    p.add_argument("--page", action="store_true",
                   help="measure clicks while the Hard bot thinks in the page instead")
    p.add_argument("--clicks", type=int, default=24, help="--page: clicks to time (default 24)")
    args = p.parse_args()
    if args.page:
        page_report(args.clicks)
        return
    every = args.all_options
    options = Options(sixth_colour=every, jobs=every, skills=every, objectives=every,
                      mixups=every)
    label = "all options" if every else "base rules"
    print(f"{label}: {playouts_per_second(options):.0f} whole-round policy playouts/s")
    times = decision_times(options, args.playouts, args.matches)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{label}: strong bot, {args.playouts} playouts: {len(times)} decisions, "
          f"mean {statistics.mean(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
          f"max {times[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
