"""Fair play, measured in headless Chromium on the app page, with the group the page uses.

Both seats play whole matches in one page, over an in-memory wire, through the page's own
Pyodide: exactly scripts/bench_fair.py's measurement (its `Bench`, its figures, its report),
run in the page with `lostcities.fair.sodium.SodiumGroup` stood in for by the page's group:

- libsodium: `webui.browser.online.sodium_group.JsSodiumGroup` over libsodium-wrappers-sumo, loaded
  by `window.lcOnlineLibraries()` as the app loads it for online play;

Prints, per setting: per round and seat the time to shuffle and deal (budget 300 ms, 400 with
the options), the audit, the bytes each seat sent; the bytes on the wire per round, the move
latency p50/p95 of the protocol work (a move and everything it makes the other page and then
this one do: budget 50 ms), the time to resume from a save; the cost of one multiplication,
raw in JavaScript and through the Python bridge; and a combination of 100 terms (the proofs'
long sums), in one call through the bridge against 100 multiplications and 99 additions each
called from Python. Asserts nothing.

With --online, the app's own online mode instead: two pages (two browser contexts) on the
loopback broker, a room created on one and joined from the other, a whole match played by
clicks (e2e/onlinekit.py's chooser) through the pages' real seats (webui/online/seat.py). Each
page's FairPeer is timed from inside its own interpreter (as bench_fair times it: the shuffle
steps and the keys that deal, the audits apart), and each page counts what it sends. Prints
per page and round the shuffle+deal and audit time, the bytes per round on the wire (fair
messages, and the pages' control messages; against the host-authority wire measured before it
was replaced), and the move latency: from the click to the moment both screens show the move
(a draw from the deck waits for the other page's key), p50/p95 against the 50 ms budget; and
each page's longest main-thread task and total blocking time from the room's opening to the
match's end, shuffles included (the Long Tasks API; budget 200 ms), with the longest script of
a long frame meanwhile (Long Animation Frames: what invoked it, from which file).

    .venv/bin/python scripts/bench_fair_browser.py [--matches 2] [--plain]
    .venv/bin/python scripts/bench_fair_browser.py --online [--plain]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

import bench_fair  # noqa: E402  (scripts/bench_fair.py)
from page_python import install, run  # noqa: E402
from site_browser import (  # noqa: E402
    LONG_TASKS, ROOT, blocking, chromium_options, longest_script, served_site,
)

from lostcities import Options  # noqa: E402

# One multiplication, raw in JavaScript, per library (window[name] for each name), in
# microseconds: 15 batches of each, the libraries taking turns so that both see the same load;
# the fastest batch (the least disturbed) and the median.
RAW_MULTS = '''(names) => {
  const p = window.sodium.crypto_core_ristretto255_from_hash(new Uint8Array(64).fill(3));
  const s = window.sodium.crypto_core_ristretto255_scalar_reduce(new Uint8Array(64).fill(5));
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let b = 0; b < 15; b++) {
    for (const name of names) {
      const mult = window[name].crypto_scalarmult_ristretto255, start = performance.now();
      for (let i = 0; i < 10; i++) mult(s, p);
      times[name].push((performance.now() - start) * 100);
    }
  }
  return Object.fromEntries(names.map((name) => {
    const t = times[name].sort((a, b) => a - b);
    return [name, [t[0], t[7]]];
  }));
}'''

# In the page, after GROUP_CLASS, BENCH_SOURCE, OPTIONS and MATCHES are set: bench_fair's
# source with its group replaced by GROUP_CLASS, run on one setting; dicts keyed by
# (round, seat) come back as [round, seat, value] lists. The page's trimmed standard library
# has no argparse or statistics, which bench_fair uses only in main() and report(): natively.
PAGE_BENCH = '''
import sys, types
from lostcities import Options
stand_in = types.ModuleType("lostcities.fair.sodium")
stand_in.SodiumGroup = GROUP_CLASS
sys.modules["lostcities.fair.sodium"] = stand_in
for name in ("argparse", "statistics"):
    sys.modules.setdefault(name, types.ModuleType(name))
bench = {"__name__": "bench_fair_in_page", "__file__": "/bench/scripts/bench_fair.py"}
exec(BENCH_SOURCE, bench)
del sys.modules["lostcities.fair.sodium"]
found = bench["run"](Options.from_json(OPTIONS), MATCHES)
mult_us, valid_us = bench["group_costs"]()
result = {"mult_us": mult_us, "valid_us": valid_us,
          "found": {k: [[*key, v] for key, v in found[k].items()] if isinstance(found[k], dict)
                    else found[k] for k in found}}
'''

# In the page, after GROUP_CLASS is set: a combination of COMBINE_TERMS terms, in one call
# (JsSodiumGroup.combine: one crossing of the bridge) and as the multiplications and additions
# called one by one from Python; 9 of each, taking turns, in ms: [fastest, median] of each, and
# the same sum raw in JavaScript (window.lcRistrettoCombine called directly, no Python).
COMBINE = '''
import time
import js
from pyodide.ffi import to_js
group = GROUP_CLASS()
scalars = [group.scalar(bytes([i + 1, 7]) * 32) for i in range(COMBINE_TERMS)]
points = [group.point(bytes([i, 3]) * 32) for i in range(COMBINE_TERMS)]

def one_call():
    return group.combine(scalars, points)

def one_by_one():
    total = group.mult(scalars[0], points[0])
    for s, p in zip(scalars[1:], points[1:]):
        total = group.add(total, group.mult(s, p))
    return total

raw_args = (group._sodium, to_js(b"".join(scalars)), to_js(b"".join(points)))

def raw():
    return js.lcRistrettoCombine(*raw_args)

assert one_call() == one_by_one() == bytes(raw().to_bytes())
times = {"one_call": [], "one_by_one": [], "raw": []}
for _ in range(9):
    for name, call in (("one_call", one_call), ("one_by_one", one_by_one), ("raw", raw)):
        start = time.perf_counter()
        call()
        times[name].append((time.perf_counter() - start) * 1000)
result = {name: [min(t), sorted(t)[len(t) // 2]] for name, t in times.items()}
'''
COMBINE_TERMS = 100

def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (field 3 onwards)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2:].split()


def renderer_cpu_seconds() -> float:
    """CPU time (user + system) of this process's Chromium renderers so far (Linux /proc)."""
    return sum(renderer_cpu().values())


