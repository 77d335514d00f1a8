"""Shared fixtures for the end-to-end tests (see e2e/README.md, "Fixtures").

Once per session: build static/vendor, start scripts/serve.py (the app and a PeerJS broker)
on free loopback ports, and launch Chromium (Playwright's own where it exists, else Debian's
/usr/bin/chromium with the flags a container needs). pytest-playwright's `page`, `context`
and `browser` fixtures work as usual, with `base_url` set to the dev server.
"""

from __future__ import annotations

import fcntl
import gzip
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import (Browser, BrowserContext, BrowserType, ConsoleMessage, Page,
                                 Request)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parent.parent
READY_TIMEOUT_MS = 180_000
"""How long a boot may take before wait_ready fails: a guard against a hang (Pyodide boots in
2-4 s on an idle machine, many times that on a loaded 2-core one), never a budget."""
STATE_TIMEOUT_MS = 120_000
"""Playwright's default timeout in open_app's contexts (clicks, selectors, wait_for_function):
how long a wait on a state may hang before the test fails. Not a budget: the figures of how
long things take belong to scripts/bench_*.py."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]


@dataclass(frozen=True)
class Server:
    """The running dev server and its PeerJS broker."""

    url: str  # "http://127.0.0.1:PORT/", the app
    origin: str  # "http://127.0.0.1:PORT"
    broker_host: str
    broker_port: int
    broker_path: str


@dataclass
class AppPage:
    """A page of the app in its own browser context, with what it did recorded."""

    page: Page
    requests: list[str] = field(default_factory=list)  # every URL its context requested
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)  # uncaught exceptions


def free_port() -> int:
    """A loopback TCP port that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_http(url: str, proc: subprocess.Popen[str] | None = None, timeout: float = 120) -> None:
    """Until `url` answers 200 (a server starting: nothing to wait on but its socket); the
    timeout guards against a server that never comes up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"dev server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"no answer from {url} within {timeout} s")


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def unpacked_zip(name: str) -> bytes:
    """The zip that the built static/vendor/<name> (app.zip.gz, app-more.zip.gz,
    pyodide/python_stdlib.zip.gz: gzipped whole, boot/build/app_zip.py) holds."""
    return gzip.decompress((ROOT / "static" / "vendor" / name).read_bytes())


def shipped_zip(name: str) -> zipfile.ZipFile:
    """unpacked_zip(name), opened."""
    return zipfile.ZipFile(io.BytesIO(unpacked_zip(name)))


@contextmanager
def dev_server(*options: str) -> Iterator[str]:
    """Run scripts/serve.py --quiet --exit-with-parent --port FREE *options; yield its URL
    once it answers.

    Stops it (SIGTERM, wait, then SIGKILL of its process group, broker included) on exit; a
    test process killed before that leaves it to stop by itself.
    """
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "serve.py"), "--quiet", "--exit-with-parent",
         "--port", str(free_port()), *options],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        match = re.search(r"serving (http://127\.0\.0\.1:\d+/)", first)
        if not match:
            raise RuntimeError(f"dev server did not start: {first!r}")
        _wait_http(match.group(1), proc)
        yield match.group(1)
    finally:
        _stop(proc)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first: pytest-xdist's two workers then share them from the start
    and end together, instead of one worker taking a long test last while the other waits."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def lc_server() -> Iterator[Server]:
    """Build static/vendor, then run scripts/serve.py and its broker on free loopback ports."""
    with open(ROOT / "static" / ".build.lock", "w") as lock:  # pytest-xdist's workers in turn
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True)
    broker_port = free_port()
    with dev_server("--broker-port", str(broker_port)) as url:
        _wait_http(f"http://127.0.0.1:{broker_port}/myapp")
        yield Server(url=url, origin=url.rstrip("/"), broker_host="127.0.0.1",
                     broker_port=broker_port, broker_path="/myapp")


@pytest.fixture(scope="session")
def base_url(lc_server: Server) -> str:
    """pytest-playwright's base URL: page.goto("/") opens the app."""
    return lc_server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], browser_type: BrowserType
) -> dict[str, Any]:
    """Playwright's own Chromium where installed, else Debian's, both with ``CHROMIUM_ARGS``."""
    args = {**browser_type_launch_args}
    args["args"] = [*args.get("args", []), *CHROMIUM_ARGS]
    if "channel" not in args and not Path(browser_type.executable_path).exists():
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            raise RuntimeError("no browser: install Debian's chromium or run `playwright install`")
        args["executable_path"] = chromium
    return args


