"""Benchmark: download size, load times, move latency and online propagation.

    .venv/bin/python scripts/bench_load.py [--runs 5] [--no-moves] [--no-online] [--baseline REV]

Prints a table of figures; asserts nothing. In one run of one headless Chromium (Debian's unless
Playwright's own is installed) it loads, --runs times each, alternating:

- bare: a page that only calls loadPyodide() from the same vendored files (static/vendor);
- game: the app (index.html);
- base, with --baseline REV: the app built from git revision REV (e.g. the commit before a
  change), served by its own server, so a change is measured against the same machine load.

Each run uses a fresh persistent profile. cold: the first visit (empty profile and caches);
warm: the page opened again in the same profile once the first visit is over (the game's service
worker installed, and the bytecode and the boot snapshot the first visit made while idle kept by
it, so the game boots from its cache and starts Python from the snapshot; the bare page has no
service worker and boots from the HTTP cache, revalidated: the dev server sends no-cache). The
boot snapshot's figures are printed too: the bytes it adds to the profile's storage, when the
first visit had kept it, and the idle work it took (the worker's second runtime booted, the game
imported, the snapshot taken and encoded; the service worker's checks and write). Times are
in-page, from navigation start (also printed: when the wasm is instantiated and, for the game, when
its runtime has booted and PyScript's py:ready, to show where the boot goes): first paint (the
paint timing API's first-contentful-paint: the shell's title) and ready (html[data-ready=true],
set by the game when it is interactive and by the bare page when loadPyodide() has resolved).

First-visit bytes: what really came over the network during the first visit, the service
worker's install included: the dev server's log of its answers with a body (status 200; a
revalidation answered 304 sends none, and a response from the HTTP cache or the service worker
never reaches the server), each counted at the brotli (quality 11) and gzip (level 9) size of
the file served, as a static host that compresses would send it. The sizes are cached by content
hash in ~/.cache/lostcities-bench/ (brotli 11 on the 9.6 MB wasm takes minutes).

Move latency: a whole pass-and-play match (3 rounds) played by random legal clicks in the game;
for each click on a table button (a card, play, discard, a draw), the time from the click
event (event.timeStamp) to the first DOM mutation under #app that follows it, measured in-page.

Online propagation: runs scripts/bench_online.py (a room between two pages over the loopback
broker) and reports its overall p50/p95.

The site is built into a temporary folder (scripts/build.py --dist) and served by
scripts/serve.py with a loopback broker (scripts/site_browser.py). Needs the dev tools of `make
test` and pip's brotli.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page, Playwright, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
# scripts/site_browser.py
from site_browser import Site, build_revision, chromium_options, served_site

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path.home() / ".cache" / "lostcities-bench" / "sizes.json"
BARE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare loadPyodide()</title></head>
<body><h1>Lost Cities</h1><p>loadPyodide() only</p>
<script type="module">
import { loadPyodide } from "./static/vendor/pyodide/pyodide.mjs";
await loadPyodide();
document.documentElement.dataset.ready = "true";
</script></body></html>
"""
# Records when html[data-ready] turns "true", when the wasm runtime is instantiated, when
# PyScript is about to run the app (py:ready), and every click and DOM mutation, in-page.
TIMING = """(() => {
  const lc = window.__lc = {ready: null, wasm: null, pyReady: null, clicks: [], mutations: []};
  const instantiate = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = function (...args) {
    const result = instantiate.apply(this, args);
    result.then(() => { if (lc.wasm === null) lc.wasm = performance.now(); }, () => {});
    return result;
  };
  addEventListener("py:ready", () => { if (lc.pyReady === null) lc.pyReady = performance.now(); });
  new MutationObserver(() => {
    if (lc.ready === null && document.documentElement?.dataset.ready === "true") {
      lc.ready = performance.now();
    }
  }).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-ready"]});
  addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-action]");
    lc.clicks.push({t: event.timeStamp, action: button ? button.dataset.action : null});
  }, true);
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => lc.mutations.push(performance.now()))
      .observe(document.getElementById("app") || document.body,
               {subtree: true, childList: true, attributes: true, characterData: true});
  });
})();"""
TIMES = """() => ({
  paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
  ready: window.__lc.ready,
  wasm: window.__lc.wasm,
  pyReady: window.__lc.pyReady,
  runtime: performance.getEntriesByName("lc:runtime-ready")[0]?.startTime ?? null,
})"""
READY = "() => document.documentElement.dataset.ready === 'true'"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
BYTECODE = "() => document.documentElement.dataset.bytecode"
KEPT = "() => ['kept', 'refused', 'failed'].includes(document.documentElement.dataset.bytecode)"
SNAPSHOT = "() => document.documentElement.dataset.snapshot"
SNAPSHOT_SETTLED = ("() => ['kept', 'refused', 'failed']"
                    ".includes(document.documentElement.dataset.snapshot)")
