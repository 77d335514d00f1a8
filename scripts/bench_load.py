"""Benchmark: download size, load times, the boot snapshot, move latency, online propagation.

    .venv/bin/python scripts/bench_load.py [--runs 5] [--warm 3] [--baseline REV] [--tree REV]
                                           [--no-moves] [--matches 1] [--no-online]
                                           [--online-moves 60] [--phone]

Prints tables of figures and ratios; asserts nothing. In one headless Chromium (Debian's unless
Playwright's own is installed), each run opens a fresh persistent profile for each page:

- bare: a page that only calls loadPyodide() from the npm package's own files (node_modules/
  pyodide copied beside the site: its untrimmed standard library, no service worker);
- game: the app (index.html), built from the working tree, or with --tree REV from git
  revision REV (to compare two commits while the tree holds changes of its own);
- base, with --baseline REV: the app built from git revision REV (e.g. the commit before a
  change), served by its own server, so a change is measured against the same machine load.

In each run every page has its first visit (cold: empty profile and caches; the order of the
pages turns from run to run); the game's is then left idle until it has kept its bytecode and
its boot snapshot (py/webui/browser/boot/warm.py). Then each page is opened again --warm times in
its profile, the pages taking turns (bare, game, base, bare, ...), so that loads compared are
seconds apart: the game from its service worker's cache and its boot snapshot, the bare page
from the HTTP cache, revalidated (the dev server sends no-cache). A run's warm figure is the
median of its warm loads; ratios (game/bare, game/base) are taken within each run, then their
median and range over the runs are printed, with the load average at each run: on a shared
machine only figures measured side by side compare.

Times are in-page, from navigation start: first paint (the paint timing API's
first-contentful-paint: the shell's title) and ready (html[data-ready=true], set by the game
when it is interactive and by the bare page when loadPyodide() has resolved). "where the boot
goes" prints the marks on the way (the runtime started, Python started in a worker (a first
visit), the snapshot read and checked, the wasm instantiated, the runtime booted, PyScript's
py:ready) and how the warm loads booted (html[data-boot]: "snapshot" or "normal").

The first seconds of each load, until ready: when the setup form shows (the frame after the
shell's paint), the longest main-thread task (Long Tasks API) and the total blocking time, and,
as the bench types into the name field from the moment the form shows (a key at a time, each
waiting for the page to take it), the longest input delay and the longest key to next paint
(Event Timing). Until a page is ready, and until its first use has shown, the bench watches it
only through the page's own calls of exposed functions and the DevTools protocol's
Runtime.evaluate: no script of Playwright's runs in the page (its injected script, evaluated at
its first query, took ~45 ms of a later visit's main thread). --phone runs every page as on a
phone: a 390x844 touch screen at 3x, Chromium's CPU throttle at 4x and a 4G-like network (9
Mbit/s down, 170 ms round trip; the page's own requests, not its service worker's). Each run's
longest task until ready (the first visit's, and the worst of the later visits') is named: the
boot's step before it (its `lc:` marks) and the longest script of its animation frame (Long
Animation Frames: what invoked it, from which file).

The boot snapshot's own costs are printed from the first visits: the bytes it adds to the
profile's storage (navigator.storage.estimate() of the Cache Storage before and after it was
kept, and the container's size), the network bytes its making fetched, and the idle work (from
the page's request to the worker's answer, and its parts: the worker's runtime booted, the game
imported, the snapshot taken, encoded).

First-visit bytes: what really came over the network during the first visit, the service
worker's install included: the dev server's log of its answers with a body (status 200; a
revalidation answered 304 sends none, and a response from the HTTP cache or the service worker
never reaches the server), each counted at the brotli (quality 11) and gzip (level 9) size of
the file served, as a static host that compresses would send it. The sizes are cached by content
hash in ~/.cache/lostcities-bench/ (brotli 11 on the 9.6 MB wasm takes minutes). "first screen
brotli" counts only the answers before the first request a page makes once ready (app-more.zip.gz,
or the service worker's script): what the first screen needed.

The first use of a part of the app, the moment a page is ready (FIRST_USES): Statistics clicked,
to its screen ("cold stats" on the first visit, "warm stats" the median of the warm loads);
online play chosen and Start clicked, to the lobby ("warm online"), and a match against the
computer (Easy) that it starts, to its table with the computer thinking ("warm computer"; each
of its moves is then paced to at least 0.3 s), each on one more later visit of each page after
the warm loads.

Move latency: whole pass-and-play matches (3 rounds; --matches of them, seeds 1, 2, ...) played
by random legal clicks, in the game and in the base with --baseline taking turns, each in a
fresh profile right after its first load (so beside its idle work); for each click on a table
button (a card, play, discard, a draw), the time from the click event (event.timeStamp) to the
first DOM mutation under #app that follows it, measured in-page.

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
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, CDPSession, Page, Playwright, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
# scripts/site_browser.py
from site_browser import Site, build_revision, chromium_options, served_site

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path.home() / ".cache" / "lostcities-bench" / "sizes.json"
BARE_RUNTIME = "bare-pyodide"
"""Where the bare page's runtime is served from: the npm package's files, unchanged."""
BARE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json",
              "python_stdlib.zip")
BARE_PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare loadPyodide()</title></head>
<body><h1>Lost Cities</h1><p>loadPyodide() only</p>
<script type="module">
import {{ loadPyodide }} from "./{BARE_RUNTIME}/pyodide.mjs";
await loadPyodide();
document.documentElement.dataset.ready = "true";
</script></body></html>
"""
# Records when html[data-ready] turns "true", when the wasm runtime is instantiated, when
# PyScript is about to run the app (py:ready), and every click and DOM mutation, in-page.
TIMING = """(() => {
  const lc = window.__lc = {ready: null, wasm: null, pyReady: null, clicks: [], mutations: [],
                            form: null, tasks: [], keys: [], frames: []};
  // the setup form is shown in the frame after the shell's paint (boot/preboot.js)
  new MutationObserver((records, observer) => {
    if (document.documentElement?.dataset.shell !== "painted") return;
    observer.disconnect();
    requestAnimationFrame(() => {
      lc.form = performance.now();
      window.lcBenchForm?.();  // tells the typing loop to start
    });
  }).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-shell"]});
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) lc.tasks.push([task.startTime, task.duration]);
  }).observe({type: "longtask", buffered: true});
  new PerformanceObserver((list) => {  // what ran in each long frame: Long Animation Frames
    for (const frame of list.getEntries()) {
      lc.frames.push([frame.startTime, frame.duration, frame.scripts.map((script) => [
        script.duration, script.invoker, script.sourceURL.split("/").pop(),
        script.sourceFunctionName])]);
    }
  }).observe({type: "long-animation-frame", buffered: true});
  new PerformanceObserver((list) => {  // keys pressed while loading: Event Timing
    for (const e of list.getEntries()) {
      if (e.name === "keydown") lc.keys.push([e.startTime, e.processingStart - e.startTime,
                                              e.duration]);
    }
  }).observe({type: "event", durationThreshold: 16, buffered: true});
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
      window.lcBenchReady?.();  // tells the typing loop, which queries nothing meanwhile
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
# The marks of a load (ms from navigation; null when the page made none): the shell's paint,
# ready, the wasm instantiated, PyScript's py:ready, and those of boot/pyodide-early.mjs.
TIMES = """() => {
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  return {
    paint: mark("first-contentful-paint"), ready: window.__lc.ready, wasm: window.__lc.wasm,
    "py:ready": window.__lc.pyReady, start: mark("lc:runtime-start"),
    worker: mark("lc:worker-booted"),
    "snapshot read": mark("lc:snapshot-read"), "snapshot checked": mark("lc:snapshot-decoded"),
    runtime: mark("lc:runtime-ready"), boot: document.documentElement.dataset.boot ?? null,
    form: window.__lc.form, tasks: window.__lc.tasks, keys: window.__lc.keys,
    frames: window.__lc.frames,
    steps: performance.getEntriesByType("mark").filter((m) => m.name.startsWith("lc:"))
      .map((m) => [m.startTime, m.name.slice(3)]),
  };
}"""
# A page's init script: a part of the app first used the moment html[data-ready] turns
# "true" (FIRST_USES); window.__lcFirstUse resolves to the ms from the first click until the
# part has shown (the player's screens and online play come with app-more.zip, which the page
# fetches once ready; an older build imports them at once).
FIRST_USE = """((part) => {
  const body = () => document.body;
  const click = (selector) => document.querySelector(selector).click();
  const parts = {
    stats: {go: () => click('[data-action="stats"]'),
            done: () => body().dataset.screen === "stats"},
    online: {go: () => { click('[data-option="mode"][value="online"]');
                         click('[data-action="start"]'); },
             done: () => body().dataset.screen === "lobby"},
    computer: {go: () => { document.querySelector('[data-option="opponent"]').value = "easy";
                           click('[data-field="starts"][value="1"]');
                           click('[data-action="start"]'); },
               done: () => body().dataset.screen === "turn"
                 && body().hasAttribute("data-thinking")},
  };
  const {go, done} = parts[part];
  window.__lcFirstUse = new Promise((resolve) => {
    new MutationObserver((records, observer) => {
      if (document.documentElement?.dataset.ready !== "true") return;
      observer.disconnect();
      const start = performance.now();
      new MutationObserver((records, observer) => {
        if (!done()) return;
        observer.disconnect();
        resolve(performance.now() - start);
      }).observe(body(), {attributes: true, childList: true, subtree: true});
      go();
    }).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-ready"]});
  });
})"""
FIRST_USES = ("stats", "online", "computer")
"""Parts of the app used at ready, to what shows: Statistics clicked, to its screen; online
play chosen and Start clicked, to the lobby; a match against the computer (Easy) that the
computer starts, to its table with the computer thinking (its moves then take at least
webui.match.seats.computer.PACE each, by design)."""
# The marks "where the boot goes" prints, in the order a boot passes them.
MARKS = ("start", "worker", "snapshot read", "wasm", "snapshot checked", "runtime", "py:ready",
         "ready")
READY = "() => document.documentElement.dataset.ready === 'true'"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
BYTECODE = "() => document.documentElement.dataset.bytecode"
KEPT = "() => ['kept', 'refused', 'failed'].includes(document.documentElement.dataset.bytecode)"
SNAPSHOT = "() => document.documentElement.dataset.snapshot"
SNAPSHOT_SETTLED = ("() => ['kept', 'refused', 'failed']"
                    ".includes(document.documentElement.dataset.snapshot)")
# What boot/pyodide-early.mjs recorded of the boot snapshot it made (the first visit).
SNAPSHOT_MADE = """() => {
  const start = performance.getEntriesByName("lc:snapshot-start")[0];
  const done = performance.getEntriesByName("lc:snapshot-done")[0];
  return done ? {start: start.startTime, done: done.startTime, ...done.detail} : null;
}"""
# Bytes the origin's Cache Storage holds, as the browser counts them.
STORED = """async () => {
  const estimate = await navigator.storage.estimate();
  return estimate.usageDetails?.caches ?? estimate.usage;
}"""
BUTTONS = """() => [...document.querySelectorAll('#app button[data-action]:not([disabled])')]
  .filter(b => b.checkVisibility()).map(b => Object.fromEntries([...b.attributes]
    .filter(a => a.name.startsWith('data-')).map(a => [a.name.slice(5), a.value])))"""
# Button groups in the order the click-bot presses them (it always moves the match on).
PROGRESS = (("draw",), ("play", "discard"), ("pick-job",), ("ready",), ("dismiss-mixup",),
            ("next-round",), ("select",))
MOVE_ACTIONS = ("select", "play", "discard", "draw")
COLD = ("cold paint", "cold ready")
WARM = ("warm paint", "warm ready")
FIRST_SECONDS = ("form", "longest task", "blocking", "key delay", "key to paint")
"""Of each load, until ready: when the setup form shows, the longest main-thread task, the
total blocking time (each long task's time over 50 ms), and of the keys typed into the name
field meanwhile the longest input delay (Event Timing: from the key to its handler) and the
longest time from the key to the next paint."""
FIRST_USE_FIGURES = ("cold stats", *(f"warm {part}" for part in FIRST_USES))
"""The first uses (FIRST_USES) at ready (ms): Statistics on the first visit, each part on a
later one."""
PHONE_NETWORK = {"offline": False, "latency": 170, "downloadThroughput": 9e6 / 8,
                 "uploadThroughput": 1.5e6 / 8}
"""--phone: a 4G-like network (9 Mbit/s down, 1.5 up, 170 ms round trip), in bytes a second."""
PHONE_CPU = 4
"""--phone: Chromium's CPU throttle (4x slower)."""
PHONE_DEVICE: dict[str, Any] = {"viewport": {"width": 390, "height": 844},
                                "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
BYTES = ("bytes raw", "bytes brotli", "bytes gzip", "first screen brotli")
AFTER_READY = ("/static/vendor/app-more.zip.gz", "/static/vendor/app-more.zip", "/sw.js")
"""The first requests a page makes once ready: the bytes before them are the first screen's
(app-more.zip was shipped without gzip until 2026-12-07: a --baseline before that asks for it)."""


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
    """Write bare.html (loadPyodide() only) into the built site, with the npm package's
    runtime files beside it."""
    (root / "bare.html").write_text(BARE_PAGE)
    folder = root / BARE_RUNTIME
    folder.mkdir()
    for name in BARE_FILES:
        shutil.copyfile(ROOT / "node_modules" / "pyodide" / name, folder / name)


def with_bare_page(rev: str | None) -> Callable[[Path], None]:
    """A `served_site` preparation: the site of git revision `rev` if given (else the working
    tree's, as built), with the bare page added."""
    def prepare(root: Path) -> None:
        if rev is not None:
            build_revision(rev)(root)
        add_bare_page(root)

    return prepare


PHONE = False
"""--phone: every page on a phone's screen, CPU and network (set by main)."""


def launch(pw: Playwright, profile: Path) -> BrowserContext:
    """A persistent Chromium context on profile, with the timing script (a phone's screen
    with --phone)."""
    context = pw.chromium.launch_persistent_context(
        str(profile), **chromium_options(pw), **(PHONE_DEVICE if PHONE else {}))
    context.add_init_script(TIMING)
    return context


FOCUS_FIELD = """(() => {
  const field = document.querySelector('[data-field="name1"]');
  field?.focus();
  return field !== null;
})()"""


def wait_for(page: Page, *flags: list[bool], timeout: float = 300.0) -> None:
    """Wait until one of the lists that the page's calls of an exposed function fill is
    filled: only the Python side is polled, nothing is evaluated in the page."""
    deadline = time.monotonic() + timeout
    while not any(flags):
        if time.monotonic() > deadline:
            raise PlaywrightTimeout(f"the page did not call back within {timeout:.0f} s")
        page.wait_for_timeout(10)


def in_page(cdp: CDPSession, expression: str) -> Any:
    """The value of an expression evaluated in the page through the DevTools protocol, its
    promise awaited: unlike Playwright's queries, it evaluates no script of Playwright's in
    the page (its injected script costs a boot ~45 ms of main thread)."""
    answer = cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                           "returnByValue": True})
    if "exceptionDetails" in answer:
        raise RuntimeError(f"{expression[:60]}: {answer['exceptionDetails']}")
    return answer["result"].get("value")