READY_OR_FAILED = """(failedBefore) => {
  if (!window.__lcUncaught) {  // uncaught errors from the first call on (earlier: page_errors)
    const seen = window.__lcUncaught = [];
    addEventListener("error", (event) => seen.push(String(event.message)));
    addEventListener("unhandledrejection", (event) => seen.push(String(event.reason)));
  }
  if (document.documentElement.dataset.ready === "true") return {ready: true};
  const box = document.querySelector(".py-error");
  if (box) return {error: box.textContent};
  if (failedBefore || window.__lcUncaught.length) return {uncaught: window.__lcUncaught};
  return null;
}"""


def wait_ready(
    page: Page, timeout_ms: int = READY_TIMEOUT_MS, page_errors: list[str] | None = None
) -> None:
    """Wait until html[data-ready=true].

    Fails at once with the text of a PyScript error box (.py-error), or when the page throws
    an uncaught exception (or page_errors, e.g. AppPage.page_errors, has one already), instead
    of waiting out `timeout_ms` (a guard against a hang, not a budget).
    """
    try:
        handle = page.wait_for_function(READY_OR_FAILED, arg=bool(page_errors),
                                        timeout=timeout_ms, polling=100)
    except PlaywrightTimeoutError:
        raise AssertionError(f"html[data-ready=true] not set within {timeout_ms} ms") from None
    outcome = handle.json_value()
    if "error" in outcome:
        raise AssertionError(f"Python failed in the page:\n{outcome['error']}")
    if "uncaught" in outcome:
        raise AssertionError("the page failed before it was ready: "
                             f"{page_errors or outcome['uncaught']}")


Booted = TypeVar("Booted")
CRASH_EVENT_MS = 5_000  # a guard: how long a failed boot waits for a late crash event
CRASH_RETRIES = 2  # boots done again after a renderer crash, each on a new page


def again_on_crash(open_page: Callable[[], Page], boot: Callable[[Page], Booted], where: str,
                   open_again: Callable[[], Page] | None = None) -> Booted:
    """boot(open_page()): a page opened and the app booted in it. If Chromium's renderer
    crashed meanwhile (a browser fault, not the app's: seen about once in a thousand boots,
    twice in a row once, before the runtime ran without stack switching, docs/boot.md; kept
    against any other), that page is dead to
    Playwright: it is closed and the boot is done again on a new page from open_again()
    (default open_page()), with a warning, up to CRASH_RETRIES times. Any other failure is
    the test's."""
    page = open_page()
    for _ in range(CRASH_RETRIES):
        crashed: list[Page] = []
        page.on("crash", lambda crashed_page: crashed.append(crashed_page))
        try:
            return boot(page)
        except PlaywrightError:
            if not crashed:  # its event may come after the error it caused
                try:
                    page.wait_for_event("crash", timeout=CRASH_EVENT_MS)
                except PlaywrightError:
                    pass
            if not crashed:
                raise
        warnings.warn(f"the renderer crashed while the app booted ({where}); opened it again",
                      RuntimeWarning, stacklevel=2)
        page.close()
        page = (open_again or open_page)()
    return boot(page)


def stored_once(key: str, text: str) -> str:
    """An init script that puts `text` under `key` in localStorage before the page's first
    script, on the tab's first load only: a reload finds what the page wrote since."""
    flag = json.dumps(f"planted:{key}")
    return (f"if (!sessionStorage.getItem({flag})) {{ sessionStorage.setItem({flag}, '1');"
            f" localStorage.setItem({json.dumps(key)}, {json.dumps(text)}); }}\n")


def hold_python(page: Page) -> None:
    """Never answer the Pyodide runtime download, so Python never starts in page.

    For tests of what the page does without Python (loading state, config, PeerJS); pass it
    as open_app(..., ready=False, setup=hold_python). It also saves the CPU of a boot.
    """
    page.route("**/pyodide.asm.wasm", lambda route: None)


@pytest.fixture(name="wait_ready")
def wait_ready_fixture() -> Callable[..., None]:
    """wait_ready(page, timeout_ms=60_000, page_errors=None): wait for html[data-ready=true]."""
    return wait_ready


@pytest.fixture(scope="session")
def shared_contexts(browser: Browser, lc_server: Server) -> Iterator[list[BrowserContext]]:
    """Browser contexts kept for the whole session, one a player (a test's first open_app
    call takes the first, its second the second): a page opened in one boots on the
    context's caches (the runtime's compiled code), in about half the time of a new context.
    Service workers are blocked in them (a test of the worker opens its own profile)."""
    contexts: list[BrowserContext] = []
    yield contexts
    for context in contexts:
        context.close()


