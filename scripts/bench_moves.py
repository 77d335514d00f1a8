"""Move latency per click kind: where a click's time goes in the real page.

    .venv/bin/python scripts/bench_moves.py [--matches 1] [--options] [--seed 1]
        [--baseline REV ...] [--tree REV]

Builds the site into a temporary folder, serves it (scripts/site_browser.py) and plays
whole 3-round pass-and-play matches in headless Chromium by random legal clicks: pass the device
(`ready`), select a card (sometimes another one, or the same one again to drop it), play,
discard, undo now and then, draw. `--options` turns every option on (jobs, skills, ...).
`--baseline REV` also builds git revision REV (e.g. the commit before a change) and plays the
same number of matches there, alternating with this tree's, so both meet the same machine load
(give it more than once to compare several revisions). `--tree REV` measures revision REV in
place of the working tree (whose uncommitted changes may be someone else's work in progress).

For every click on a table button it records, in-page (init script, capture and bubble
listeners on `window` around the app's delegated handler):

- `input delay`: from the click event's time stamp to the first listener (the browser's own
  work on the mouse events, before any of the page's code runs);
- `handled`: from the click event's time stamp to the end of the app's click handler (all of
  its DOM writes done). scripts/bench_load.py's figure (first DOM mutation under #app) is the
  same moment: mutation observers run right after the handler returns.
- `laid out`: the same plus the style and layout of the new DOM, forced at once
  (`document.body.offsetHeight`), which the browser would otherwise do before the next paint.
- `nodes`: the element nodes added under #app by the click (how much of the page was replaced).

Prints p50 / p95 / max per click kind and the machine's load average; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_load import machine, pct  # noqa: E402
from site_browser import build_revision, chromium_options, served_site  # noqa: E402

RECORD = """(() => {
  const lc = window.__lcMoves = {clicks: []};
  const last = () => lc.clicks[lc.clicks.length - 1];
  addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-action]");
    lc.clicks.push({t: event.timeStamp, seen: performance.now(),
                    action: button ? button.dataset.action : null, nodes: 0});
  }, true);
  addEventListener("click", () => {
    const click = last();
    click.handled = performance.now();
    document.body.offsetHeight;  // style and layout of what the handler wrote
    click.laid = performance.now();
  });
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver((records) => {
      const click = last();
      if (!click) return;
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeType === 1) click.nodes += 1 + node.getElementsByTagName("*").length;
        }
      }
    }).observe(document.getElementById("app"), {subtree: true, childList: true});
  });
})();"""
BUTTONS = """() => ({
  screen: document.body.dataset.screen,
  buttons: [...document.querySelectorAll('#app button[data-action]:not([disabled])')]
    .filter(b => b.checkVisibility()).map(b => Object.assign({}, b.dataset)),
})"""
READY = "() => document.documentElement.dataset.ready === 'true'"
KINDS = ("ready", "select", "play", "discard", "undo", "draw")
OPTIONS = ("sixth-colour", "jobs", "skills", "objectives", "mixups")


def choose(screen: str, buttons: list[dict[str, str]], rng: random.Random) -> dict[str, str]:
    """The next button of a player who keeps the match moving, with undos and re-picks."""
    by: dict[str, list[dict[str, str]]] = {}
    for button in buttons:
        by.setdefault(button["action"], []).append(button)
    for single in ("next-round", "ready", "dismiss-mixup", "pick-job"):
        if single in by:
            return rng.choice(by[single])
    if "undo" in by and rng.random() < 0.1:
        return by["undo"][0]
    finish = by.get("play", []) + by.get("discard", [])
    if finish and rng.random() < 0.85:
        return by["play"][0] if "play" in by and rng.random() < 0.6 else by["discard"][0]
    if "draw" in by:
        deck = [b for b in by["draw"] if b.get("source") == "deck"]
        return deck[0] if deck and rng.random() < 0.8 else rng.choice(by["draw"])
    if "select" in by:
        return rng.choice(by["select"])
    raise RuntimeError(f"no button to press on {screen}: {sorted(by)}")


def play_match(page: Page, rng: random.Random, options: bool) -> None:
    """Start a 3-round pass-and-play match and click through it to the match end."""
    page.select_option('[data-option="rounds"]', "3")
    for option in OPTIONS if options else ():
        page.check(f'[data-option="{option}"]')
    page.click('[data-action="start"]')
    for _ in range(10_000):
        state = page.evaluate(BUTTONS)
        if state["screen"] == "match-end":
            return
        data = choose(state["screen"], state["buttons"], rng)
        selector = "".join(f'[data-{k}="{v}"]' for k, v in data.items())
        page.locator(f"#app button{selector}:not([disabled]) >> visible=true").first.click()
    raise RuntimeError("the match did not end")


def report(clicks: list[dict[str, Any]]) -> None:
    """Print p50/p95/max per click kind for each figure."""
    kinds = [k for k in KINDS if any(c["action"] == k for c in clicks)]
    for figure, key in (("input delay (click -> first listener)", "seen"),
                        ("handled (click -> handler done)", "handled"),
                        ("laid out (handled + style/layout)", "laid")):
        print(f"\n{figure}, ms")
        for kind in ("all", *kinds):
            values = [c[key] - c["t"] for c in clicks if kind in ("all", c["action"])]
            print(f"  {kind:<8} n={len(values):<5} p50 {pct(values, 50):6.1f}   "
                  f"p95 {pct(values, 95):6.1f}   max {max(values):6.1f}")
    print("\nelements added under #app per click (median / max)")
    for kind in kinds:
        nodes = sorted(c["nodes"] for c in clicks if c["action"] == kind)
        print(f"  {kind:<8} {nodes[len(nodes) // 2]:>5} / {nodes[-1]}")


def main() -> int:
    """Play the matches and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--options", action="store_true", help="every option on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", metavar="REV", action="append", default=[],
                        help="also measure this git revision (repeatable)")
    parser.add_argument("--tree", metavar="REV", help="measure this revision, not the working tree")
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    builds: dict[str, Callable[[Path], None] | None] = (
        {args.tree: build_revision(args.tree)} if args.tree else {"this tree": None})
    for rev in args.baseline:
        builds[rev] = build_revision(rev)
    clicks: dict[str, list[dict[str, Any]]] = {label: [] for label in builds}
    with ExitStack() as stack:
        pw = stack.enter_context(sync_playwright())
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        context = pw.chromium.launch_persistent_context(
            str(tmp / "profile"), viewport={"width": 1280, "height": 900},
            **chromium_options(pw))
        context.add_init_script(RECORD)
        pages = {}
        for label, prepare in builds.items():
            site = stack.enter_context(served_site(prepare))
            pages[label] = page = context.new_page()
            page.goto(site.url)
            page.wait_for_function(READY, timeout=300_000)
        rngs = {label: random.Random(args.seed) for label in builds}
        for _ in range(args.matches):
            for label, page in pages.items():
                page.bring_to_front()
                play_match(page, rngs[label], args.options)
                clicks[label] += [c for c in page.evaluate("() => window.__lcMoves.clicks")
                                  if c["action"] in KINDS and "handled" in c]
                page.click('[data-action="new-match"]')
                page.reload()
                page.wait_for_function(READY, timeout=300_000)
        context.close()
    print(f"machine at the end: {machine()}")
    for label, recorded in clicks.items():
        print(f"\n=== {label} ({args.matches} matches{', every option' if args.options else ''})")
        report(recorded)
    return 0


if __name__ == "__main__":
    sys.exit(main())