def type_while_loading(page: Page, cdp: CDPSession, ready: list[bool],
                       shown: list[bool]) -> None:
    """Once the setup form shows (`shown` filled by the page's lcBenchForm call), type into its
    name field a key every 50 ms until the page says it is ready (`ready` filled by its
    lcBenchReady call: a query of the page would wait while it is frozen); a page without the
    field: nothing."""
    wait_for(page, ready, shown)
    if ready or not in_page(cdp, FOCUS_FIELD):
        return
    for _ in range(2000):
        if ready:
            return
        page.keyboard.press("a")
        page.wait_for_timeout(50)


def load(context: BrowserContext, url: str,
         first_use: str | None = None) -> tuple[Page, dict[str, Any]]:
    """Open url in a new page of context, typing meanwhile; (page, its marks: TIMES, with the
    first seconds' figures, and with first_use, a part of FIRST_USES, its "first use"). Until
    then the page is only watched through its own calls and the DevTools protocol (`in_page`),
    as a player's page runs no script of Playwright's."""
    page = context.new_page()
    if first_use is not None:
        page.add_init_script(f"{FIRST_USE}({json.dumps(first_use)});")
    ready: list[bool] = []
    shown: list[bool] = []
    page.expose_function("lcBenchReady", lambda: ready.append(True))
    page.expose_function("lcBenchForm", lambda: shown.append(True))
    # kept open with the page: a phone's throttling and network, which it sets, last as long
    # as the page does (its idle work after the load included)
    cdp = context.new_cdp_session(page)
    if PHONE:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_CPU})
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", PHONE_NETWORK)
    page.goto(url)
    type_while_loading(page, cdp, ready, shown)
    wait_for(page, ready)
    used = in_page(cdp, "window.__lcFirstUse") if first_use is not None else None
    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length",
                           timeout=10_000)
    marks = first_seconds(page.evaluate(TIMES))
    marks["first use"] = used
    return page, marks


