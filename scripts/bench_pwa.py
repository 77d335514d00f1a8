"""Benchmark the offline PWA: first visit, service worker install, boots from its cache.

    .venv/bin/python scripts/bench_pwa.py [--runs 3]

Builds the deployable site into a temporary folder, serves it with netlify.toml's headers
(scripts/serve.py --netlify), and for each run uses a fresh persistent Chromium profile:
first visit (navigation to html[data-ready=true]), then until the service worker controls the
page, then a reload from the cache with the network on, then one with the network off and the
server stopped. Prints the medians in seconds and the precache size. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "() => document.documentElement.dataset.ready === 'true'"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"


def start_server(site: Path) -> tuple[subprocess.Popen[str], str]:
    """scripts/serve.py --netlify on a free port; (process, URL)."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "serve.py"), "--quiet", "--port", "0",
         "--root", str(site), "--no-broker", "--netlify"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    match = re.search(r"serving (http://\S+/)", proc.stdout.readline())
    if not match:
        proc.terminate()
        raise SystemExit("the server did not start")
    return proc, match.group(1)


def timed(page: Page, action: str, url: str = "") -> float:
    """Seconds from a navigation (goto url, or reload) to html[data-ready=true]."""
    start = time.perf_counter()
    if action == "goto":
        page.goto(url)
    else:
        page.reload()
    page.wait_for_function(READY, timeout=180_000)
    return time.perf_counter() - start


def one_run(site: Path, profile: Path) -> dict[str, float]:
    """The four timings of one fresh profile."""
    proc, url = start_server(site)
    figures = {}
    with sync_playwright() as playwright:
        chromium = shutil.which("chromium")
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, args=ARGS, headless=True)
        page = context.pages[0] if context.pages else context.new_page()
        figures["first visit"] = timed(page, "goto", url)
        start = time.perf_counter()
        page.wait_for_function(CONTROLLED, timeout=180_000)
        figures["then until installed"] = time.perf_counter() - start
        figures["reload, cached"] = timed(page, "reload")
        proc.terminate()
        proc.wait()
        context.set_offline(True)
        figures["reload, offline, no server"] = timed(page, "reload")
        context.close()
    return figures


def main() -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py"), "--dist", str(site)],
                       check=True, stdout=subprocess.DEVNULL)
        text = (site / "static" / "vendor" / "precache.js").read_text()
        document = json.loads(text[text.index("{"):text.rindex("}") + 1])
        size = sum(entry["size"] for entry in document["files"])
        print(f"precache {document['version']}: {len(document['files'])} files, "
              f"{size / 1e6:.1f} MB")
        runs = [one_run(site, Path(tmp) / f"profile-{i}") for i in range(args.runs)]
    for name in runs[0]:
        values = [run[name] for run in runs]
        print(f"{name:28s} median {statistics.median(values):6.2f} s   "
              f"({', '.join(f'{v:.2f}' for v in values)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
