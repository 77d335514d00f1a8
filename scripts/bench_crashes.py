"""Benchmark: how often Chromium's renderer crashes on a first visit left idle.

    .venv/bin/python scripts/bench_crashes.py [--visits 70] [--tree REV]

Each visit opens the app in a fresh persistent profile (a first visit: Python starts in a
worker, the page restores its image), waits until it is ready, then leaves it idle until it has
kept its bytecode and its boot snapshot (the work during which the crashes of 2026-12-06 came:
docs/boot.md, "Without stack switching"). Prints each visit's outcome and, at the end, the
visits and the renderer crashes (Playwright's `crash` event), with the load average. With
--tree REV the site is built from git revision REV instead of the working tree (e.g. the build
before a change, run after it: only runs of about the same length and load compare).

A crash leaves a minidump under ~/.config/chromium/Crash Reports/pending/ (the crash reporter
keeps one per crash); the log's entry of 2026-12-06 21:45 tells how they were read. Asserts
nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import READY, idle_work, launch  # noqa: E402  (scripts/bench_load.py)
from site_browser import build_revision, served_site  # noqa: E402


def main() -> int:
    """Run the visits and print the count of crashes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=70, help="first visits (default 70)")
    parser.add_argument("--tree", metavar="REV", help="the site built from git revision REV")
    args = parser.parse_args()
    crashes = failures = 0
    prepare = build_revision(args.tree) if args.tree else None
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    with served_site(prepare) as site, sync_playwright() as pw, \
            tempfile.TemporaryDirectory() as tmp:
        for visit in range(args.visits):
            context = launch(pw, Path(tmp) / f"profile-{visit}")
            page = context.new_page()
            crashed: list[float] = []
            page.on("crash", lambda _: crashed.append(time.monotonic()))
            start = time.monotonic()
            try:
                page.goto(site.url)
                page.wait_for_function(READY, timeout=300_000)
                kept = idle_work(page, site, {})["snapshot"] is not None
                outcome = "snapshot kept" if kept else "no snapshot"
            except PlaywrightError as error:
                failures += 1
                crashes += bool(crashed)
                outcome = "renderer crashed" if crashed else f"failed: {str(error)[:120]}"
            print(f"visit {visit + 1}: {outcome} ({time.monotonic() - start:.1f} s)", flush=True)
            context.close()
    print(f"{args.visits} first visits{f' of {args.tree}' if args.tree else ''}: {crashes} "
          f"renderer crash(es), {failures - crashes} other failure(s); load average at the end "
          f"{os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
