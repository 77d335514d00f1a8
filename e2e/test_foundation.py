"""The foundation: the page boots Python from the host alone, and PeerJS works locally."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route
from playwright.sync_api import Error as PlaywrightError

from conftest import (CRASH_RETRIES, AppPage, Server, again_on_crash, dev_server,
                      hold_python, wait_ready)
from test_pwa import play_turns, start_pass_and_play

ROOT = Path(__file__).resolve().parent.parent


def test_python_runs_and_every_request_stays_on_the_host(
    open_app: Callable[..., AppPage], lc_server: Server
) -> None:
    app = open_app(fresh=True)  # a context of its own: every request of it recorded
    assert app.page.evaluate("document.documentElement.dataset.ready") == "true"
    assert app.page.title() == "Lost Cities"
    fetched = [url for url in app.requests if not url.startswith(("data:", "blob:"))]
    assert any(url.endswith("/pyodide.asm.wasm") for url in fetched), fetched
    assert any(url.endswith("/app.zip.gz") for url in fetched), fetched
    outside = [url for url in fetched if not url.startswith(lc_server.origin + "/")]
    assert outside == []
    assert app.page_errors == []


def test_deployable_site_runs_alone_on_the_public_broker_config(
    browser: Browser, lc_server: Server, tmp_path: Path
) -> None:
    """The folder Netlify publishes (build.py --dist) is complete and self-contained."""
    site = tmp_path / "site"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py"), "--dist", str(site)],
                   check=True)
    assert not (site / "node_modules").exists() and not (site / "tests").exists()
    with dev_server("--root", str(site), "--no-broker") as url:
        context = browser.new_context()
        try:
            page = context.new_page()
            requests: list[str] = []
            page.on("request", lambda request: requests.append(request.url))
            page.goto(url)
            wait_ready(page)
            config = page.evaluate("window.LC_CONFIG")
        finally:
            context.close()
    assert config["peer"] == {"host": "0.peerjs.com", "port": 443, "path": "/", "secure": True}
    fetched = [u for u in requests if not u.startswith(("data:", "blob:"))]
    assert [u for u in fetched if not u.startswith(url)] == []


def test_loading_state_is_painted_before_python(open_app: Callable[..., AppPage]) -> None:
    app = open_app(ready=False, setup=hold_python)
    page = app.page
    assert page.locator("#app h1").inner_text() == "Lost Cities"
    assert page.locator("#app [role=status]").is_visible()
    assert page.locator("#app [role=status] p").inner_text() != ""
    assert page.evaluate("document.documentElement.dataset.ready") is None


# Records, from the document's creation on (an init script), the states the page goes
# through: at each frame until the shell is marked painted, the mark and the setup form's
# display as that frame is about to be drawn (requestAnimationFrame runs just before a frame's
# style, layout and paint, and not at all before the first one can be drawn); and when
# html[data-shell] is first set, whether first-contentful-paint had been reported by then.
SHELL_STATES = """(() => {
  const frames = window.__lcFrames = [];
  const shell = () => document.documentElement?.dataset.shell ?? null;
  const frame = () => {
    const form = document.getElementById("setup-form");
    frames.push({shell: shell(), form: form ? getComputedStyle(form).display : "absent"});
    if (shell() !== "painted") requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver((records, observer) => {
    observer.disconnect();
    window.__lcShellMarked = {old: records[0].oldValue, value: shell(),
      contentfulPaint: performance.getEntriesByName("first-contentful-paint").length > 0};
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-shell"],
                        attributeOldValue: true});
})();"""


def test_the_first_frame_is_the_shell_and_the_form_follows(
    open_app: Callable[..., AppPage],
) -> None:
    """The shell (title, loading line) paints alone; the setup form is laid out after it, and
    is then usable before Python (boot/preboot.js, html[data-shell]). Checked by the order
    of the page's states, not by what a screenshot happens to catch."""

    def observe(page: Page) -> None:
        hold_python(page)
        page.add_init_script(SHELL_STATES)

    page = open_app(ready=False, setup=observe).page  # returns once html[data-shell=painted]
    marked = page.evaluate("window.__lcShellMarked")
    assert marked == {"old": None, "value": "painted", "contentfulPaint": True}, marked
    page.wait_for_function("() => window.__lcFrames.at(-1).shell === 'painted'")
    frames = page.evaluate("window.__lcFrames")
    before = [frame for frame in frames if frame["shell"] is None]
    assert before, frames  # at least the first frame is drawn before the mark
    assert all(frame["form"] in ("none", "absent") for frame in before), frames
    unmarked = page.evaluate("""() => {  // the form's display hangs on the mark alone
      const html = document.documentElement;
      delete html.dataset.shell;
      const display = getComputedStyle(document.getElementById("setup-form")).display;
      html.dataset.shell = "painted";
      return display;
    }""")
    assert unmarked == "none"
    page.wait_for_selector("#setup-form", state="visible")
    page.fill('[data-field="name1"]', "Ada")
    assert page.input_value('[data-field="name1"]') == "Ada"


# Records, from the document's creation on, when html[data-shell] was set and when the first
# frame that draws the setup form was about to be drawn (its requestAnimationFrame callback).
FORM_FRAME = """(() => {
  const times = window.__lcFormFrame = {marked: null, frame: null};
  new MutationObserver((records, observer) => {
    observer.disconnect();
    times.marked = performance.now();
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-shell"]});
  const frame = () => {
    const form = document.getElementById("setup-form");
    if (form && getComputedStyle(form).display !== "none") times.frame = performance.now();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();"""
RUNTIME_START = "(performance.getEntriesByName('lc:runtime-start')[0]?.startTime ?? null)"


def test_the_runtime_starts_after_the_forms_frame(open_app: Callable[..., AppPage]) -> None:
    """Python's start-up, one long task, waits for the frame that draws the setup form
    (boot/pyodide-early.mjs), so that it never holds that frame back; only a shell that has
    not painted 250 ms after navigation lets it start sooner."""

    def observe(page: Page) -> None:
        hold_python(page)
        page.add_init_script(FORM_FRAME)

    page = open_app(ready=False, setup=observe).page
    page.wait_for_function(f"() => {RUNTIME_START} !== null && window.__lcFormFrame.frame")
    times = page.evaluate("window.__lcFormFrame")
    start = page.evaluate(RUNTIME_START)
    if times["marked"] < 250:
        assert start > times["frame"] > times["marked"], (start, times)
    else:  # the shell painted late: the boot did not wait for it
        assert start >= 250, (start, times)


RUNTIME_STARTED = "() => document.documentElement.dataset.runtimeStart ?? null"
WORKER_BOOTED = "() => performance.getEntriesByName('lc:worker-booted').length"
# Whether the page ran a task between each step of a restore and the next: the runtime's set-up
# ("lc:set-up"), V8's instantiation of the wasm ("lc:instantiated"), the runtime's link of it
# ("lc:linked"), the restore of the image ("lc:restored"), the page's own Python on the restored
# runtime ("lc:runtime-ready"). This script's message, posted at a step's mark, comes
# before the boot's own (posted messages are delivered in order), so it is handled before the
# next step's mark only if that step waits for the next task. window.__lcTaskAfter[mark].
TASKS_BETWEEN = """(() => {
  const after = window.__lcTaskAfter = {};
  const next = {"lc:set-up": "lc:instantiated", "lc:instantiated": "lc:linked",
                "lc:linked": "lc:restored", "lc:restored": "lc:runtime-ready"};
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    for (const [step, then] of Object.entries(next)) {
      if (name === then) after[step] ??= false;
    }
    if (name in next) {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { after[name] ??= true; };
      channel.port2.postMessage(null);
    }
    return mark(name, options);
  };
})();"""
TASK_AFTER = "() => window.__lcTaskAfter"
EVERY_STEP = {"lc:set-up": True, "lc:instantiated": True, "lc:linked": True,
              "lc:restored": True}


def test_without_a_kept_snapshot_python_starts_in_a_worker(
        open_app: Callable[..., AppPage]) -> None:
    """Python's start-up, seconds of one task, runs in a worker, not on the page's main thread
    (boot/pyodide-early.mjs): the page sets the runtime up, instantiates the worker's module,
    links it, restores the worker's image and runs its own Python on it, each in a task of its
    own, and plays. The worker is kept, idle: through the compile that made the module, V8
    goes on caching the code it compiles for the page (until the page makes its snapshot)."""
    app = open_app(setup=lambda page: page.add_init_script(TASKS_BETWEEN))
    page = app.page
    assert page.evaluate(RUNTIME_STARTED) == "worker"
    assert page.evaluate(WORKER_BOOTED) == 1
    assert page.evaluate(TASK_AFTER) == EVERY_STEP
    booted = [worker for worker in page.workers if worker.url.endswith("/snapshot-worker.mjs")]
    assert len(booted) == 1 and booted[0].evaluate("1 + 1") == 2  # a closed one would raise
    start_pass_and_play(page)
    assert play_turns(page, turns=2) == "handoff"
    assert app.page_errors == []


@pytest.mark.parametrize("failure", ["its script", "its boot"])
def test_a_failed_worker_boot_falls_back_to_the_page(
        open_app: Callable[..., AppPage], failure: str) -> None:
    """A worker that cannot be loaded, or whose runtime fails to start (its first request for
    the standard library is refused: the page's own, later, is served), leaves the boot to the
    page, on the same load."""
    def fail(page: Page) -> None:
        if failure == "its script":
            page.route("**/boot/snapshot-worker.mjs", lambda route: route.fulfill(status=404))
            return
        refused: list[str] = []

        def first_refused(route: Route) -> None:
            if refused:
                route.continue_()
            else:
                refused.append(route.request.url)
                route.fulfill(status=404)

        page.route("**/python_stdlib.zip.gz", first_refused)

    app = open_app(setup=fail)
    page = app.page
    assert page.evaluate(RUNTIME_STARTED) == "page"
    assert page.evaluate(WORKER_BOOTED) == 0
    start_pass_and_play(page)
    assert play_turns(page, turns=2) == "handoff"
    # the worker's runtime reports the file it could not load; the page's own error, none
    assert all("python_stdlib.zip" in error for error in app.page_errors), app.page_errors


def test_the_opponent_choice_is_hidden_while_online_mode_is_chosen(
    open_app: Callable[..., AppPage],
) -> None:
    """An online match is against the person who joins: no opponent select (CSS, so it holds
    before Python has booted too)."""
    page = open_app(ready=False, setup=hold_python).page
    opponent = page.locator('[data-option="opponent"]')
    assert opponent.is_visible()
    page.click('[data-option="mode"][value="online"]')
    assert opponent.is_hidden()
    page.click('[data-option="mode"][value="local"]')
    assert opponent.is_visible()


@pytest.fixture
def shell(open_app: Callable[..., AppPage]) -> AppPage:
    """The page without Python: enough for the config and PeerJS, and cheaper."""
    return open_app(ready=False, setup=hold_python)


def test_dev_server_points_the_page_at_the_local_broker(shell: AppPage, lc_server: Server) -> None:
    config = shell.page.evaluate("window.LC_CONFIG")
    assert config == {
        "peer": {"host": "127.0.0.1", "port": lc_server.broker_port, "path": "/myapp",
                 "secure": False},
        "iceServers": [],
    }


def test_committed_config_is_the_public_broker(shell: AppPage) -> None:
    committed = json.loads((ROOT / "static" / "config.json").read_text())
    config = shell.page.evaluate("base => window.lcResolveConfig(base, '')", committed)
    assert config["peer"] == {"host": "0.peerjs.com", "port": 443, "path": "/", "secure": True}
    assert config["iceServers"] == committed["iceServers"]


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        ("?broker=peer.example.org", {"host": "peer.example.org", "port": 443, "path": "/",
                                      "secure": True}),
        ("?broker=http://peer.example.org:9000/myapp",
         {"host": "peer.example.org", "port": 9000, "path": "/myapp", "secure": False}),
        ("?broker=localhost:9000/myapp", {"host": "localhost", "port": 9000, "path": "/myapp",
                                          "secure": False}),
        ("?broker=wss://10.0.0.5:8443/p", {"host": "10.0.0.5", "port": 8443, "path": "/p",
                                           "secure": True}),
    ],
)
def test_broker_url_parameter_overrides_the_config(
    shell: AppPage, search: str, expected: dict[str, object]
) -> None:
    config = shell.page.evaluate(
        "search => window.LC_CONFIG.then(base => window.lcResolveConfig(base, search))", search
    )
    assert config["peer"] == expected
    assert config["iceServers"] == []


