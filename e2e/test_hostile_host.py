"""A hostile peer, end to end: a guest page plays a room whose other page is scripted.

The host's page runs no Python (hold_python): a script registers the room's PeerJS id on the
real loopback broker and hands everything the guest sends to the test process
(``window.lcPeer``), where a native seat (webui/online/host.py's `FairHost` with rbcl's group,
the very code the page runs) answers and plays the host's moves; the script sends its answers
back. So the guest page plays a real fair match, and the test can send it, at any point, what
an honest host never would (``window.__lcSend``): fair-wire messages that are malformed, out
of order, replayed or not called for, and markup. The dev server sends no
Content-Security-Policy, so markup that reached the DOM would run: an ``onerror`` payload sets
``window.__pwned``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conftest import AppPage, hold_python
from onlinekit import GROUP, SYNC, Chooser, broker_answered, buttons, saved_text
from playwright.sync_api import Page

from lostcities import Options
from lostcities.fair.wire import VERSION
from lostcities.protocol import APP_VERSION
from webui.online import control
from webui.online.codes import ALPHABET, CODE_LENGTH, GUEST_KEY
from webui.online.host import FairHost

PAYLOAD = "<img src=x onerror=window.__pwned=1>"

SCRIPTED_PEER = """
async (code) => {
  await window.lcOnlineLibraries();  // PeerJS, as the app loads it for online play
  const config = await window.LC_CONFIG;
  const peer = new Peer("lostcities-" + code,
                        {...config.peer, config: {iceServers: config.iceServers}});
  await new Promise((resolve, reject) => { peer.on("open", resolve); peer.on("error", reject); });
  peer.on("connection", (conn) => {
    const send = (texts) => { for (const text of texts) conn.send(text); };
    conn.on("open", async () => {
      window.__lcSend = (text) => conn.send(text);  // once the channel is open
      send(await window.lcPeer("open", conn.metadata?.token ?? ""));
    });
    conn.on("data", async (data) => send(await window.lcPeer("data", String(data))));
  });
}
"""
"""Registers the room on the broker; hands what the guest sends to the native seat and sends
back its answers."""

INJECTED = """() => ({
  pwned: typeof window.__pwned,
  injected: document.querySelectorAll("#app img, #app script, #app iframe, #app [onerror]").length,
})"""
"""What markup from the peer would have left in the guest's page."""

NOTICE_OR_HARM = """() => document.querySelector(".online-error[role=alert]")
  || document.querySelector("#app img, #app script, #app iframe, #app [onerror]")
  || window.__pwned !== undefined"""
"""The state after the guest handled the hostile message: its error notice, or the harm."""


@dataclass
class NativePeer:
    """The room's host: a native `FairHost` behind the scripted page, playing its own moves."""

    seat: FairHost
    outbox: list[str] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(2))
    now: float = 0.0
    honest: bool = True
    """Whether it still answers and plays (a test that sends its own messages turns it off)."""

    def send(self, text: str) -> None:
        self.outbox.append(text)

    def close(self) -> None:
        pass

    def __call__(self, kind: str, data: str) -> list[str]:
        self.now += 1.0
        if kind == "open":
            self.seat.accept(self, {"token": data}, self.now)
        elif self.honest:
            self.seat.receive(self, data, self.now)
            while self.honest and self.seat.has_match and self.seat.view()["legal_moves"]:
                moves = self.seat.view()["legal_moves"]
                deck = {"type": "draw", "source": "deck"}
                move = deck if deck in moves else self.rng.choice(
                    [m for m in moves if m["type"] != "undo"])
                assert self.seat.submit(move) is None
        out, self.outbox = self.outbox, []
        return out

    def next_seq(self) -> int:
        """The number the guest expects of the host's next fair message."""
        assert self.seat.peer is not None
        return len(self.seat.peer.sent_after(0)) + 1


def room_code() -> str:
    """A fresh room code (each test its own room on the shared broker)."""
    return "".join(random.choice(ALPHABET) for _ in range(CODE_LENGTH))


def scripted_room(open_app: Callable[..., AppPage], host_name: str = "Ana",
                  options: Options = Options(rounds=1, skills=True)) -> tuple[AppPage, NativePeer,
                                                                               str]:
    """The scripted host's page, the native seat behind it, and the room's code."""
    code = room_code()
    seat = FairHost.create(code, options, 1, host_name, 0.0)
    seat.load(GROUP)
    native = NativePeer(seat)
    host = open_app(ready=False, setup=hold_python)
    host.page.expose_function("lcPeer", native)
    host.page.evaluate(SCRIPTED_PEER, code)
    return host, native, code


def join(guest: Page, code: str) -> None:
    """From the setup screen: online, the lobby, the code and a name, join."""
    guest.locator('[data-option="mode"][value="online"]').check()
    guest.locator('[data-action="start"]').click()
    broker_answered(guest)  # the lobby renders again then: fill it after that
    guest.fill('[data-field="room-code"]', code)
    guest.fill('[data-field="guest-name"]', "Ben")
    guest.click('[data-action="join-room"]')


def notice_text(guest: Page) -> str:
    """The guest's error notice once it handled the hostile message (fails at once on harm)."""
    guest.wait_for_function(NOTICE_OR_HARM)
    assert guest.evaluate(INJECTED) == {"pwned": "undefined", "injected": 0}
    notice = guest.locator(".online-error[role=alert]")
    assert notice.count() == 1
    return notice.inner_text()