# What static/pyodide-early.mjs recorded of the boot snapshot it made (the first visit).
SNAPSHOT_MADE = """() => {
  const start = performance.getEntriesByName("lc:snapshot-start")[0];
  const done = performance.getEntriesByName("lc:snapshot-done")[0];
  return done ? {start: start.startTime, done: done.startTime, ...done.detail} : null;
}"""
BUTTONS = """() => [...document.querySelectorAll('#app button[data-action]:not([disabled])')]
  .filter(b => b.checkVisibility()).map(b => Object.fromEntries([...b.attributes]
    .filter(a => a.name.startsWith('data-')).map(a => [a.name.slice(5), a.value])))"""
# Button groups in the order the click-bot presses them (it always moves the match on).
PROGRESS = (("draw",), ("play", "discard"), ("pick-job",), ("ready",), ("dismiss-mixup",),
            ("next-round",), ("select",))
MOVE_ACTIONS = ("select", "play", "discard", "draw")


def compressed_sizes(path: Path, cache: dict[str, list[int]]) -> tuple[int, int, int]:
    """(raw, brotli 11, gzip 9) sizes of the file, cached by its SHA-256."""
    import brotli  # pip's brotli (not a test dependency: only this benchmark needs it)

    data = path.read_bytes()
    key = hashlib.sha256(data).hexdigest()
    if key not in cache:
        cache[key] = [len(data), len(brotli.compress(data, quality=11)),
                      len(gzip.compress(data, 9, mtime=0))]
    raw, br, gz = cache[key]
    return raw, br, gz


def local_file(site: Path, path: str) -> Path | None:
    """The file of the site that a request path of the dev server answers with."""
    relative = urlsplit(path).path.lstrip("/") or "index.html"
    candidate = site / relative
    return candidate if candidate.is_file() else None


def add_bare_page(root: Path) -> None:
    """Write bare.html (loadPyodide() only) into the built site."""
    (root / "bare.html").write_text(BARE_PAGE)


def launch(pw: Playwright, profile: Path) -> BrowserContext:
    """A persistent Chromium context on profile, with the timing script."""
    context = pw.chromium.launch_persistent_context(str(profile), **chromium_options(pw))
    context.add_init_script(TIMING)
    return context