@pytest.mark.parametrize(
    ("ice", "expected"),
    [
        ("none", []),
        ("turn:ana:s%40cret@turn.example.org:3478?transport=tcp,stun:stun.example.org:3478",
         [{"urls": "turn:turn.example.org:3478?transport=tcp", "username": "ana",
           "credential": "s@cret"},
          {"urls": "stun:stun.example.org:3478"}]),
        ('[{"urls": ["turns:t.example.org:5349"], "username": "u", "credential": "c"}]',
         [{"urls": ["turns:t.example.org:5349"], "username": "u", "credential": "c"}]),
    ],
)
def test_ice_url_parameter_overrides_the_config(
    shell: AppPage, ice: str, expected: list[dict[str, object]]
) -> None:
    config = shell.page.evaluate(
        "ice => window.LC_CONFIG.then(base => window.lcResolveConfig(base, "
        "'?' + new URLSearchParams({ice})))", ice
    )
    assert config["iceServers"] == expected


def test_url_parameters_reach_the_page_config(
    open_app: Callable[..., AppPage], lc_server: Server
) -> None:
    app = open_app("?broker=https://peer.example.org/x&ice=stun:stun.example.org:3478",
                   ready=False, setup=hold_python)
    config = app.page.evaluate("window.LC_CONFIG")
    assert config["peer"] == {"host": "peer.example.org", "port": 443, "path": "/x",
                              "secure": True}
    assert config["iceServers"] == [{"urls": "stun:stun.example.org:3478"}]


