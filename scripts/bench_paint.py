"""Shell paint: how soon the page shows its title and loading line, cold and warm.

    .venv/bin/python scripts/bench_paint.py [--runs 9] [--variants shipped,text,...]
                                            [--baseline REV ...] [--keep-worker]

Builds the site (scripts/build.py, served by scripts/site_browser.py), once per variant, each
variant on its own server (its own origin, so its own service worker and caches), and loads
them alternately in one headless Chromium, --runs times each:

- cold: a fresh (incognito) context: nothing cached;
- warm: one persistent profile in which the variant's service worker is installed and controls
  the page (registered by the bench if the page does not do it itself), so the page comes
  from the worker's cache. Before each warm load the bench stops the worker (as after a while
  away from the page: the browser starts it again for the navigation), unless --keep-worker.

Each load is measured in-page from navigation start: first-paint and first-contentful-paint
(the paint timing API), when the setup form's heading painted (Element Timing: the bench
marks it in every build it serves, the baseline's too), and from the navigation timing entry:
response start (when the document's first byte came: from the network, or from the worker),
DOM interactive (parsing done) and DOMContentLoaded (the deferred and module scripts have
run). A load ends once the setup form has painted (at first-contentful-paint for the variants
that never show it); the page is then closed (Python's boot is not waited for).

Variants (--variants, comma-separated; the default is every one): edits of the built site, to
find what holds the first frame back. Only "shipped" is the real app:

  shipped      the site as built from this tree
  text         index.html is one line of text (no stylesheet, no script): the floor
  no-css       without the app.css <link>
  no-classic   without any deferred classic <script src> (config, the worker's registration,
               preboot)
  no-core      without PyScript's core.js <script type="module">
  no-early     without boot/pyodide-early.mjs's <script> (Pyodide starts when PyScript asks)
  no-scripts   without any <script> at all (the <style> and app.css stay)
  core-late    PyScript's core.js inserted after the first frame (two requestAnimationFrame)
  eager-libs   PeerJS and the QR code library as deferred <script>s in the head again
  page-bg      app.css's four background gradients on the body again (not a fixed layer)
  unfixed      eager-libs and page-bg together: the shell as it was before these two changes
  plain-bg     no background gradients at all
  one-font     every element in the default sans-serif (no font fallback look-ups)
  no-form      the setup form not displayed (the shell alone: title and loading line)
  no-shadows   without the setup form's box-shadow and the title's text-shadow

--baseline REV (repeatable) adds git revision REV's build as one more variant, unchanged.
Prints medians (and each run's first-contentful-paint) per variant; asserts nothing. Quote
the load average with any figure (it is printed at the start and the end).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_load import machine  # noqa: E402
from site_browser import build_revision, chromium_options, served_site  # noqa: E402

TEXT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lost Cities</title></head>
<body><h1>Lost Cities</h1></body></html>
"""
# app.css's background (on body::before): two soft glows over repeating rings.
BACKGROUND = ("radial-gradient(ellipse at 15% 0%, rgba(226, 179, 91, 0.13), transparent 55%),"
              " radial-gradient(ellipse at 100% 100%, rgba(120, 60, 20, 0.28), transparent 60%),"
              " repeating-radial-gradient(circle at 75% 20%, transparent 0 26px,"
              " rgba(226, 179, 91, 0.05) 26px 27px),"
              " repeating-radial-gradient(circle at 10% 85%, transparent 0 34px,"
              " rgba(226, 179, 91, 0.04) 34px 35px)")
# Says "lc:fcp" on the console at first-contentful-paint, and "lc:setup" when the setup form's
# heading has painted (Element Timing: SETUP_MARK, added to every build the bench serves): the
# bench waits for these messages rather than polling the page (Playwright's polling scripts
# would compete with the paint).
OBSERVE = """new PerformanceObserver((list) => {
  if (list.getEntriesByName("first-contentful-paint").length) console.debug("lc:fcp");
}).observe({type: "paint", buffered: true});
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.identifier !== "setup") continue;
    window.__lcSetupPainted = entry.renderTime || entry.loadTime;
    console.debug("lc:setup");
  }
}).observe({type: "element", buffered: true});"""
SETUP_HEADING = '<h2 data-i18n="setup.heading"'
SETUP_MARK = SETUP_HEADING + ' elementtiming="setup"'
FIGURES = """() => {
  const paint = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const nav = performance.getEntriesByType("navigation")[0];
  return {fp: paint("first-paint"), fcp: paint("first-contentful-paint"),
          setup: window.__lcSetupPainted ?? null,
          response: nav.responseStart, interactive: nav.domInteractive,
          dcl: nav.domContentLoadedEventEnd || null,
          worker: nav.workerStart > 0 ? nav.responseStart - nav.workerStart : null};
}"""
REGISTER = """async () => {
  await navigator.serviceWorker.register("sw.js", {scope: "./"});
  await navigator.serviceWorker.ready;
}"""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
COLUMNS = (("fp", "first paint"), ("fcp", "contentful"), ("setup", "setup form"),
           ("response", "response"),
           ("interactive", "interactive"), ("dcl", "DCL"))


