"""The built site served locally and Debian's Chromium, for the scripts that drive the app.

Used by scripts/bench_load.py, the other scripts/bench_*.py that drive a page, and
boot/build/record_modules.py (not by the tests, which have their own fixtures in
e2e/conftest.py). `LONG_TASKS` and `blocking` give the benches the main thread's long tasks.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Playwright

ROOT = Path(__file__).resolve().parent.parent
# In a container: no sandbox or GPU, no QUIC, nothing in the background; raw IPs for ICE.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-features=WebRtcHideLocalIpsWithMdns"]
# One line of http.server's request log: '... "GET /path HTTP/1.1" 200 -'.
LOG_LINE = re.compile(r'"GET (\S+) HTTP/[\d.]+" (\d{3}) ')

LONG_TASKS = """(() => {
  window.__lcLongTasks = [];
  window.__lcLongScripts = [];
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) {
      window.__lcLongTasks.push([task.startTime, task.duration]);
    }
  }).observe({type: "longtask", buffered: true});
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      for (const script of frame.scripts) {
        window.__lcLongScripts.push([script.startTime, script.duration, script.invoker,
                                     script.sourceURL.split("/").pop()]);
      }
    }
  }).observe({type: "long-animation-frame", buffered: true});
})();"""
"""An init script: every main-thread task over 50 ms (Long Tasks API) as [start, ms] in
``window.__lcLongTasks``, and the scripts of every animation frame over 50 ms (Long Animation
Frames) as [start, ms, what invoked it, its file] in ``window.__lcLongScripts``, on the page's
clock (performance.now)."""


def blocking(tasks: list[list[float]], spans: list[list[float]]) -> tuple[float, float]:
    """The longest of `tasks` ([start, ms]) that began within one of `spans` ([from, to], the
    same clock), and their total blocking time (each one's ms over 50); (0, 0) if none."""
    inside = [ms for start, ms in tasks if any(a <= start <= b for a, b in spans)]
    return max(inside, default=0.0), sum(max(0.0, ms - 50) for ms in inside)


def longest_script(scripts: list[list[Any]], spans: list[list[float]]) -> str:
    """The longest of `scripts` (``window.__lcLongScripts``) that began within one of `spans`,
    named: "N ms of INVOKER (FILE)", or "none"."""
    inside = [s for s in scripts if any(a <= s[0] <= b for a, b in spans)]
    if not inside:
        return "none"
    _, ms, invoker, source = max(inside, key=lambda s: s[1])
    return f"{ms:.0f} ms of {invoker} ({source or '?'})"


def chromium_options(pw: Playwright) -> dict[str, Any]:
    """Launch options: Playwright's own Chromium if installed, else Debian's chromium."""
    options: dict[str, Any] = {"args": ARGS, "headless": True}
    if not Path(pw.chromium.executable_path).exists():
        options["executable_path"] = shutil.which("chromium")
    return options


@dataclass
class Site:
    """A built site being served: its folder, its URL and the server's request log."""

    root: Path
    url: str
    log: Path

    def requests(self) -> list[tuple[str, int]]:
        """(path, status) of every request the server has answered so far, in order."""
        text = self.log.read_text(errors="replace")
        return [(m.group(1), int(m.group(2))) for m in LOG_LINE.finditer(text)]


def build_revision(rev: str) -> Callable[[Path], None]:
    """A `served_site` preparation that replaces the site built from this tree by git
    revision `rev`'s (its own scripts/build.py, this checkout's node_modules)."""

    def prepare(site: Path) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
            (tree / "node_modules").symlink_to(ROOT / "node_modules")
            subprocess.run([sys.executable, str(tree / "scripts" / "build.py"), "--dist",
                            str(site)], check=True, stdout=subprocess.DEVNULL)

    return prepare


@contextmanager
def served_site(prepare: Callable[[Path], None] | None = None) -> Iterator[Site]:
    """The site built by scripts/build.py --dist in a temporary folder, changed by
    prepare(folder) if given, served by scripts/serve.py with a loopback broker."""
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py"), "--dist", str(site)],
                       check=True, stdout=subprocess.DEVNULL)
        if prepare is not None:
            prepare(site)
        out, log = Path(tmp) / "server.out", Path(tmp) / "server.log"
        with out.open("w") as stdout, log.open("w") as stderr:
            proc = subprocess.Popen(
                [sys.executable, str(ROOT / "scripts" / "serve.py"), "--exit-with-parent",
                 "--port", "0", "--broker-port", "0", "--root", str(site)],
                stdout=stdout, stderr=stderr)
        try:
            deadline = time.monotonic() + 60
            while not (match := re.search(r"serving (http://\S+/)", out.read_text())):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the dev server did not start: " + log.read_text())
                time.sleep(0.1)
            yield Site(site, match.group(1), log)
        finally:
            proc.terminate()
            proc.wait(timeout=15)