def first_seconds(marks: dict[str, Any]) -> dict[str, Any]:
    """The marks with FIRST_SECONDS worked out from their long tasks and keys until ready, and
    where the longest task was ("longest at")."""
    ready = marks["ready"]
    timed = [task for task in marks.pop("tasks") if task[0] < ready]
    tasks = [duration for start, duration in timed]
    keys = [key for key in marks.pop("keys") if key[0] < ready]
    steps, frames = marks.pop("steps"), marks.pop("frames")
    return {**marks, "longest task": max(tasks, default=0.0),
            "longest at": task_place(max(timed, key=lambda task: task[1]), steps, frames)
            if timed else None,
            "blocking": sum(max(0.0, d - 50) for d in tasks),
            "key delay": max((k[1] for k in keys), default=None),
            "key to paint": max((k[2] for k in keys), default=None), "keys": len(keys)}


def task_place(task: list[float], steps: list[list[Any]], frames: list[list[Any]]) -> str:
    """Where a long task ran: the boot's step before it (its lc: marks, or "navigation"), the
    ms since that step, and the longest script of the animation frame it was in (Long
    Animation Frames: its ms, what invoked it, its file and function)."""
    start, duration = task
    before = [step for step in steps if step[0] <= start]
    at, name = max(before) if before else (0.0, "navigation")
    place = f"{duration:.0f} ms, {start - at:.0f} ms after {name}"
    within = [frame for frame in frames if frame[0] <= start + 1 < frame[0] + frame[1]]
    scripts = sorted((script for frame in within for script in frame[2]), reverse=True)
    if scripts:
        took, invoker, source, function = scripts[0]
        place += f": {took:.0f} ms of {invoker} ({source or '?'} {function or '?'})"
    return place