def load(context: BrowserContext, url: str) -> tuple[Page, dict[str, float]]:
    """Open url in a new page of context; (page, {paint, ready} in ms from navigation)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=300_000)
    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length",
                           timeout=10_000)
    return page, page.evaluate(TIMES)


def one_run(pw: Playwright, site: Site, kind: str, tmp: Path,
            cache: dict[str, list[int]]) -> dict[str, Any]:
    """Cold and warm loads of one kind ("bare", "game" or "base") in a fresh profile."""
    profile = tmp / f"profile-{kind}-{time.monotonic_ns()}"
    context = launch(pw, profile)
    before = len(site.requests())
    target = site.url + ("bare.html" if kind == "bare" else "")
    page, cold = load(context, target)
    kept = made = None
    if kind != "bare":
        page.wait_for_function(CONTROLLED, timeout=300_000)  # the precache is complete
        try:  # py/webui/warm_boot.py starts compiling once the page is idle (not in older builds)
            page.wait_for_function(BYTECODE, timeout=15_000)
            page.wait_for_function(KEPT, timeout=600_000)
            kept = page.evaluate("performance.now()")
            page.wait_for_function(SNAPSHOT, timeout=15_000)  # then the boot snapshot
            page.wait_for_function(SNAPSHOT_SETTLED, timeout=600_000)
            made = page.evaluate(SNAPSHOT_MADE)
        except PlaywrightTimeout:
            pass
    raw = br = gz = 0
    # What came over the network: the server's 200 answers (a 304 sends no body).
    for path, status in site.requests()[before:]:
        file = local_file(site.root, path)
        if status == 200 and file is not None:
            sizes = compressed_sizes(file, cache)
            raw, br, gz = raw + sizes[0], br + sizes[1], gz + sizes[2]
    page.close()
    warm_page, warm = load(context, target)
    boot = warm_page.evaluate("document.documentElement.dataset.boot")
    warm_page.close()
    context.close()
    shutil.rmtree(profile, ignore_errors=True)
    return {"cold paint": cold["paint"], "cold ready": cold["ready"],
            "warm paint": warm["paint"], "warm ready": warm["ready"],
            "bytes raw": raw, "bytes brotli": br, "bytes gzip": gz,
            "cold wasm": cold["wasm"], "warm wasm": warm["wasm"],
            "cold runtime": cold["runtime"], "warm runtime": warm["runtime"],
            "cold py:ready": cold["pyReady"], "warm py:ready": warm["pyReady"],
            "bytecode kept": kept, "snapshot": made, "warm boot": boot}


def print_snapshots(runs: dict[str, list[dict[str, Any]]]) -> None:
    """The boot snapshot's figures (medians): how warm loads booted, what it costs."""
    print("\nboot snapshot (the first visit, idle; medians)")
    for kind, results in runs.items():
        if kind == "bare":
            continue
        boots = [str(r["warm boot"]) for r in results]
        made = [r["snapshot"] for r in results if r["snapshot"]]
        kept = [m for m in made if m.get("kept")]
        line = f"  {kind}: warm loads booted " + ", ".join(
            f"{boots.count(b)}x {b}" for b in sorted(set(boots)))
        if not kept:
            reasons = sorted({str(m.get("reason")) for m in made})
            print(line + (f"; none kept: {reasons}" if made else "; never made"))
            continue
        timings = [m["timings"] for m in kept]
        median = statistics.median
        print(line + f"; kept in {len(kept)}/{len(results)} runs")
        print(f"    stored: {median(m['bytes'] for m in kept) / 1e6:.2f} MB in the cache "
              f"(an image of {median(t['image'] for t in timings) / 1e6:.2f} MB without its "
              "empty pages); network: none (the worker's requests come from the cache)")
        print(f"    kept at {median(m['done'] for m in kept):.0f} ms, idle work "
              f"{median(m['done'] - m['start'] for m in kept):.0f} ms: in the worker, runtime "
              f"booted {median(t['boot'] for t in timings):.0f}, game imported "
              f"{median(t['imports'] for t in timings):.0f}, snapshot "
              f"{median(t['snapshot'] for t in timings):.0f}, encoded "
              f"{median(t['encode'] for t in timings):.0f} ms")


def move_latencies(pw: Playwright, url: str, tmp: Path, seed: int) -> dict[str, list[float]]:
    """Click latencies (ms) by action over one whole 3-round pass-and-play match."""
    context = launch(pw, tmp / "profile-moves")
    page, _ = load(context, url)
    page.select_option('[data-option="rounds"]', "3")
    page.click('[data-action="start"]')
    rng = random.Random(seed)
    for _ in range(5000):
        if page.evaluate("document.body.dataset.screen") == "match-end":
            break
        buttons = page.evaluate(BUTTONS)
        group = next(g for g in PROGRESS if any(b["action"] in g for b in buttons))
        data = rng.choice([b for b in buttons if b["action"] in group])
        selector = "".join(f'[data-{k}="{v}"]' for k, v in data.items())
        page.locator(f"#app button{selector}:not([disabled]) >> visible=true").first.click()
    record = page.evaluate("() => window.__lc")
    context.close()
    latencies: dict[str, list[float]] = {}
    mutations = sorted(record["mutations"])
    for click in record["clicks"]:
        after = next((m for m in mutations if m >= click["t"]), None)
        if after is not None and click["action"] in MOVE_ACTIONS:
            latencies.setdefault(click["action"], []).append(after - click["t"])
    return latencies