def midmatch(open_app: Callable[..., AppPage], moves: int = 6) -> tuple[Page, Page, NativePeer,
                                                                        Chooser]:
    """The scripted host's page, and a guest page some moves into a fair match against the
    native host behind it."""
    host, native, code = scripted_room(open_app)
    guest = open_app()
    join(guest.page, code)
    guest.page.wait_for_selector("[data-sync]")
    chooser = Chooser((guest.page,), random.Random(4))
    for _ in range(moves):
        assert chooser.step()
    # the native host has answered the guest's last move (its own turn included): the guest is
    # to act, so nothing honest is on its way when the test's own message goes
    guest.page.wait_for_function(f"() => /^1:(play|draw):[0-9]+:1$/.test({SYNC})")
    chooser.settle()
    chooser.mark = str(guest.page.evaluate(f"() => {SYNC}"))
    native.honest = False
    return host.page, guest.page, native, chooser


def hostile_message(native: NativePeer) -> str:
    """A move an honest host never sends: its card is markup."""
    return json.dumps({"fair": VERSION, "seq": native.next_seq(),
                       "move": {"type": "play", "card": PAYLOAD}})


def test_a_hostile_message_mid_match_stops_the_match_with_a_notice_and_keeps_the_evidence(
        open_app: Callable[..., AppPage]) -> None:
    """A markup-laden move on the real channel (every other kind of hostile message, replayed,
    out of order, unexpected, is proven on the native seats: tests/test_fair_seats.py)."""
    code = "bad-message"
    host, guest, native, chooser = midmatch(open_app)
    mark = chooser.mark
    before = json.loads(saved_text(guest, GUEST_KEY) or "null")
    text = hostile_message(native)
    host.evaluate("(text) => window.__lcSend(text)", text)  # the scripted page sends it
    notice = notice_text(guest)
    assert "stopped" in notice and f"({code})" in notice
    assert guest.evaluate("() => document.querySelector('[data-sync]').dataset.sync") == mark
    _, by = buttons(guest)
    assert not {"select", "draw", "play", "discard", "radio"} & set(by)  # nothing to play
    after = json.loads(saved_text(guest, GUEST_KEY) or "null")
    stopped = after["peer"]["stopped"]
    assert stopped["code"] == code and stopped["evidence"]["message"] == text
    assert after["peer"]["transcript"] == before["peer"]["transcript"]  # nothing else lost
    guest.reload()  # the stopped match resumes stopped, with its notice
    guest.wait_for_selector(".online-error[role=alert]")
    assert f"({code})" in guest.inner_text(".online-error[role=alert]")


def test_a_hostile_message_before_the_welcome_starts_nothing(
        open_app: Callable[..., AppPage]) -> None:
    host, native, code = scripted_room(open_app)
    native.honest = False  # the host answers nothing itself
    guest = open_app()
    join(guest.page, code)
    guest.page.wait_for_selector('[data-screen="waiting"]')
    host.page.wait_for_function("() => typeof window.__lcSend === 'function'")
    host.page.evaluate("(text) => window.__lcSend(text)",
                       json.dumps({"lc": "welcome", "app": APP_VERSION, "name": PAYLOAD}))
    assert "malformed" in notice_text(guest.page)
    assert guest.page.evaluate("() => document.body.dataset.screen") == "waiting"
    assert guest.page.evaluate(INJECTED) == {"pwned": "undefined", "injected": 0}
    assert guest.page_errors == []


def test_a_host_named_with_markup_is_shown_as_text_and_the_match_plays(
        open_app: Callable[..., AppPage]) -> None:
    _host, _native, code = scripted_room(open_app, host_name=PAYLOAD)
    guest = open_app()
    join(guest.page, code)
    guest.page.wait_for_selector('[data-screen="turn"] .who .name')
    assert guest.page.locator(".who .name").all_inner_texts() == [PAYLOAD, "Ben"]
    assert PAYLOAD in guest.page.locator(".online-status").inner_text()
    chooser = Chooser((guest.page,), random.Random(6))
    for _ in range(4):
        assert chooser.step()
    assert guest.page.locator(".online-error").count() == 0
    assert guest.page.evaluate(INJECTED) == {"pwned": "undefined", "injected": 0}
    assert guest.page_errors == []


def test_the_welcome_a_guest_is_sent_is_checked(open_app: Callable[..., AppPage]) -> None:
    """A welcome naming the guest otherwise, or with options that are not options."""
    host, native, code = scripted_room(open_app)
    native.honest = False
    guest = open_app()
    join(guest.page, code)
    host.page.wait_for_function("() => typeof window.__lcSend === 'function'")
    setup: dict[str, Any] = control.MatchSetup(Options(), ("Ana", "Eve"), 0).to_json()
    host.page.evaluate("(text) => window.__lcSend(text)", json.dumps(
        {"lc": "welcome", "app": APP_VERSION, "match": 1, "last": 0, "setup": setup}))
    assert "names this player otherwise" in notice_text(guest.page)
    host.page.evaluate("(text) => window.__lcSend(text)", json.dumps(
        {"lc": "welcome", "app": APP_VERSION, "match": 1, "last": 0,
         "setup": {**setup, "names": ["Ana", "Ben"], "options": {"rounds": PAYLOAD}}}))
    guest.page.wait_for_function("() => document.querySelector('.online-error')"
                                 "?.textContent.includes('setup options')")
    assert guest.page.evaluate("() => document.body.dataset.screen") == "waiting"
    assert guest.page.evaluate(INJECTED) == {"pwned": "undefined", "injected": 0}