def network_bytes(site: Site, since: int,
                  cache: dict[str, list[int]]) -> tuple[int, int, int, int]:
    """(raw, brotli, gzip) bytes of the server's 200 answers after its first `since` requests
    (a 304 sends no body), and the brotli bytes of those before the first of AFTER_READY."""
    raw = br = gz = first = 0
    before_ready = True
    for path, status in site.requests()[since:]:
        before_ready = before_ready and urlsplit(path).path not in AFTER_READY
        file = local_file(site.root, path)
        if status == 200 and file is not None:
            sizes = compressed_sizes(file, cache)
            raw, br, gz = raw + sizes[0], br + sizes[1], gz + sizes[2]
            first += sizes[1] if before_ready else 0
    return raw, br, gz, first


def idle_work(page: Page, site: Site, cache: dict[str, list[int]]) -> dict[str, Any]:
    """Wait while the first visit, left idle, keeps its bytecode and then its boot snapshot;
    what that took (None for what an older build does not do)."""
    page.wait_for_function(CONTROLLED, timeout=300_000)  # the precache is complete
    found: dict[str, Any] = {"bytecode kept": None, "snapshot": None}
    # py/webui/browser/boot/warm.py starts compiling once the page is idle (not in older builds)
    try:
        page.wait_for_function(BYTECODE, timeout=15_000)
        page.wait_for_function(KEPT, timeout=600_000)
        found["bytecode kept"] = page.evaluate("performance.now()")
        stored, requests = page.evaluate(STORED), len(site.requests())
        page.wait_for_function(SNAPSHOT, timeout=15_000)  # then the boot snapshot
        page.wait_for_function(SNAPSHOT_SETTLED, timeout=600_000)
        made = page.evaluate(SNAPSHOT_MADE)
        if made is not None:
            made["stored"] = page.evaluate(STORED) - stored
            made["network"] = network_bytes(site, requests, cache)[0]
        found["snapshot"] = made
    except PlaywrightTimeout:
        pass
    return found


