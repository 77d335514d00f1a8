"""Online latency: from a click on one player's screen to the update on the other's.

    .venv/bin/python scripts/bench_online.py [--moves 60] [--headed] [--liveness]

Starts scripts/serve.py (the app and a PeerJS broker on loopback), opens two browser contexts
(Chromium, flags as in e2e/conftest.py), creates a room on one, joins it from the other, and
plays by clicks. For each move, the click's time is taken in the acting page right before
``element.click()`` (the click handler runs inside it), and the update's time in the other page
by a MutationObserver that fires when its ``[data-sync]`` mark changes (the opponent's view has
been rendered). Both are ``performance.timeOrigin + performance.now()`` on one machine's clock.
Prints p50/p95 per direction and overall, in milliseconds. Figures only: nothing is asserted.

It also splits each move (an init script timestamps every data-channel ``send`` and the start
and end of every ``message`` listener PeerJS adds, in both pages): the acting page from
the click to sending the move or view, the transport (PeerJS and the channel), and the other
page's handler from the message's arrival to the end of its synchronous work (the fair
match's checks, its move, the view, the render). Each page plays its own seat of a fair match
(webui/online/seat.py): the page that may move is the one whose turn buttons are enabled once
neither waits on the other (``[data-waiting]``). The bytes each page sends are counted by kind
(fair messages, and the pages' control messages: ``hello``, ``welcome``, ``ping``...).
scripts/bench_fair_browser.py --online measures the fair protocol's own figures (shuffle+deal
per page and round, move latency until both screens show a move).

--liveness then times, in seconds, how soon each screen tells what became of the other player
(``[data-connection]``, ``[data-host-away]``) against the heartbeat's LOST_AFTER
(py/webui/online/liveness.py): the guest's network cut (its context offline and its data
channel silenced, as on a lost network: PeerJS sees no close) until each screen shows ``lost``;
the network back until both show ``connected``; the guest's page closed until the host shows
``lost``; the host's page closed until the guest is told the host closed the game.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
from webui.online.liveness import LOST_AFTER  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]
WATCH = """() => {
  const before = document.querySelector('[data-sync]')?.dataset.sync;
  window.__lcUpdated = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      const now = document.querySelector('[data-sync]')?.dataset.sync;
      if (now !== undefined && now !== before) {
        seen.disconnect();
        resolve(performance.timeOrigin + performance.now());
      }
    });
    seen.observe(document.body, {subtree: true, childList: true, attributes: true});
  });
}"""
TIMESTAMPS = """
(() => {
  const clock = () => performance.timeOrigin + performance.now();
  window.__lcT = {send: [], recv: []};
  window.__lcBytes = {};  // bytes this page sent, by message type
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    if (typeof data === "string") {
      const kind = data.includes('"fair":') ? "fair"
        : (/"lc":"([a-z-]+)"/.exec(data) || [null, "other"])[1];
      window.__lcBytes[kind] = (window.__lcBytes[kind] || 0) + new Blob([data]).size;
    }
    if (typeof data === "string" && data.includes('"fair":'))
      window.__lcT.send.push(clock());
    return send.call(this, data);
  };
  window.__lcT.dom = 0;  // ms spent in innerHTML assignments (the browser parsing HTML)
  const inner = Object.getOwnPropertyDescriptor(Element.prototype, "innerHTML");
  Object.defineProperty(Element.prototype, "innerHTML", {
    configurable: true, get() { return inner.get.call(this); },
    set(html) { const t = clock(); inner.set.call(this, html); window.__lcT.dom += clock() - t; }});
  const listen = EventTarget.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, handler, ...rest) {
    if (type !== "message") return listen.call(this, type, handler, ...rest);
    return listen.call(this, type, function (event) {  // PeerJS listens here
      const start = clock();
      window.__lcT.dom = 0;
      try { return handler.call(this, event); } finally {
        if (typeof event.data === "string" && event.data.includes('"fair":'))
          window.__lcT.recv.push([start, clock(), window.__lcT.dom]);
      }
    }, ...rest);
  };
})();
"""
"""Timestamps every move/view message a page sends, and each one's handler (start, end)."""
CUT = """
(() => {
  const create = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = create.apply(this, args);
    channel.addEventListener("message", (event) => {
      if (window.__lcCut) event.stopImmediatePropagation();
    });
    const send = channel.send.bind(channel);
    channel.send = (data) => { if (!window.__lcCut) return send(data); };
    return channel;
  };
})();
"""
"""On the guest (whose page creates the data channel): while window.__lcCut is true, the
channel goes silent both ways, as on a lost network."""
CLICK = """(selector) => {
  const element = document.querySelector(selector);
  const t = performance.timeOrigin + performance.now();
  element.click();
  return t;
}"""