def renderer_cpu() -> dict[int, float]:
    """CPU time (user + system) of each of this process's Chromium renderers so far."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    todo, found, tick = [os.getpid()], {}, os.sysconf("SC_CLK_TCK")
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                fields = _stat(pid)
                found[pid] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError, IndexError):
            continue
    return found


def measure(page: Page, group: str, options: Options, matches: int) -> dict[str, Any]:
    """bench_fair.run in the page with `group`; its figures as bench_fair.report takes them."""
    source = (ROOT / "scripts" / "bench_fair.py").read_text(encoding="utf-8")
    out = run(page, f"GROUP_CLASS = {group}\nBENCH_SOURCE = {source!r}\n"
                    f"OPTIONS = {options.to_json()!r}\nMATCHES = {matches}\n{PAGE_BENCH}")
    found: dict[str, Any] = {}
    for name, value in out["found"].items():
        if name in ("latencies", "restores"):
            found[name] = value
        else:
            found[name] = {(r, s): [tuple(v) if isinstance(v, list) else v for v in values]
                           for r, s, values in value}
    out["found"] = found
    return out


# ---- --online: the app's two pages on the loopback broker ----------------------------------

HOST_AUTHORITY_KB = 309.0
"""The host-authority wire, a round of a plain 3-round match played by clicks (bench_online.py
--rounds 3 at d59efb0, 2026-12-02, before the fair seats replaced it: docs/online.md)."""

# Runs in each page's interpreter (through RUNNER): times the work of every FairPeer call of the
# page's seat as bench_fair.Bench._call does, by round: shuffle+deal apart from the audits. A
# message's work, or the start's, goes a piece a task (check or begin, then work): its pieces
# are summed, and counted once the work is done.
PAGE_TIMERS = '''
import time
from collections import defaultdict
from lostcities.fair.peer import FairPeer
from lostcities.fair.table import Table

STATS = {"setup": defaultdict(float), "audit": defaultdict(float)}
_in_audit = [0.0]
_audit = Table._audit

def _timed_audit(self, scope):
    start = time.perf_counter()
    try:
        return _audit(self, scope)
    finally:
        _in_audit[0] += time.perf_counter() - start

Table._audit = _timed_audit

def _round(peer):
    st = peer.state
    return 1 if st is None else st.round + (st.phase in ("round-end", "match-end"))

_jobs = {}

def _opened(self, name, args):
    """What a call's work is measured against: its start."""
    return {"name": name, "args": args, "spent": 0.0, "audit": _in_audit[0],
            "round": _round(self), "hand": self.table.visible_known(),
            "sent": len(self.sent_after(0))}