def first_visit(pw: Playwright, site: Site, kind: str, tmp: Path,
                cache: dict[str, list[int]]) -> tuple[BrowserContext, dict[str, Any]]:
    """A fresh profile's first visit of one page ("bare", "game" or "base"), left idle until
    its work for the next boots is done: (its context, its figures)."""
    context = launch(pw, tmp / f"profile-{kind}-{time.monotonic_ns()}")
    before = len(site.requests())
    page, cold = load(context, page_url(site, kind), None if kind == "bare" else "stats")
    figures: dict[str, Any] = {"cold paint": cold["paint"], "cold ready": cold["ready"],
                               "cold marks": cold, "cold stats": cold["first use"]}
    figures.update({f"cold {name}": cold[name] for name in (*FIRST_SECONDS, "longest at")})
    if kind != "bare":
        figures.update(idle_work(page, site, cache))
    figures.update(zip(BYTES, network_bytes(site, before, cache)))
    page.close()
    return context, figures


def page_url(site: Site, kind: str) -> str:
    """The URL of a kind of page on its site."""
    return site.url + ("bare.html" if kind == "bare" else "")


def one_run(pw: Playwright, sites: dict[str, Site], order: list[str], warm: int, tmp: Path,
            cache: dict[str, list[int]]) -> dict[str, dict[str, Any]]:
    """One run: each page's first visit in `order`, then `warm` loads of each, taking turns."""
    contexts: dict[str, BrowserContext] = {}
    figures: dict[str, dict[str, Any]] = {}
    try:
        for kind in order:
            contexts[kind], figures[kind] = first_visit(pw, sites[kind], kind, tmp, cache)
            figures[kind]["warm loads"] = []
        for _ in range(warm):
            for kind in order:
                page, marks = load(contexts[kind], page_url(sites[kind], kind),
                                   None if kind == "bare" else "stats")
                page.close()
                figures[kind]["warm loads"].append(marks)
        for part in FIRST_USES[1:]:  # one more later visit each, not in the warm figures
            for kind in order:
                if kind != "bare":
                    page, marks = load(contexts[kind], page_url(sites[kind], kind), part)
                    page.close()
                    figures[kind][f"warm {part}"] = marks["first use"]
    finally:
        for context in contexts.values():
            context.close()
    for kind in order:
        loads = figures[kind]["warm loads"]
        figures[kind]["warm paint"] = statistics.median(m["paint"] for m in loads)
        figures[kind]["warm ready"] = statistics.median(m["ready"] for m in loads)
        stats = [m["first use"] for m in loads if m["first use"] is not None]
        figures[kind]["warm stats"] = statistics.median(stats) if stats else None
        for part in FIRST_USES[1:]:
            figures[kind].setdefault(f"warm {part}", None)
        for name in FIRST_SECONDS:  # the worst of the run's warm loads
            values = [m[name] for m in loads if m[name] is not None]
            figures[kind][f"warm {name}"] = max(values) if values else None
        worst = max(loads, key=lambda m: m["longest task"], default=None)
        figures[kind]["warm longest at"] = worst and worst["longest at"]
    return figures