@pytest.mark.parametrize(
    ("search", "message"),
    [
        ("?broker=ftp://x.org", "?broker=ftp://x.org: expected"),
        ("?broker=x.org:99999", "peer.port must be an integer"),
        ("?ice=turn:turn.example.org:3478", "a TURN server needs a username"),
        ("?ice=[oops", "not valid JSON"),
        ("?ice=http://x.org", "expected turn:USER:CREDENTIAL@host"),
    ],
)
def test_malformed_url_parameters_give_a_clear_error(
    open_app: Callable[..., AppPage], search: str, message: str
) -> None:
    app = open_app(search, ready=False, setup=hold_python)
    with pytest.raises(PlaywrightError, match="Lost Cities config: .*" + re.escape(message)):
        app.page.evaluate("window.LC_CONFIG")


PEER_EXCHANGE = """
async ([role, hostId]) => {
  await window.lcOnlineLibraries();  // PeerJS is loaded only for online play
  const config = await window.LC_CONFIG;
  const options = {...config.peer, config: {iceServers: config.iceServers}, debug: 1};
  const HANG_MS = 120000;  // a guard against a hang (a clear error), not a budget
  const timeout = (ms, what) => new Promise((_, reject) =>
      setTimeout(() => reject(new Error("timed out: " + what)), ms));
  const opened = (peer) => new Promise((resolve, reject) => {
      peer.on("open", resolve); peer.on("error", reject); });
  if (role === "host") {
    const peer = new Peer(hostId, options);
    await Promise.race([opened(peer), timeout(HANG_MS, "host registers")]);
    window.lcTestHost = new Promise((resolve) => {
      peer.on("connection", (conn) => {
        conn.on("data", (data) => { conn.send({reply: "pong from host", got: data});
                                    resolve(data); });
      });
    });
    return hostId;
  }
  const peer = new Peer(options);
  await Promise.race([opened(peer), timeout(HANG_MS, "guest registers")]);
  const conn = peer.connect(hostId, {serialization: "json"});
  const reply = new Promise((resolve) => conn.on("data", resolve));
  await Promise.race([new Promise((resolve) => conn.on("open", resolve)),
                      timeout(HANG_MS, "data channel opens")]);
  conn.send({text: "ping from guest"});
  return await Promise.race([reply, timeout(HANG_MS, "reply")]);
}
"""