def replace(path: str, pattern: str, new: str) -> Callable[[Path], None]:
    """A variant: the built file `path` with every match of the regular expression replaced."""

    def prepare(site: Path) -> None:
        file = site / path
        text, count = re.subn(pattern, new, file.read_text())
        if not count:
            raise SystemExit(f"variant: nothing in {path} matches {pattern!r}")
        file.write_text(text)

    return prepare


def without(pattern: str) -> Callable[[Path], None]:
    """A variant: the built index.html without every match of the regular expression."""
    return replace("index.html", pattern, "")


def with_style(css: str) -> Callable[[Path], None]:
    """A variant: the built index.html with one more <style> at the end of its head."""
    return replace("index.html", "</head>", f"<style>{css}</style>\n</head>")


def core_late(site: Path) -> None:
    """The core-late variant: a deferred classic script inserts core.js after the first frame."""
    (site / "static" / "core-late.js").write_text(
        "requestAnimationFrame(() => requestAnimationFrame(() => {\n"
        "  const script = document.createElement('script');\n"
        "  script.type = 'module';\n"
        "  script.src = './static/vendor/pyscript/core.js';\n"
        "  document.head.append(script);\n"
        "}));\n")
    replace("index.html", r'<script type="module" src="[^"]*/core\.js"></script>',
            '<script defer src="./static/core-late.js"></script>')(site)


def text_page(site: Path) -> None:
    """The text variant: index.html is one heading."""
    (site / "index.html").write_text(TEXT_PAGE)


# The shell before lazy online libraries and the fixed background layer (bench variants).
EAGER_LIBS = replace("index.html", r'(<script defer src="\./static/config\.js"></script>)',
                    r'<script defer src="./static/vendor/peerjs/peerjs.min.js"></script>'
                    r'\1<script defer src="./static/vendor/qrcode/qrcode.js"></script>')
PAGE_BG = with_style(f"body::before {{ content: none; }} body {{ background: {BACKGROUND},"
                     " var(--bg); }")


def unfixed(site: Path) -> None:
    """The unfixed variant: the online libraries eager and the background on the body."""
    EAGER_LIBS(site)
    PAGE_BG(site)


VARIANTS: dict[str, Callable[[Path], None] | None] = {
    "shipped": None,
    "text": text_page,
    "no-css": without(r'<link rel="stylesheet" href="\./static/app\.css">'),
    "no-classic": without(r'<script defer src="[^"]*"></script>'),
    "no-core": without(r'<script type="module" src="[^"]*/core\.js"></script>'),
    "no-early": without(r'<script type="module" async src="[^"]*pyodide-early\.mjs"></script>'),
    "no-scripts": without(r'(?s)<script\b[^>]*>.*?</script>'),
    "core-late": core_late,
    "eager-libs": EAGER_LIBS,
    "page-bg": PAGE_BG,
    "unfixed": unfixed,
    "plain-bg": with_style("body::before { content: none; }"),
    "one-font": with_style("* { font-family: sans-serif !important; }"),
    "no-form": with_style("#setup-form { display: none; }"),
    "no-shadows": with_style(".setup { box-shadow: none; } h1 { text-shadow: none !important; }"),
}
NO_SETUP = {"text", "no-form", "no-classic", "no-scripts"}
"""Variants that never show the setup form (a load of them ends at first-contentful-paint)."""


def marked(prepare: Callable[[Path], None] | None) -> Callable[[Path], None]:
    """A build's preparation, then the setup form's heading marked for Element Timing."""

    def mark(site: Path) -> None:
        if prepare is not None:
            prepare(site)
        page = site / "index.html"
        page.write_text(page.read_text().replace(SETUP_HEADING, SETUP_MARK))

    return mark


def cold_load(browser: Browser, url: str, end: str) -> dict[str, float | None]:
    """One first visit in a fresh context: the figures once `end` is said on the console."""
    context = browser.new_context()
    context.add_init_script(OBSERVE)
    try:
        page = context.new_page()
        with page.expect_console_message(lambda m: m.text == end, timeout=60_000):
            page.goto(url, wait_until="commit")
        figures: dict[str, float | None] = page.evaluate(FIGURES)
    finally:
        context.close()
    return figures