def ratio_line(name: str, runs: list[dict[str, dict[str, Any]]], figure: str, top: str,
               bottom: str, note: str = "") -> str:
    """A ratio of two pages' figure: taken in each run, then its median and range."""
    ratios = [run[top][figure] / run[bottom][figure] for run in runs]
    listed = ", ".join(f"{r:.2f}" for r in ratios)
    return (f"  {name:<24}{statistics.median(ratios):>6.2f}x  [{min(ratios):.2f}-"
            f"{max(ratios):.2f}]  {note}\n      by run: {listed}")


def print_loads(runs: list[dict[str, dict[str, Any]]], kinds: list[str], rev: str | None,
                loads: list[str]) -> None:
    """The table of medians, the ratios of record, and every load."""
    median = statistics.median
    print(f"\nmedians of {len(runs)} runs (ms; bytes in MB); a run's warm figure is the median "
          f"of its warm loads" + (f"; base: the game at {rev}" if rev else ""))
    print(f"{'figure':<20}" + "".join(f"{kind:>10}" for kind in kinds))
    for figure in (*COLD, *WARM, *FIRST_USE_FIGURES, *BYTES):
        scale, unit = (1e6, "{:>10.2f}") if figure in BYTES else (1, "{:>10.0f}")
        print(f"{figure:<20}" + "".join(
            f"{'-':>10}" if None in (values := [run[kind][figure] for run in runs])
            else unit.format(median(values) / scale) for kind in kinds))
    print("\nratios, taken within each run: median [range]")
    print(ratio_line("warm ready game/bare", runs, "warm ready", "game", "bare",
                     "(budget: <= 0.35x; the game from its boot snapshot)"))
    print(ratio_line("cold ready game/bare", runs, "cold ready", "game", "bare"))
    if "base" in kinds:
        print(ratio_line("cold ready game/base", runs, "cold ready", "game", "base",
                         f"(no slower than {rev}: <= 1.00x within the noise)"))
        print(ratio_line("warm ready game/base", runs, "warm ready", "game", "base"))
        print(ratio_line("warm ready base/bare", runs, "warm ready", "base", "bare"))
    print("\nevery load's ready (ms), by run; the load average (1 min) at each run's start:")
    for index, run in enumerate(runs):
        print(f"  run {index + 1} (load {loads[index]}): " + "; ".join(
            f"{kind} cold {run[kind]['cold ready']:.0f} warm " + " ".join(
                f"{m['ready']:.0f}" for m in run[kind]["warm loads"]) for kind in kinds))