def start_server() -> tuple[subprocess.Popen[str], str]:
    """scripts/serve.py on free ports; returns the process and the app's URL."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True,
                   stdout=subprocess.DEVNULL)
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "serve.py"), "--quiet", "--exit-with-parent",
         "--port", "0", "--broker-port", "0"],
        stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    match = re.search(r"serving (http://127\.0\.0\.1:\d+/)", proc.stdout.readline())
    if not match:
        proc.terminate()
        raise SystemExit("the dev server did not start")
    return proc, match.group(1)


def ready(page: Page) -> None:
    page.wait_for_function("() => document.documentElement.dataset.ready === 'true'",
                           timeout=180_000)


def enter_lobby(page: Page, rounds: int = 1) -> None:
    page.locator('[data-option="mode"][value="online"]').check()
    page.locator('[data-option="rounds"]').select_option(str(rounds))
    page.click('[data-action="start"]')
    page.wait_for_selector('body[data-screen="lobby"]')


SETTLED = """() => { const badge = document.querySelector('[data-sync]');
  return badge !== null && !badge.hasAttribute('data-waiting'); }"""
"""The match is on the screen and waits on nothing from the other page."""
TURN = """() => !!document.querySelector('#app button:is([data-action="select"],'
  + '[data-action="draw"],[data-action="next-round"]):not([disabled])')"""
"""Whether this page's player may move now."""


def to_act(host: Page, guest: Page) -> int | None:
    """The seat that may move (0: the host's page, 1: the guest's), None once the match is
    over: asked once neither page waits on the other."""
    while True:
        for page in (host, guest):
            page.wait_for_function(SETTLED, timeout=180_000)
        if host.evaluate(SETTLED):
            break
    for seat, page in enumerate((host, guest)):
        if page.evaluate(TURN):
            return seat
    return None


Parts = dict[str, float]
"""One move's times in ms: ``total`` (click to update), ``actor`` (click to send),
``transport`` (send to arrival), ``other`` (the receiving handler, arrival to its end) and
``dom`` (the part of ``other`` spent in innerHTML assignments: whole-screen writes; patched
regions go through the page's own DOM calls and count as the rest)."""


def timed_click(actor: Page, other: Page, selector: str) -> Parts:
    """Clicking `selector` on `actor` until `other` shows the new view, split in parts."""
    for page in (actor, other):
        page.evaluate("() => { window.__lcT.send = []; window.__lcT.recv = []; }")
    other.evaluate(WATCH)
    clicked = float(actor.evaluate(CLICK, selector))
    updated = float(other.evaluate("() => window.__lcUpdated"))
    sent = actor.evaluate("() => window.__lcT.send[0] ?? null")
    received = other.evaluate("() => window.__lcT.recv[0] ?? null")
    parts = {"total": updated - clicked}
    if sent is not None and received is not None:
        parts.update(actor=sent - clicked, transport=received[0] - sent,
                     other=received[1] - received[0], dom=received[2])
    return parts


def move(actor: Page, other: Page) -> Parts:
    """One move by clicks (the card pick before a play is local, not timed)."""
    if actor.locator('[data-action="next-round"]:enabled').count():
        return timed_click(actor, other, '[data-action="next-round"]:enabled')
    if actor.locator('[data-action="draw"][data-source="deck"]:enabled').count():
        return timed_click(actor, other, '[data-action="draw"][data-source="deck"]:enabled')
    actor.locator('[data-action="select"]:enabled').first.click()
    if actor.locator('[data-action="play"]:enabled').count():
        return timed_click(actor, other, '[data-action="play"]:enabled')
    return timed_click(actor, other, '[data-action="discard"]:enabled')


def seconds_until(*waits: tuple[Page, str]) -> float:
    """Seconds until each (page, selector) in turn is in the page."""
    start = time.monotonic()
    for page, selector in waits:
        page.wait_for_selector(selector, state="attached", timeout=180_000)
    return time.monotonic() - start


