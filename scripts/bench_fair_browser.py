"""Fair play, measured in headless Chromium on the app page, with the group the page uses.

Both seats play whole matches in one page, over an in-memory wire, through the page's own
Pyodide: exactly scripts/bench_fair.py's measurement (its `Bench`, its figures, its report),
run in the page with `lostcities.fair.sodium.SodiumGroup` stood in for by the page's group:

- libsodium: `webui.online.sodium_group.JsSodiumGroup` over libsodium-wrappers-sumo, loaded by
  `window.lcOnlineLibraries()` as the app loads it for online play;
- with --noble, for comparison: the same six calls on `@noble/curves` (pure JavaScript, its
  constant-time `multiply`; the item map, once per page, borrows libsodium's: noble has no
  `crypto_core_ed25519_from_uniform`).

Prints, per setting: per round and seat the time to shuffle and deal (budget 300 ms), the
audit, the bytes each seat sent; the bytes on the wire per round, the move latency p50/p95 of
the protocol work (a move and everything it makes the other page and then this one do: budget
50 ms), the time to resume from a save; and the cost of one multiplication, raw in JavaScript
and through the Python bridge. Asserts nothing.

    .venv/bin/python scripts/bench_fair_browser.py [--matches 2] [--plain] [--noble]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

import bench_fair  # noqa: E402  (scripts/bench_fair.py)
from site_browser import ROOT, chromium_options, served_site  # noqa: E402

from lostcities import Options  # noqa: E402

NOBLE_PREFIX = "/__bench_noble/"
NOBLE_DIR = ROOT / "node_modules" / "@noble"
BARE_NOBLE = re.compile(r"""(["'])@noble/(curves|hashes)/""")

# Runs in the page's interpreter (an added <script type="py"> runs in the app's):
# window.lcBenchPython(code) runs `code` in one namespace kept between calls and answers JSON
# {"ok": <the namespace's `result`>} or {"error": <traceback>}.
RUNNER = '''
import json, traceback
import js
from pyodide.ffi import create_proxy

_NS = {}

def _run(code):
    _NS.pop("result", None)
    try:
        exec(code, _NS)
        return json.dumps({"ok": _NS.get("result")})
    except Exception:
        return json.dumps({"error": traceback.format_exc()})

js.window.lcBenchPython = create_proxy(_run)
js.document.documentElement.dataset.lcBenchPython = "ready"
'''

INSTALL = '''(code) => new Promise((resolve) => {
  new MutationObserver((records, observer) => { observer.disconnect(); resolve(); })
    .observe(document.documentElement,
             {attributes: true, attributeFilter: ["data-lc-bench-python"]});
  const script = document.createElement("script");
  script.type = "py";
  script.textContent = code;
  document.body.append(script);
})'''

# window.lcNobleSodium: libsodium's six calls (the names JsSodiumGroup uses) on @noble/curves,
# with libsodium's checks: a point must be canonical, not of small order, in the subgroup.
NOBLE = '''async (prefix) => {
  const {ed25519} = await import(prefix + "curves/ed25519.js");
  const utils = await import(prefix + "curves/utils.js");
  const Point = ed25519.Point, L = Point.Fn.ORDER, Fn = Point.Fn, sodium = window.sodium;
  const number = utils.bytesToNumberLE, bytes = (n) => utils.numberToBytesLE(n, 32);
  const valid = (b) => {
    let p;
    try { p = Point.fromBytes(b); } catch (e) { return null; }
    return p.isSmallOrder() || !p.isTorsionFree() ? null : p;
  };
  window.lcNobleSodium = {
    crypto_core_ed25519_from_uniform: (u) => sodium.crypto_core_ed25519_from_uniform(u),
    crypto_core_ed25519_scalar_reduce: (w) => bytes(number(w) % L),
    crypto_core_ed25519_scalar_mul: (x, y) => bytes(number(x) * number(y) % L),
    crypto_core_ed25519_scalar_invert: (x) => {
      const n = number(x) % L;
      if (!n) throw new Error("invalid reciprocate");
      return bytes(Fn.inv(n));
    },
    crypto_scalarmult_ed25519_noclamp: (x, p) => {
      const point = valid(p), n = (number(x) & ((1n << 255n) - 1n)) % L;
      if (!point || !n) throw new Error("invalid point or scalar is 0");
      const q = point.multiply(n);
      if (q.is0()) throw new Error("invalid point or scalar is 0");
      return q.toBytes();
    },
    crypto_core_ed25519_is_valid_point: (p) => valid(p) !== null,
  };
}'''

# One multiplication, raw in JavaScript, per library (window[name] for each name), in
# microseconds: 15 batches of each, the libraries taking turns so that both see the same load;
# the fastest batch (the least disturbed) and the median.
RAW_MULTS = '''(names) => {
  const p = window.sodium.crypto_core_ed25519_from_uniform(new Uint8Array(32).fill(3));
  const s = window.sodium.crypto_core_ed25519_scalar_reduce(new Uint8Array(64).fill(5));
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let b = 0; b < 15; b++) {
    for (const name of names) {
      const mult = window[name].crypto_scalarmult_ed25519_noclamp, start = performance.now();
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

GROUPS = '''
import js
from webui.online.sodium_group import JsSodiumGroup

class NobleGroup(JsSodiumGroup):
    """The six calls on @noble/curves (window.lcNobleSodium)."""
    name = "ed25519-noble"

    def __init__(self):
        super().__init__(js.lcNobleSodium)
'''


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (field 3 onwards)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2:].split()


def renderer_cpu_seconds() -> float:
    """CPU time (user + system) of this process's Chromium renderers so far (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    todo, total, tick = [os.getpid()], 0.0, os.sysconf("SC_CLK_TCK")
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                fields = _stat(pid)
                total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError, IndexError):
            continue
    return total


def run(page: Page, code: str) -> Any:
    """Run `code` in the page's interpreter; its `result`, or exit with its traceback."""
    answer = json.loads(page.evaluate("(code) => window.lcBenchPython(code)", code))
    if "error" in answer:
        raise SystemExit(f"the page's Python failed:\n{answer['error']}")
    return answer["ok"]


def serve_noble(route: Route) -> None:
    """@noble/curves and @noble/hashes from node_modules, their package imports made paths."""
    path = NOBLE_DIR / route.request.url.split(NOBLE_PREFIX, 1)[1]
    if not path.resolve().is_relative_to(NOBLE_DIR.resolve()) or not path.is_file():
        route.fulfill(status=404)
        return
    text = BARE_NOBLE.sub(lambda m: f"{m.group(1)}{NOBLE_PREFIX}{m.group(2)}/",
                          path.read_text(encoding="utf-8"))
    route.fulfill(status=200, body=text, content_type="text/javascript")


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2, help="matches per setting (2)")
    parser.add_argument("--plain", action="store_true", help="only the plain 3-round match")
    parser.add_argument("--noble", action="store_true",
                        help="also @noble/curves, on the plain match only")
    args = parser.parse_args()
    settings = [("plain", Options(rounds=3))]
    if not args.plain:
        settings.append(("every option", Options(rounds=3, sixth_colour=True, jobs=True,
                                                 skills=True, objectives=True, mixups=True)))
    with ExitStack() as stack:
        site = stack.enter_context(served_site())
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(**chromium_options(pw))
        stack.callback(browser.close)
        page = browser.new_page(service_workers="block")  # so that page.route sees noble
        page.set_default_timeout(1_800_000)  # a hang guard: a noble match takes minutes
        page.route(f"**{NOBLE_PREFIX}**", serve_noble)
        page.goto(site.url)
        page.wait_for_selector("html[data-ready=true]", state="attached")
        page.evaluate(INSTALL, RUNNER)
        page.evaluate("() => window.lcOnlineLibraries()")
        run(page, GROUPS)
        groups = [("libsodium (libsodium-wrappers-sumo 0.8.4, wasm)", "JsSodiumGroup",
                   "sodium", settings, args.matches)]
        if args.noble:
            page.evaluate(NOBLE, NOBLE_PREFIX)
            groups.append(("@noble/curves 2.4.0 (pure JavaScript)", "NobleGroup",
                           "lcNobleSodium", settings[:1], args.matches))
        print("load average at the start (1, 5, 15 min): "
              + " ".join(f"{x:.1f}" for x in os.getloadavg()))
        raw = page.evaluate(RAW_MULTS, [js_name for _, _, js_name, _, _ in groups])
        for title, group, js_name, group_settings, matches in groups:
            fastest, median = raw[js_name]
            print(f"\n== {title}: a multiplication in JavaScript {fastest:.0f} us (fastest "
                  f"batch), {median:.0f} us (median)", flush=True)
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