def print_first_seconds(runs: list[dict[str, dict[str, Any]]], kinds: list[str]) -> None:
    """The first seconds: each figure's median over the runs, and its worst [in brackets]."""
    print("\nthe first seconds, until ready (ms; median of the runs [worst]; a run's warm "
          "figure is the worst of its warm loads): the setup form shown, the longest "
          "main-thread task, the total blocking time, and of the keys typed into the name field "
          "the longest input delay and the longest key to next paint (budgets: task <= 200, "
          "key shown <= 150)")
    print(f"{'figure':<20}" + "".join(f"{kind:>16}" for kind in kinds))
    for when in ("cold", "warm"):
        for name in FIRST_SECONDS:
            cells = []
            for kind in kinds:
                values = [run[kind][f"{when} {name}"] for run in runs
                          if run[kind].get(f"{when} {name}") is not None]
                cells.append(f"{statistics.median(values):.0f} [{max(values):.0f}]"
                             if values else "-")
            print(f"{when + ' ' + name:<20}" + "".join(f"{cell:>16}" for cell in cells))
    print("\nthe longest task until ready, by run (cold, and the worst of the warm loads): "
          "the boot's step before it and the longest script of its animation frame")
    for index, run in enumerate(runs):
        for kind in kinds:
            if kind != "bare":
                print(f"  run {index + 1} {kind}: cold {run[kind]['cold longest at']}\n"
                      f"  {'':>{len(str(index + 1)) + len(kind) + 5}}warm "
                      f"{run[kind]['warm longest at']}")


def print_boots(runs: list[dict[str, dict[str, Any]]], kinds: list[str]) -> None:
    """Where the boot goes: the medians of each mark, cold and warm, and how warm loads booted."""
    print("\nwhere the boot goes (medians, ms from navigation): the runtime started "
          "(boot/pyodide-early.mjs), Python started in a worker and its image received, the "
          "snapshot's bytes read, the wasm instantiated, the "
          "snapshot checked and decoded, the runtime booted, PyScript about to run the app "
          "(py:ready), ready")
    for kind in kinds:
        cold = [run[kind]["cold marks"] for run in runs]
        warm = [marks for run in runs for marks in run[kind]["warm loads"]]
        for name, loads in (("cold", cold), ("warm", warm)):
            line = "  ".join(f"{mark} {statistics.median(values):.0f}" for mark in MARKS
                             if None not in (values := [m[mark] for m in loads]))
            print(f"  {kind} {name}: {line}")
        boots = [str(m["boot"]) for m in warm]
        if kind != "bare":
            print(f"  {kind}: warm loads booted " + ", ".join(
                f"{boots.count(b)}x {b}" for b in sorted(set(boots))))
        kept = [run[kind]["bytecode kept"] for run in runs
                if run[kind].get("bytecode kept") is not None]
        if kept:
            print(f"  {kind}: the first visit's bytecode kept by the worker at "
                  f"{statistics.median(kept):.0f} ms (median, the page left idle)")


def print_snapshots(runs: list[dict[str, dict[str, Any]]], kinds: list[str]) -> None:
    """The boot snapshot's costs (medians of the first visits that kept one)."""
    print("\nthe boot snapshot's costs (the first visit, left idle; medians)")
    median = statistics.median
    for kind in kinds:
        if kind == "bare":
            continue
        made = [run[kind]["snapshot"] for run in runs if run[kind]["snapshot"]]
        kept = [m for m in made if m.get("kept")]
        if not kept:
            reasons = sorted({str(m.get("reason")) for m in made})
            print(f"  {kind}: " + (f"none kept: {reasons}" if made else "never made"))
            continue
        timings = [m["timings"] for m in kept]
        print(f"  {kind}: kept in {len(kept)}/{len(runs)} runs")
        stored, container = (median(m[key] for m in kept) / 1e6 for key in ("stored", "bytes"))
        image = median(t["image"] for t in timings) / 1e6
        print(f"    storage added: {stored:.2f} MB (Cache Storage, as the browser counts it; "
              f"the container {container:.2f} MB: the {image:.2f} MB image without its empty "
              "pages)")
        print(f"    network while making it: {median(m['network'] for m in kept) / 1e6:.2f} MB")
        print(f"    idle work: {median(m['done'] - m['start'] for m in kept):.0f} ms (kept at "
              f"{median(m['done'] for m in kept):.0f} ms from navigation): in the worker, "
              f"runtime booted {median(t['boot'] for t in timings):.0f}, game imported "
              f"{median(t['imports'] for t in timings):.0f}, snapshot "
              f"{median(t['snapshot'] for t in timings):.0f}, encoded "
              f"{median(t['encode'] for t in timings):.0f} ms; the rest is the service "
              "worker's checks and write")