def online_figures(moves: int) -> tuple[str, float | None, float | None]:
    """scripts/bench_online.py's output and its overall p50/p95 (ms)."""
    script = ROOT / "scripts" / "bench_online.py"
    if not script.is_file():
        return "scripts/bench_online.py is missing", None, None
    result = subprocess.run([sys.executable, str(script), "--moves", str(moves)],
                            capture_output=True, text=True, timeout=1800)
    match = re.search(r"^all\s.*p50\s+([\d.]+) ms\s+p95\s+([\d.]+) ms", result.stdout, re.M)
    if result.returncode != 0 or not match:
        return result.stdout + result.stderr, None, None
    return result.stdout, float(match.group(1)), float(match.group(2))


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def machine() -> str:
    """CPU count, model and load average, for the record."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.M)
        model = found.group(1) if found else model
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} CPUs, {model}, load average {load}"


def main() -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="loads of each page (default 5)")
    parser.add_argument("--no-moves", action="store_true", help="skip the move latency")
    parser.add_argument("--no-online", action="store_true", help="skip bench_online.py")
    parser.add_argument("--online-moves", type=int, default=60)
    parser.add_argument("--baseline", metavar="REV",
                        help="also load the game built from git revision REV, alternating")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    cache = json.loads(CACHE.read_text()) if CACHE.is_file() else {}
    runs: dict[str, list[dict[str, Any]]] = {"bare": [], "game": []}
    latencies: dict[str, list[float]] = {}
    with ExitStack() as stack:
        site = stack.enter_context(served_site(add_bare_page))
        sites = {"bare": site, "game": site}
        if args.baseline:
            sites["base"] = stack.enter_context(served_site(build_revision(args.baseline)))
            runs["base"] = []
        pw = stack.enter_context(sync_playwright())
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        for run in range(args.runs):
            for kind, served in sites.items():
                runs[kind].append(one_run(pw, served, kind, Path(tmp), cache))
                CACHE.write_text(json.dumps(cache))
            print(f"run {run + 1}/{args.runs}: " + ", ".join(
                f"{kind} cold {r[-1]['cold ready']:.0f} warm {r[-1]['warm ready']:.0f} ms"
                for kind, r in runs.items()), flush=True)
        if not args.no_moves:
            latencies = move_latencies(pw, site.url, Path(tmp), seed=1)
    print(f"machine at the end: {machine()}")
    print(f"\nmedians of {args.runs} runs (ms; bytes in MB)"
          + (f"; base: the game at {args.baseline}" if args.baseline else ""))
    columns = [kind for kind in runs if kind != "bare"]
    print(f"{'figure':<22}{'bare':>10}" + "".join(f"{kind:>10}{kind + '/bare':>11}"
                                                   for kind in columns))
    for figure in ("cold paint", "cold ready", "warm paint", "warm ready",
                   "bytes raw", "bytes brotli", "bytes gzip"):
        bare = statistics.median(r[figure] for r in runs["bare"])
        scale, unit = (1e6, "{:>10.2f}") if figure.startswith("bytes") else (1, "{:>10.0f}")
        line = f"{figure:<22}" + unit.format(bare / scale)
        for kind in columns:
            value = statistics.median(r[figure] for r in runs[kind])
            line += unit.format(value / scale) + f"{value / bare:>10.2f}x"
        print(line)
    for kind in runs:
        for figure in ("cold ready", "warm ready"):
            listed = ", ".join(f"{r[figure]:.0f}" for r in runs[kind])
            print(f"  {kind} {figure}: {listed}")
    print("\nwhere the boot goes (medians, ms from navigation): wasm instantiated -> the game's"
          " runtime booted (static/pyodide-early.mjs) -> PyScript about to run the app (py:ready)"
          " -> ready")
    for kind in runs:
        for load in ("cold", "warm"):
            marks = [(name, [r[f"{load} {name}"] for r in runs[kind]])
                     for name in ("wasm", "runtime", "py:ready", "ready")]
            print(f"  {kind} {load}: " + "  ".join(
                f"{name} {statistics.median(values):.0f}" for name, values in marks
                if None not in values))
    for kind in runs:
        kept = [r["bytecode kept"] for r in runs[kind] if r.get("bytecode kept") is not None]
        if kept:
            print(f"  {kind}: the first visit's bytecode kept by the worker at "
                  f"{statistics.median(kept):.0f} ms (median, the page left idle)")
    print_snapshots(runs)
    if latencies:
        every = [v for values in latencies.values() for v in values]
        print(f"\nmove latency, click -> DOM updated, one 3-round match ({len(every)} clicks)")
        for name, values in [("all", every), *sorted(latencies.items())]:
            print(f"  {name:<10} n={len(values):<4} p50 {pct(values, 50):6.1f} ms   "
                  f"p95 {pct(values, 95):6.1f} ms   max {max(values):6.1f} ms")
    if not args.no_online:
        text, p50, p95 = online_figures(args.online_moves)
        print("\nonline propagation (scripts/bench_online.py):")
        print("  " + "\n  ".join(text.strip().splitlines()))
        if p50 is not None and p95 is not None:
            print(f"  overall p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