def liveness(host: Page, guest: Page, url: str) -> list[tuple[str, float]]:
    """Seconds until each screen tells what became of the other when the network or a page
    goes away: (what, seconds) in the order they happen."""
    lost, connected = '[data-connection="lost"]', '[data-connection="connected"]'
    figures: list[tuple[str, float]] = []
    guest.context.set_offline(True)
    guest.evaluate("() => { window.__lcCut = true; }")
    start = time.monotonic()
    figures.append(("network cut -> host shows lost", seconds_until((host, lost))))
    guest.wait_for_selector(lost, state="attached", timeout=180_000)
    figures.append(("network cut -> guest shows lost", time.monotonic() - start))
    guest.context.set_offline(False)
    guest.evaluate("() => { window.__lcCut = false; }")
    figures.append(("network back -> both connected",
                    seconds_until((host, connected), (guest, connected))))
    context = guest.context
    guest.close()
    figures.append(("guest page closed -> host shows lost", seconds_until((host, lost))))
    guest = context.new_page()
    guest.goto(url)
    ready(guest)
    seconds_until((host, connected), (guest, connected))
    host.close()
    figures.append(("host page closed -> guest told",
                    seconds_until((guest, '[data-host-away="closed"]'))))
    return figures


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(name: str, values: list[float]) -> None:
    if values:
        print(f"{name:<24} n={len(values):<4} p50 {pct(values, 50):7.1f} ms   "
              f"p95 {pct(values, 95):7.1f} ms   mean {statistics.fmean(values):7.1f} ms")


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="moves to time (default 60)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the match (1)")
    parser.add_argument("--headed", action="store_true")
    parser.add_argument("--liveness", action="store_true",
                        help="then time the connection states (network cut, pages closed)")
    args = parser.parse_args()
    proc, url = start_server()
    samples: dict[str, list[Parts]] = {"host -> guest": [], "guest -> host": []}
    sent: list[dict[str, int]] = []
    rounds = 1
    figures: list[tuple[str, float]] = []
    try:
        with sync_playwright() as pw:
            launch: dict[str, Any] = {"args": CHROMIUM_ARGS, "headless": not args.headed}
            if not Path(pw.chromium.executable_path).exists():
                launch["executable_path"] = shutil.which("chromium")
            browser = pw.chromium.launch(**launch)
            host = browser.new_context().new_page()
            guest = browser.new_context().new_page()
            guest.context.add_init_script(CUT)
            for page in (host, guest):
                page.add_init_script(TIMESTAMPS)
                page.goto(url)
            for page in (host, guest):
                ready(page)
            enter_lobby(host, args.rounds)
            host.click('[data-action="create-room"]')
            code = host.wait_for_selector("[data-room-code]", timeout=60_000)
            assert code is not None
            enter_lobby(guest)
            guest.fill('[data-field="room-code"]', str(code.get_attribute("data-room-code")))
            guest.click('[data-action="join-room"]')
            guest.wait_for_selector("[data-sync]", timeout=60_000)
            host.wait_for_selector('[data-connection="connected"]', timeout=60_000)
            for _ in range(args.moves):
                seat = to_act(host, guest)
                if seat is None:
                    break  # the match is over
                actor, other = (host, guest) if seat == 0 else (guest, host)
                samples["host -> guest" if seat == 0 else "guest -> host"].append(
                    move(actor, other))
            sent = [page.evaluate("() => window.__lcBytes") for page in (host, guest)]
            mark = host.evaluate("() => document.querySelector('[data-sync]').dataset.sync")
            rounds = int(mark.split(":")[0])
            if args.liveness:
                figures = liveness(host, guest, url)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    print("click on one screen -> update on the other (local broker, two headless Chromiums)")
    for name, moves in samples.items():
        report(name, [m["total"] for m in moves])
    report("all", [m["total"] for moves in samples.values() for m in moves])
    print("split (actor: click to send; transport: send to arrival; other: the receiving"
          " handler; dom: its innerHTML writes)")
    for name, moves in samples.items():
        for part in ("actor", "transport", "other", "dom"):
            report(f"{name} {part}", [m[part] for m in moves if part in m])
    print(f"bytes on the wire ({rounds} round(s) played), by message type, host and guest:")
    for who, counts in zip(("host", "guest"), sent):
        print(f"  {who}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    heartbeat = ("ping",)
    match_bytes = sum(v for counts in sent for k, v in counts.items() if k not in heartbeat)
    print(f"  the match (heartbeat left out): {match_bytes / rounds / 1000:.1f} KB a round")
    if figures:
        print(f"liveness (seconds; the heartbeat calls the opponent lost after {LOST_AFTER:.0f} s "
              "of silence)")
        for what, value in figures:
            print(f"{what:<40} {value:6.1f} s   {value / LOST_AFTER:5.2f}x LOST_AFTER")
    return 0


if __name__ == "__main__":
    sys.exit(main())