def install_worker(context: BrowserContext, url: str) -> None:
    """Open url in the persistent context until its service worker controls the page."""
    page = context.new_page()
    page.goto(url)
    if not page.evaluate(CONTROLLED):
        page.evaluate(REGISTER)
        page.wait_for_function(CONTROLLED, timeout=300_000)
    page.close()


def warm_load(context: BrowserContext, url: str, end: str,
              keep_worker: bool) -> dict[str, float | None]:
    """One visit in the persistent context (service worker installed), until `end`."""
    page = context.new_page()
    if not keep_worker:
        session = context.new_cdp_session(page)
        session.send("ServiceWorker.enable")
        session.send("ServiceWorker.stopAllWorkers")
        session.detach()
    with page.expect_console_message(lambda m: m.text == end, timeout=60_000):
        page.goto(url, wait_until="commit")
    figures: dict[str, float | None] = page.evaluate(FIGURES)
    if figures["worker"] is None:
        raise SystemExit(f"warm load of {url} was not answered by its service worker")
    page.close()
    return figures


def median(values: list[float | None]) -> str:
    """The median of the values that exist, as text ('-' for none)."""
    present = [v for v in values if v is not None]
    return f"{statistics.median(present):.0f}" if present else "-"


def report(label: str, results: dict[str, list[dict[str, float | None]]]) -> None:
    """Medians per variant, and each run's first-contentful-paint."""
    print(f"\n{label}: medians (ms from navigation start)")
    print(f"{'variant':<14}" + "".join(f"{title:>13}" for _, title in COLUMNS)
          + f"{'worker':>9}")
    for name, loads in results.items():
        print(f"{name:<14}" + "".join(f"{median([r[key] for r in loads]):>13}"
                                      for key, _ in COLUMNS)
              + f"{median([r['worker'] for r in loads]):>9}")
    for name, loads in results.items():
        runs = ", ".join(f"{r['fcp']:.0f}" for r in loads if r["fcp"] is not None)
        print(f"  {name} contentful: {runs}")


def main() -> int:
    """Load the variants alternately and print their paint figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="loads of each variant (default 9)")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="comma-separated, of: " + ", ".join(VARIANTS))
    parser.add_argument("--baseline", metavar="REV", action="append", default=[],
                        help="also measure this git revision (repeatable)")
    parser.add_argument("--keep-worker", action="store_true",
                        help="do not stop the service worker before a warm load")
    args = parser.parse_args()
    chosen = [name for name in args.variants.split(",") if name]
    unknown = [name for name in chosen if name not in VARIANTS]
    if unknown or not chosen:
        parser.error(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    builds = {name: VARIANTS[name] for name in chosen}
    for rev in args.baseline:
        builds[rev] = build_revision(rev)
    print(f"machine: {machine()}", flush=True)
    cold: dict[str, list[dict[str, float | None]]] = {name: [] for name in builds}
    warm: dict[str, list[dict[str, float | None]]] = {name: [] for name in builds}
    with ExitStack() as stack:
        urls = {name: stack.enter_context(served_site(marked(prepare))).url
                for name, prepare in builds.items()}
        pw = stack.enter_context(sync_playwright())
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        browser = pw.chromium.launch(**chromium_options(pw))
        stack.callback(browser.close)
        context = pw.chromium.launch_persistent_context(str(tmp / "profile"),
                                                        **chromium_options(pw))
        context.add_init_script(OBSERVE)
        stack.callback(context.close)
        ends = {name: "lc:fcp" if name in NO_SETUP else "lc:setup" for name in builds}
        for name, url in urls.items():
            install_worker(context, url)
            warm_load(context, url, ends[name], args.keep_worker)  # primes the caches
        names = list(builds)
        for run in range(args.runs):
            order = names[run % len(names):] + names[:run % len(names)]
            for name in order:
                cold[name].append(cold_load(browser, urls[name], ends[name]))
                warm[name].append(warm_load(context, urls[name], ends[name], args.keep_worker))
            print(f"run {run + 1}/{args.runs}: " + ", ".join(
                f"{name} {cold[name][-1]['fcp']:.0f}/{warm[name][-1]['fcp']:.0f}"
                for name in names), flush=True)
    print(f"machine at the end: {machine()}")
    report(f"cold (fresh context), {args.runs} runs", cold)
    report(f"warm (service worker {'kept running' if args.keep_worker else 'stopped'}"
           f" before each load), {args.runs} runs", warm)
    return 0


if __name__ == "__main__":
    sys.exit(main())
