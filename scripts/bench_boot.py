"""Benchmark: how long the page takes to paint its loading state and to become ready.

    .venv/bin/python scripts/bench_boot.py [--runs 5]

Builds static/vendor, starts scripts/serve.py on free ports, and opens the app --runs times in
headless Chromium (Debian's unless Playwright's own is installed), each time in a fresh
context (cold HTTP cache). Prints each figure and the median, in seconds. Figures depend on
the machine's load: compare runs made on the same idle machine.
"""

from __future__ import annotations

import argparse
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description="Boot-time benchmark of the page.")
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True)
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "serve.py"), "--quiet",
         "--port", str(free_port()), "--broker-port", str(free_port())],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert server.stdout is not None
        match = re.search(r"serving (\S+)", server.stdout.readline())
        if not match:
            raise SystemExit("the dev server did not start")
        url = match.group(1)
        paint: list[float] = []
        ready: list[float] = []
        with sync_playwright() as pw:
            options: dict[str, object] = {"args": ARGS}
            if not Path(pw.chromium.executable_path).exists():
                options["executable_path"] = shutil.which("chromium")
            browser = pw.chromium.launch(**options)  # type: ignore[arg-type]
            for _ in range(runs):
                context = browser.new_context()
                page = context.new_page()
                start = time.perf_counter()
                page.goto(url, wait_until="commit")
                page.wait_for_selector("#app h1")
                paint.append(time.perf_counter() - start)
                page.wait_for_function(
                    "document.documentElement.dataset.ready === 'true'", timeout=120_000
                )
                ready.append(time.perf_counter() - start)
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()
    for name, figures in (("loading state painted", paint), ("data-ready", ready)):
        shown = ", ".join(f"{x:.2f}" for x in figures)
        print(f"{name:>22}: median {statistics.median(figures):.2f} s  ({shown})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