def move_latencies(pw: Playwright, url: str, tmp: Path, seed: int) -> dict[str, list[float]]:
    """Click latencies (ms) by action over one whole 3-round pass-and-play match."""
    context = launch(pw, tmp / f"profile-moves-{time.monotonic_ns()}")
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
    """Run the benchmark and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5,
                        help="runs of loads (default 5; 0: none)")
    parser.add_argument("--warm", type=int, default=3,
                        help="warm loads of each page a run (default 3)")
    parser.add_argument("--no-moves", action="store_true", help="skip the move latency")
    parser.add_argument("--matches", type=int, default=1,
                        help="matches a page for the move latency (default 1)")
    parser.add_argument("--no-online", action="store_true", help="skip bench_online.py")
    parser.add_argument("--online-moves", type=int, default=60)
    parser.add_argument("--baseline", metavar="REV",
                        help="also load the game built from git revision REV, taking turns")
    parser.add_argument("--tree", metavar="REV",
                        help="the game built from git revision REV, not the working tree")
    parser.add_argument("--phone", action="store_true",
                        help="a phone: 390x844 touch screen, CPU 4x slower, 4G-like network")
    args = parser.parse_args()
    global PHONE
    PHONE = args.phone
    print(f"machine: {machine()}" + (" (a phone's profile: CPU throttled 4x, 9 Mbit/s, "
                                     "170 ms RTT, 390x844)" if PHONE else ""))
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    cache = json.loads(CACHE.read_text()) if CACHE.is_file() else {}
    runs: list[dict[str, dict[str, Any]]] = []
    loads: list[str] = []
    latencies: dict[str, dict[str, list[float]]] = {}
    with ExitStack() as stack:
        site = stack.enter_context(served_site(with_bare_page(args.tree)))
        sites = {"bare": site, "game": site}
        if args.baseline:
            sites["base"] = stack.enter_context(served_site(build_revision(args.baseline)))
        kinds = list(sites)
        pw = stack.enter_context(sync_playwright())
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        for index in range(args.runs):
            loads.append(f"{os.getloadavg()[0]:.2f}")
            order = kinds[index % len(kinds):] + kinds[:index % len(kinds)]
            runs.append(one_run(pw, sites, order, args.warm, tmp, cache))
            CACHE.write_text(json.dumps(cache))
            print(f"run {index + 1}/{args.runs} (load {loads[-1]}): " + ", ".join(
                f"{kind} cold {runs[-1][kind]['cold ready']:.0f} warm "
                f"{runs[-1][kind]['warm ready']:.0f} ms" for kind in kinds), flush=True)
        if not args.no_moves:
            for seed in range(1, args.matches + 1):
                for kind in kinds[1:]:  # the game, then the base
                    for action, values in move_latencies(pw, sites[kind].url, tmp,
                                                         seed).items():
                        latencies.setdefault(kind, {}).setdefault(action, []).extend(values)
    print(f"machine at the end: {machine()}")
    if args.tree:
        print(f"game: the game at {args.tree}")
    if runs:  # --runs 0: the move latency alone
        print_loads(runs, kinds, args.baseline, loads)
        print_first_seconds(runs, kinds)
        print_boots(runs, kinds)
        print_snapshots(runs, kinds)
    for kind, by_action in latencies.items():
        every = [v for values in by_action.values() for v in values]
        print(f"\nmove latency of the {kind}, click -> DOM updated, {args.matches} 3-round "
              f"match(es) ({len(every)} clicks)")
        for name, values in [("all", every), *sorted(by_action.items())]:
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