def test_two_pages_exchange_messages_through_the_local_broker(
    open_app: Callable[..., AppPage],
) -> None:
    host = open_app(ready=False, setup=hold_python)
    guest = open_app(ready=False, setup=hold_python)
    host_id = host.page.evaluate(PEER_EXCHANGE, ["host", "lc-foundation-test"])
    reply = guest.page.evaluate(PEER_EXCHANGE, ["guest", host_id])
    received = host.page.evaluate("window.lcTestHost")
    assert received == {"text": "ping from guest"}
    assert reply == {"reply": "pong from host", "got": {"text": "ping from guest"}}


def test_a_renderer_crash_while_booting_is_tried_again_on_a_new_page_and_nothing_else_is(
        browser: Browser) -> None:
    """The suite's guard against Chromium's rare renderer crash (conftest's again_on_crash):
    a crashed page (chrome://crash) is closed and the boot done again on a new page from the
    retry's opener, with a warning, up to CRASH_RETRIES times; one more crash, or a failure
    that is not a crash, is raised."""
    context = browser.new_context()
    opened: list[tuple[str, Page]] = []

    def opener(kind: str) -> Callable[[], Page]:
        def open_page() -> Page:
            opened.append((kind, context.new_page()))
            return opened[-1][1]
        return open_page

    def crashing(times: int) -> Callable[[Page], str]:
        def boot(page: Page) -> str:
            if len(opened) <= times:
                page.goto("chrome://crash")
            page.set_content("<p>booted</p>")
            return page.inner_text("p")
        return boot

    try:
        with pytest.warns(RuntimeWarning, match="renderer crashed") as crashes:
            assert again_on_crash(opener("first"), crashing(CRASH_RETRIES), "a test",
                                  open_again=opener("again")) == "booted"
        assert len(crashes) == CRASH_RETRIES
        assert [kind for kind, _ in opened] == ["first"] + ["again"] * CRASH_RETRIES
        assert [page.is_closed() for _, page in opened] == [True] * CRASH_RETRIES + [False]

        opened.clear()
        with pytest.warns(RuntimeWarning), pytest.raises(PlaywrightError):
            again_on_crash(opener("first"), crashing(CRASH_RETRIES + 1), "a test")
        assert len(opened) == CRASH_RETRIES + 1

        def fails(page: Page) -> None:
            page.goto("http://127.0.0.1:9/")  # nothing listens: a network error, not a crash

        opened.clear()
        with pytest.raises(PlaywrightError):
            again_on_crash(opener("first"), fails, "a test")
        assert len(opened) == 1
    finally:
        context.close()


def test_open_app_boots_again_in_a_new_context_after_a_renderer_crash(
        open_app: Callable[..., AppPage]) -> None:
    """open_app's retry after a crash is in a new context of the player's (the crash may
    have left the shared one bad), and the test gets that page, booted."""
    crashed: list[BrowserContext] = []

    def crash_once(page: Page) -> None:
        if not crashed:
            crashed.append(page.context)
            page.goto("chrome://crash")

    with pytest.warns(RuntimeWarning, match="renderer crashed"):
        app = open_app(setup=crash_once)
    assert app.page.context is not crashed[0]
    assert app.page.evaluate("document.documentElement.dataset.ready") == "true"