def _shared_page(contexts: list[BrowserContext], slot: int, browser: Browser,
                 server: Server) -> Page:
    """A new page in the shared context of `slot` (made on first use): the context online,
    its earlier pages closed, the app's origin's storage emptied (by the browser, after the
    closed pages' last writes)."""
    while len(contexts) <= slot:
        context = browser.new_context(base_url=server.url, service_workers="block",
                                      reduced_motion="reduce")
        context.add_init_script("window.lcWarmUp = false;")
        context.set_default_timeout(STATE_TIMEOUT_MS)
        contexts.append(context)
    context = contexts[slot]
    for page in context.pages:
        page.close()
    context.set_offline(False)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Storage.clearDataForOrigin", {"origin": server.origin, "storageTypes":
                                                "local_storage,indexeddb,cache_storage"})
    cdp.detach()
    return page


@pytest.fixture
def open_app(browser: Browser, lc_server: Server,
             shared_contexts: list[BrowserContext]) -> Iterator[Callable[..., AppPage]]:
    """open_app(query="", ready=True, setup=None, warm=False, fresh=False) -> AppPage: the
    app in a page of its own player's context.

    A test's first two calls take the session's shared contexts (two players: own storage,
    own PeerJS peer, own Web Locks), each page starting on empty storage; a third call, or
    `fresh`, or `warm` makes a new context (its service worker allowed, every request of it
    recorded, the service worker's included). Records requests and errors, sets Playwright's
    default timeout to STATE_TIMEOUT_MS (a hang guard), reduces motion (a test of motion asks
    for it with page.emulate_media), turns off the idle warm-up for next
    boots (bytecode and boot snapshot: webui/browser/boot/warm.py) unless `warm`, calls
    setup(page) if given (e.g. to add routes or init scripts: on the page, never on a shared
    context), opens lc_server.url + query and waits for data-ready (with ready=False: only for the
    shell's paint, after which the setup form is shown). Pages close at teardown, and so do
    the contexts made for the test.
    """
    contexts: list[BrowserContext] = []
    pages: list[Page] = []

    def new_page(slot: int, own_context: bool, warm: bool) -> Page:
        if own_context:
            context = browser.new_context(base_url=lc_server.url, reduced_motion="reduce")
            if not warm:  # the idle warm-up for next boots: CPU no test here needs
                context.add_init_script("window.lcWarmUp = false;")
            context.set_default_timeout(STATE_TIMEOUT_MS)
            contexts.append(context)
            return context.new_page()
        return _shared_page(shared_contexts, slot, browser, lc_server)

    def load(page: Page, own_context: bool, query: str, ready: bool,
             setup: Callable[[Page], None] | None) -> AppPage:
        app = AppPage(page)

        def on_request(request: Request) -> None:
            app.requests.append(request.url)

        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                app.console_errors.append(message.text)

        # a new context's own requests include its service worker's
        (page.context if own_context else page).on("request", on_request)
        page.on("console", on_console)
        page.on("pageerror", lambda error: app.page_errors.append(str(error)))
        if setup is not None:
            setup(page)
        page.goto(lc_server.url + query)
        if ready:
            wait_ready(page, page_errors=app.page_errors)
        else:  # the setup form is shown once the shell has painted (boot/preboot.js)
            page.wait_for_selector('html[data-shell="painted"]', state="attached")
        return app

    def open_page(
        query: str = "", ready: bool = True, setup: Callable[[Page], None] | None = None,
        warm: bool = False, fresh: bool = False,
    ) -> AppPage:
        slot = len(pages)
        own_context = fresh or warm or slot >= 2

        def page_in_slot() -> Page:
            page = new_page(slot, own_context, warm)
            pages[slot:slot + 1] = [page]
            return page

        def new_context_in_slot() -> Page:  # a crash's retry: in case it left the context bad
            nonlocal own_context
            own_context = True
            return page_in_slot()

        return again_on_crash(
            page_in_slot, lambda page: load(page, own_context, query, ready, setup), query or "/",
            open_again=new_context_in_slot)

    yield open_page
    for page in pages:  # and every other page the test opened in a shared context
        for other in page.context.pages if page.context in shared_contexts else [page]:
            if not other.is_closed():
                other.close()
    for context in contexts:
        context.close()


@pytest.fixture
def app(open_app: Callable[..., AppPage]) -> AppPage:
    """One page of the app, booted (data-ready true)."""
    return open_app()