def _count(self, job):
    """The call's work is done: its time, by round, as shuffle+deal or audit."""
    name, args = job["name"], job["args"]
    out = self.sent_after(job["sent"])
    audit = _in_audit[0] - job["audit"]
    if audit:
        STATS["audit"][job["round"]] += audit * 1000
    dealing = (name == "start" or any(\'"shuffle"\' in m for m in out)
               or (name == "receive" and \'"shuffle"\' in str(args[0]))
               or (name == "act" and type(args[0]).__name__ == "NextRound")
               or (not job["hand"] and self.table.visible_known()))
    if dealing:
        STATS["setup"][_round(self)] += (job["spent"] - audit) * 1000

def _timed(call, name):
    def timed(self, *args):
        job = _opened(self, name, args)
        start = time.perf_counter()
        try:
            return call(self, *args)
        finally:
            job["spent"] += time.perf_counter() - start
            if self.busy:
                _jobs[id(self)] = job
            else:
                _count(self, job)
    return timed

_work = FairPeer.work

def _timed_work(self):
    start = time.perf_counter()
    try:
        return _work(self)
    finally:
        job = _jobs.get(id(self))
        if job is not None:
            job["spent"] += time.perf_counter() - start
            if not self.busy:
                del _jobs[id(self)]
                _count(self, job)

FairPeer.begin = _timed(FairPeer.begin, "start")
FairPeer.check = _timed(FairPeer.check, "receive")
FairPeer.act = _timed(FairPeer.act, "act")
FairPeer.work = _timed_work
result = True
'''

STATS = "result = {k: {str(r): ms for r, ms in v.items()} for k, v in STATS.items()}"

# In each page: the bytes it sends, by kind (a fair message, a ping, another control message);
# the time of the last click and of each position its screen shows first ([data-sync]).
PAGE_PROBES = """
(() => {
  const clock = () => performance.timeOrigin + performance.now();
  window.__lcBytes = {fair: 0, ping: 0, control: 0};
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    if (typeof data === "string") {
      const kind = data.includes('"fair":') ? "fair" : data.includes('"ping"') ? "ping"
        : "control";
      window.__lcBytes[kind] += new Blob([data]).size;
    }
    return send.call(this, data);
  };
  window.__lcClickAt = 0;
  addEventListener("click", () => { window.__lcClickAt = clock(); }, true);
  window.__lcShownAt = {};
  let shown;
  addEventListener("DOMContentLoaded", () => new MutationObserver(() => {
    const mark = document.querySelector("[data-sync]")?.dataset.sync;
    if (mark !== undefined && mark !== shown) window.__lcShownAt[shown = mark] = clock();
  }).observe(document.body, {subtree: true, childList: true, attributes: true}));
})();
"""


def play_online(browser: Any, url: str, options: Options) -> dict[str, Any]:
    """One match of the app's online mode between two pages; the figures of each page."""
    sys.path.insert(0, str(ROOT / "e2e"))
    from onlinekit import ALL_OPTIONS, Chooser, wait_synced  # noqa: PLC0415

    pages: list[Page] = []
    for _ in range(2):
        context = browser.new_context()
        context.set_default_timeout(1_800_000)  # a hang guard
        page = context.new_page()
        page.add_init_script(PAGE_PROBES)
        page.add_init_script(LONG_TASKS)
        page.goto(url)
        page.wait_for_selector("html[data-ready=true]", state="attached")
        install(page)
        run(page, PAGE_TIMERS)
        pages.append(page)
    host, guest = pages
    started = [float(page.evaluate("performance.now()")) for page in pages]
    ticked = [o for o in ALL_OPTIONS if options.to_json().get(o.replace("-", "_"))]
    host.locator('[data-option="mode"][value="online"]').check()
    host.locator('[data-option="rounds"]').select_option(str(options.rounds))
    for option in ticked:
        host.check(f'[data-option="{option}"]')
    host.click('[data-action="start"]')
    host.click('[data-action="create-room"]')
    code = host.locator("[data-room-code]").first.get_attribute("data-room-code")
    guest.locator('[data-option="mode"][value="online"]').check()
    guest.click('[data-action="start"]')
    guest.fill('[data-field="room-code"]', str(code))
    guest.click('[data-action="join-room"]')
    chooser = Chooser((host, guest))
    chooser.mark = wait_synced(host, guest)
    latencies, missed, kinds = [], 0, []
    while True:
        found = chooser.actor()
        if found is None:
            break
        before = chooser.moves.copy()
        chooser.step()
        actor = found[0]
        clicked = float(actor.evaluate("() => window.__lcClickAt"))
        shown = [p.evaluate("(m) => window.__lcShownAt[m] ?? null", chooser.mark) for p in pages]
        if None in shown:
            missed += 1  # a position its screen showed before (an undo back to it)
        else:
            latencies.append(max(shown) - clicked)
            kinds.append(next(iter(chooser.moves - before), "?"))
    spans = [[[start, float(page.evaluate("performance.now()"))]]
             for page, start in zip(pages, started, strict=True)]
    tasks = [(*blocking(page.evaluate("window.__lcLongTasks"), span),
              longest_script(page.evaluate("window.__lcLongScripts"), span))
             for page, span in zip(pages, spans, strict=True)]
    return {"timers": [run(page, STATS) for page in pages], "tasks": tasks,
            "bytes": [page.evaluate("() => window.__lcBytes") for page in pages],
            "latencies": latencies, "kinds": kinds, "moves": sum(chooser.moves.values()),
            "missed": missed}


def report_online(title: str, options: Options, out: dict[str, Any], share: float) -> None:
    """The figures of `play_online`."""
    print(f"\n{title}: {json.dumps(options.to_json())}, {out['moves']} clicks of moves"
          f" ({out['missed']} not timed)")
    print(f"{'round':>5} {'page':>6} {'shuffle+deal ms':>16} {'audit ms':>9}")
    worst = 0.0
    for r in range(1, options.rounds + 1):
        for name, timers in zip(("host", "guest"), out["timers"], strict=True):
            deal, audit = timers["setup"].get(str(r), 0.0), timers["audit"].get(str(r), 0.0)
            worst = max(worst, deal)
            print(f"{r:>5} {name:>6} {deal:>16.1f} {audit:>9.1f}")
    for name, (longest, blocked, script) in zip(("host", "guest"), out["tasks"], strict=True):
        print(f"{name}'s page from the room's opening to the match's end (shuffles, audits and"
              f" moves): longest task {longest:.0f} ms (budget 200), total blocking time"
              f" {blocked:.0f} ms; the longest script of a long frame: {script}")
    sent = {k: sum(b[k] for b in out["bytes"]) for k in ("fair", "control", "ping")}
    per_round = (sent["fair"] + sent["control"]) / options.rounds / 1000
    budget = bench_fair.deal_budget(options)
    print(f"shuffle+deal, worst page and round: {worst:.0f} ms ({worst / budget:.2f} of the"
          f" {budget:.0f} ms budget); with a whole CPU (a page's renderer had {share:.0%} of"
          f" one), an estimate: {worst * min(share, 1.0):.0f} ms")
    print(f"bytes on the wire a round (both pages, the heartbeat left out): {per_round:.1f} KB"
          f" (fair messages {sent['fair'] / options.rounds / 1000:.1f} KB, control"
          f" {sent['control'] / options.rounds / 1000:.2f} KB); heartbeat {sent['ping']} bytes"
          " in all")
    if options == Options(rounds=3):  # measured for the plain match only
        print(f"  against the host-authority wire ({HOST_AUTHORITY_KB:.0f} KB a round): "
              f"{per_round - HOST_AUTHORITY_KB:+.1f} KB a round "
              f"({per_round / HOST_AUTHORITY_KB:.2f}x)")
    lat = out["latencies"]
    p50, p95 = bench_fair.pct(lat, 0.5), bench_fair.pct(lat, 0.95)
    print(f"move latency, click to both screens showing it: p50 {p50:.1f} ms, p95 {p95:.1f} ms"
          f" over {len(lat)} moves ({p95 / bench_fair.BUDGET_MOVE_MS:.2f} of the"
          f" {bench_fair.BUDGET_MOVE_MS:.0f} ms budget); with a whole CPU, an estimate: p95"
          f" {p95 * min(share, 1.0):.1f} ms")
    by_kind: dict[str, list[float]] = {}
    for kind, value in zip(out["kinds"], lat, strict=True):
        by_kind.setdefault(kind, []).append(value)
    print("  by kind, p50/p95/max ms (count): " + "; ".join(
        f"{kind} {bench_fair.pct(v, 0.5):.0f}/{bench_fair.pct(v, 0.95):.0f}/{max(v):.0f} "
        f"({len(v)})" for kind, v in sorted(by_kind.items())))


def main_online(settings: list[tuple[str, Options]]) -> None:
    """--online: the app's online mode, two pages on the loopback broker."""
    with ExitStack() as stack:
        site = stack.enter_context(served_site())
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(**chromium_options(pw))
        stack.callback(browser.close)
        print("load average at the start (1, 5, 15 min): "
              + " ".join(f"{x:.1f}" for x in os.getloadavg()), flush=True)
        for name, options in settings:
            cpu, wall = renderer_cpu(), time.perf_counter()
            out = play_online(browser, site.url, options)
            wall = time.perf_counter() - wall
            shares = [(t - cpu.get(pid, 0.0)) / wall for pid, t in renderer_cpu().items()]
            busy = sorted(shares)[-2:]  # the two pages' renderers
            report_online(name, options, out, sum(busy) / len(busy))
            print("load average (1, 5, 15 min): "
                  + " ".join(f"{x:.1f}" for x in os.getloadavg()), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2, help="matches per setting (2)")
    parser.add_argument("--plain", action="store_true", help="only the plain 3-round match")
    parser.add_argument("--online", action="store_true",
                        help="the app's online mode: two pages on the loopback broker")
    args = parser.parse_args()
    settings = [("plain", Options(rounds=3))]
    if not args.plain:
        settings.append(("every option", Options(rounds=3, sixth_colour=True, jobs=True,
                                                 skills=True, objectives=True, mixups=True)))
    if args.online:
        main_online(settings)
        return
    with ExitStack() as stack:
        site = stack.enter_context(served_site())
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(**chromium_options(pw))
        stack.callback(browser.close)
        page = browser.new_page(service_workers="block")
        page.set_default_timeout(600_000)  # a hang guard
        page.goto(site.url)
        page.wait_for_selector("html[data-ready=true]", state="attached")
        install(page)
        page.evaluate("() => window.lcOnlineLibraries()")
        run(page, "from webui.browser.online.sodium_group import JsSodiumGroup")
        groups = [("libsodium (libsodium-wrappers-sumo 0.8.4, wasm)", "JsSodiumGroup",
                   "sodium", settings, args.matches)]
        print("load average at the start (1, 5, 15 min): "
              + " ".join(f"{x:.1f}" for x in os.getloadavg()))
        raw = page.evaluate(RAW_MULTS, [js_name for _, _, js_name, _, _ in groups])
        for title, group, js_name, group_settings, matches in groups:
            fastest, median = raw[js_name]
            print(f"\n== {title}: a multiplication in JavaScript {fastest:.0f} us (fastest "
                  f"batch), {median:.0f} us (median)", flush=True)
            combined = run(page, f"GROUP_CLASS = {group}\nCOMBINE_TERMS = {COMBINE_TERMS}\n"
                                 f"{COMBINE}")
            (one, one_med), (each, each_med) = combined["one_call"], combined["one_by_one"]
            print(f"a combination of {COMBINE_TERMS} terms: one call {one:.1f} ms (fastest), "
                  f"{one_med:.1f} ms (median); {COMBINE_TERMS} multiplications and "
                  f"{COMBINE_TERMS - 1} additions called from Python {each:.1f} ms, "
                  f"{each_med:.1f} ms ({each / one:.2f}x the one call, fastest against "
                  f"fastest); raw in JavaScript {combined['raw'][0]:.1f} ms, "
                  f"{combined['raw'][1]:.1f} ms", flush=True)
            for name, options in group_settings:
                cpu, wall = renderer_cpu_seconds(), time.perf_counter()
                out = measure(page, group, options, matches)
                share = (renderer_cpu_seconds() - cpu) / (time.perf_counter() - wall)
                print(f"through Python: {out['mult_us']:.0f} us a multiplication, "
                      f"{out['valid_us']:.0f} us a point check")
                bench_fair.report(f"{name}, {matches} match(es)", options, out["found"],
                                  out["mult_us"])
                worst = max(max(v) for v in out["found"]["setup"].values())
                p95 = bench_fair.pct(out["found"]["latencies"], 0.95)
                print(f"the page's renderer had the CPU {share:.0%} of the time (its CPU time / "
                      f"wall time); with a whole CPU, an estimate: the slowest shuffle+deal of "
                      f"a seat {worst * min(share, 1.0):.0f} ms, move latency p95 "
                      f"{p95 * min(share, 1.0):.1f} ms")
                print("load average (1, 5, 15 min): "
                      + " ".join(f"{x:.1f}" for x in os.getloadavg()), flush=True)


if __name__ == "__main__":
    main()
