"""Online play by room code, end to end: two browser contexts, the real local broker, each
page playing its own seat of a fair match (webui/online/seat.py).

What the players see and do around the match: the room code, the join link and its QR code,
the waiting room, the connection badge, leaving, and coming back after a closed page, a lost
network or a reload. The guest's page records its data channel (an init script wraps
RTCPeerConnection.createDataChannel: the guest opens the channel), so a test can send raw text
on it, past the page's own online layer, or silence it. The full match with every option and
the leak check of both pages: e2e/test_fair_online.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from conftest import AppPage, again_on_crash, stored_once, wait_ready
from test_table import assert_accessible
from onlinekit import (
    Chooser, broker_answered, buttons, create_room, enter_lobby, join_room, saved_text, seat_of,
    sync_of,
    wait_connection, wait_synced,
)
from playwright.sync_api import Page

import lostcities
from lostcities.fair.wire import VERSION
from webui.match.seats.local import LocalMatch
from webui.match.session import Session
from webui.online.codes import GUEST_KEY, HOST_KEY

CHANNEL = """
(() => {
  window.__lcRx = []; window.__lcTx = []; window.__lcChannels = [];
  const create = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = create.apply(this, args);
    window.__lcChannels.push(channel);
    channel.addEventListener("message", (event) => {
      if (window.__lcCut) { event.stopImmediatePropagation(); return; }
      window.__lcRx.push(typeof event.data === "string" ? event.data : "[binary]");
    });
    const send = channel.send.bind(channel);
    channel.send = (data) => {
      if (window.__lcCut) return;
      window.__lcTx.push(data);
      return send(data);
    };
    return channel;
  };
})();
"""
"""Records what the guest's channel receives (__lcRx) and sends (__lcTx); while window.__lcCut
is true every channel goes silent both ways, as on a lost network (PeerJS sees no close and no
error)."""


def record(page: Page) -> None:
    """open_app setup: install the channel recorder on every document of the page."""
    page.add_init_script(CHANNEL)


@dataclass
class Match:
    host: AppPage
    guest: AppPage
    code: str
    chooser: Chooser

    def play(self, moves: int) -> str:
        """`moves` moves by clicks on the screen of the player to act; the position both
        screens then show."""
        for _ in range(moves):
            assert self.chooser.step()
        return str(self.chooser.mark)

    def swap(self, role: str, page: Page) -> None:
        """The host's or the guest's page is now `page` (a page opened again)."""
        getattr(self, role).page = page
        self.chooser.pages = (self.host.page, self.guest.page)


@pytest.fixture
def online_match(open_app: Callable[..., AppPage]) -> Iterator[Match]:
    """A host and a guest (two contexts) in one room, the match on, both screens in sync."""
    host = open_app()
    guest = open_app(setup=record)
    code = create_room(host, starts="0")
    join_room(guest, code)
    chooser = Chooser((host.page, guest.page), random.Random(3))
    chooser.mark = wait_synced(host.page, guest.page)
    yield Match(host, guest, code, chooser)


def reopened(page: Page, url: str, setup: Callable[[Page], None] = record) -> Page:
    """A new page of `page`'s context (its storage), set up (the channel recorder by default),
    on `url`, booted (again on a renderer crash: conftest's again_on_crash)."""

    def open_page() -> Page:
        fresh = page.context.new_page()
        setup(fresh)
        return fresh

    def boot(fresh: Page) -> Page:
        fresh.goto(url)
        wait_ready(fresh)
        return fresh

    return again_on_crash(open_page, boot, url)


def inject(page: Page, text: str) -> None:
    """Send raw text on the guest's real data channel, past its own online layer."""
    page.evaluate("(text) => window.__lcChannels.at(-1).send(text)", text)


# ---- the tests ------------------------------------------------------------------------------


def test_both_screens_agree_the_guest_got_the_hosts_options_and_leaving_asks_first(
        online_match: Match) -> None:
    host, guest = online_match.host.page, online_match.guest.page
    wait_connection("connected", host, guest)
    online_match.play(6)
    online_match.chooser.settle()  # a draw's card may still be on its way after the sync
    assert sync_of(host) == sync_of(guest)
    views = [seat_of(page, role).view() for page, role in ((host, "host"), (guest, "guest"))]
    assert [v["options"]["rounds"] for v in views] == [1, 1]
    assert views[0]["names"] == views[1]["names"] and views[0]["names"][1] == "Ben"
    assert [v["player"] for v in views] == [0, 1]
    assert "Ben" in host.inner_text(".online-status")
    assert views[0]["names"][0] in guest.inner_text(".online-status")
    # leaving a match being played asks first: the table's Abandon is the one way out
    mark = online_match.play(2)
    assert guest.locator('.online-status [data-action="leave-room"]').count() == 0
    guest.click('[data-action="abandon"]')
    guest.click('[role="alertdialog"] [data-action="stay"]')
    assert guest.locator('[role="alertdialog"]').count() == 0
    assert sync_of(guest) == mark and saved_text(guest, GUEST_KEY)
    assert not online_match.host.page_errors and not online_match.guest.page_errors


def test_guest_network_lost_until_both_show_lost_then_back_and_the_match_resumes(
        online_match: Match) -> None:
    host, guest = online_match.host.page, online_match.guest.page
    mark = online_match.play(3)
    guest.context.set_offline(True)
    guest.evaluate("() => { window.__lcCut = true; }")
    wait_connection("lost", host, guest)
    assert sync_of(host) == sync_of(guest) == mark
    guest.context.set_offline(False)
    guest.evaluate("() => { window.__lcCut = false; }")
    wait_connection("connected", host, guest)
    assert wait_synced(host, guest) == mark
    online_match.play(4)
    assert not online_match.host.page_errors and not online_match.guest.page_errors


def test_guest_page_closed_then_back_by_reopening_or_by_typing_the_code(
        online_match: Match) -> None:
    """The guest's page closes mid-match: the host shows it lost; reopened, the page takes
    its seat back and the match goes on. It closes again; on this device a pass-and-play
    match is then resumed first (it wins over the saved seat at boot), so the guest abandons
    it, opens the lobby and types the room code: the saved seat (its token and its match) is
    taken back."""
    host, guest = online_match.host.page, online_match.guest.page
    mark = online_match.play(5)
    url = guest.url
    guest.close()
    wait_connection("lost", host)
    assert sync_of(host) == mark
    fresh = reopened(guest, url.split("?")[0])
    online_match.swap("guest", fresh)
    assert wait_synced(host, fresh) == mark
    wait_connection("connected", host, fresh)
    mark = online_match.play(3)
    gone = online_match.guest.page
    gone.close()
    local = Session(LocalMatch.new(lostcities.Options(), 5, 0, ("A", "B"))).save_text()

    def with_local_match(page: Page) -> None:
        record(page)
        page.add_init_script(stored_once("lostcities.match", local))

    fresh = reopened(gone, host.url.split("?")[0], with_local_match)
    assert fresh.evaluate("() => document.body.dataset.screen") != "waiting"
    fresh.click('[data-action="abandon"]')
    fresh.click('[data-action="abandon-yes"]')
    fresh.locator('[data-option="mode"][value="online"]').check()
    fresh.click('[data-action="start"]')
    broker_answered(fresh)
    fresh.fill('[data-field="room-code"]', f" {online_match.code[:3]}-{online_match.code[3:]}")
    fresh.fill('[data-field="guest-name"]', "Ben")
    fresh.click('[data-action="join-room"]')
    online_match.swap("guest", fresh)
    assert wait_synced(host, fresh) == mark
    wait_connection("connected", host, fresh)
    online_match.play(4)


def test_host_closed_then_back_then_gone_for_good(online_match: Match) -> None:
    """The host's page closes: the guest is told the host closed the game (the match waits);
    the host opens it again and the match resumes; the host leaves the room: the guest is told
    it is over for good, and forgets its seat."""
    host, guest = online_match.host.page, online_match.guest.page
    mark = online_match.play(3)
    host.close()
    guest.wait_for_selector('[data-host-away="closed"]')
    assert "closed the game" in guest.inner_text(".online-status")
    host = reopened(host, guest.url.split("?")[0])
    online_match.swap("host", host)
    assert wait_synced(host, guest) == mark
    wait_connection("connected", host, guest)
    guest.wait_for_selector("[data-host-away]", state="detached")
    mark = online_match.play(2)
    host.click('[data-action="abandon"]')
    host.click('[role="alertdialog"] [data-action="leave-room"]')
    guest.wait_for_selector('[data-host-away="left"]')
    assert "left the room for good" in guest.inner_text(".online-status")
    assert guest.evaluate(f"() => localStorage.getItem('{GUEST_KEY}')") is None
    assert sync_of(guest) == mark
    guest.click('.online-status [data-action="leave-room"]')  # no question: it is over
    guest.wait_for_selector('[data-screen="setup"]')


PAYLOAD = "<img src=x onerror=window.__pwned=1>"


def test_a_hostile_message_from_the_guest_stops_the_match_on_the_hosts_page(
        online_match: Match) -> None:
    """Raw text on the guest's real channel, past its page: the host's page stops the match
    with a notice, keeps the evidence in its save, injects nothing; what it had stays; and
    leaving sets the save aside rather than losing it."""
    host, guest = online_match.host.page, online_match.guest.page
    mark = online_match.play(3)
    before = json.loads(saved_text(host, HOST_KEY) or "null")
    seq = seat_of(host, "host").peer.last_received + 1  # type: ignore[union-attr]
    hostile = json.dumps({"fair": VERSION, "seq": seq,
                          "move": {"type": "play", "card": PAYLOAD}})
    inject(guest, hostile)
    notice = host.wait_for_selector(".online-error[role=alert]")
    assert notice is not None and "stopped" in notice.inner_text()
    assert "bad-message" in notice.inner_text()
    assert host.evaluate("() => [typeof window.__pwned, document.querySelectorAll("
                         "'#app img, #app script, #app [onerror]').length]") == ["undefined", 0]
    assert sync_of(host) == mark
    after = json.loads(saved_text(host, HOST_KEY) or "null")
    assert after["peer"]["stopped"]["evidence"]["message"] == hostile
    assert after["peer"]["transcript"] == before["peer"]["transcript"]
    assert seat_of(host, "host").stopped  # the save replays, stopped with its evidence
    _, by = buttons(host)
    # no move is offered, and Leave room is the one way out (no Abandon beside it)
    assert not {"select", "draw", "play", "discard", "abandon"} & set(by)
    host.click('.online-status [data-action="leave-room"]')  # nothing left to play: no question
    host.wait_for_selector('[data-screen="setup"]')
    aside = host.evaluate(f"""() => Object.keys(localStorage)
        .filter((k) => k.startsWith('{HOST_KEY}.set-aside.')).map((k) => localStorage[k])""")
    assert len(aside) == 1  # leaving keeps the evidence aside
    assert json.loads(aside[0])["peer"]["stopped"]["evidence"]["message"] == hostile


def test_lobby_says_plainly_when_online_play_cannot_work(
        open_app: Callable[..., AppPage]) -> None:
    app = open_app()
    app.page.context.set_offline(True)
    enter_lobby(app)
    app.page.wait_for_selector('[data-screen="lobby"] >> text=needs a network')
    assert_accessible(app.page, "lobby (offline)")
    unreachable = open_app("?broker=127.0.0.1:9/none")
    enter_lobby(unreachable)
    unreachable.page.wait_for_selector("text=can't be reached")


def test_a_code_typed_while_the_lobby_renders_again_keeps_its_keys_and_caret(
        open_app: Callable[..., AppPage]) -> None:
    app = open_app()
    page = app.page
    enter_lobby(app)
    page.wait_for_function("() => document.querySelector('[data-broker]')?.dataset.broker"
                           " !== 'checking'")
    page.locator('[data-field="room-code"]').click()
    page.keyboard.type("K7P2")
    page.evaluate("""() => {
      window.__lcTyped = document.querySelector('[data-field="room-code"]');
      window.__lcTyped.setSelectionRange(2, 2);
    }""")
    # the network goes: the lobby says so, and renders its panel (the field with it) again
    page.context.set_offline(True)
    page.wait_for_selector('[data-screen="lobby"] >> text=needs a network')
    typed = page.evaluate("""() => {
      const field = document.querySelector('[data-field="room-code"]');
      return {replaced: field !== window.__lcTyped, focused: document.activeElement === field,
              caret: [field.selectionStart, field.selectionEnd]};
    }""")
    assert typed == {"replaced": True, "focused": True, "caret": [2, 2]}
    page.keyboard.type("X")  # the next key lands where the caret was
    assert page.locator('[data-field="room-code"]').input_value() == "K7XP2"
    page.context.set_offline(False)


RIG_FIRST_ROOM = """
(() => {
  let real;
  Object.defineProperty(window, "Peer", {configurable: true, get() { return real; },
    set(P) {
      real = class extends P {
        constructor(id, options) {
          if (typeof id === "string" && id.startsWith("lostcities-") && !window.__lcRigged) {
            window.__lcRigged = id;
            id = "lostcities-TAKEN2";  // the first room asked for collides on the broker
          }
          super(id, options);
        }
      };
    }});
})();
"""


ONLINE_LIBRARIES = ("static/vendor/peerjs/peerjs.min.js", "static/vendor/qrcode/qrcode.js")


QR_DRAWN_RIGHT = """() => {
  const link = document.querySelector("[data-join-link]").getAttribute("data-join-link");
  const qr = qrcode(0, "M");
  qr.addData(link);
  qr.make();
  let path = "";
  for (let r = 0; r < qr.getModuleCount(); r++)
    for (let c = 0; c < qr.getModuleCount(); c++)
      if (qr.isDark(r, c)) path += `M${c + 4} ${r + 4}h1v1h-1z`;
  return document.querySelector(".qr-figure svg.qr path").getAttribute("d") === path;
}"""
"""Whether the waiting room's QR code is the join link's, module for module (quiet zone 4)."""


def test_peerjs_and_the_qr_library_load_only_when_going_online(
        open_app: Callable[..., AppPage]) -> None:
    fetched: list[str] = []  # the page's own requests (not its service worker's precache)

    def libraries() -> list[str]:
        return sorted(url[url.index("static/"):] for url in fetched
                      if url.endswith(ONLINE_LIBRARIES))

    host = open_app(setup=lambda page: page.on("request", lambda r: fetched.append(r.url)))
    assert libraries() == []
    assert host.page.evaluate("() => [typeof window.Peer, typeof window.qrcode]") == \
        ["undefined", "undefined"]
    code = create_room(host)
    assert libraries() == sorted(ONLINE_LIBRARIES)  # once each
    host.page.wait_for_selector(".qr-figure svg.qr")
    assert host.page.locator(".qr-figure svg.qr").count() == 1
    assert host.page.evaluate(QR_DRAWN_RIGHT)  # every module where the library puts it
    # The waiting room again after a reload: shown at once, its QR code once the library ran.
    fetched.clear()
    host.page.reload()
    wait_ready(host.page)
    host.page.wait_for_selector(".qr-figure svg.qr")
    assert host.page.inner_text("[data-room-code]") == code
    assert libraries() == sorted(ONLINE_LIBRARIES)
    assert_accessible(host.page, "waiting room")
    # the guest follows the join link: the join screen says whose room it is, one way in
    link = host.page.get_attribute(".join-link a", "href") or ""
    guest = open_app(query="?" + link.split("?", 1)[1], setup=record)
    guest.page.wait_for_selector('[data-lobby="join"]')
    assert guest.page.inner_text("#screen h1") == f"Join {seat_of(host.page, 'host').name}'s room"
    assert guest.page.locator('[data-action="create-room"]').count() == 0
    assert_accessible(guest.page, "join screen")
    broker_answered(guest.page)
    guest.page.fill('[data-field="guest-name"]', "Ben")
    guest.page.click('[data-action="join-room"]')
    wait_synced(host.page, guest.page)
    assert host.page_errors == [] and guest.page_errors == []


def test_a_taken_room_code_gets_a_fresh_one(open_app: Callable[..., AppPage]) -> None:
    from conftest import hold_python
    squatter = open_app(ready=False, setup=hold_python)
    squatter.page.evaluate("""async () => {
        await window.lcOnlineLibraries();
        const c = await window.LC_CONFIG;
        await new Promise((ok, fail) => {
          const peer = new Peer("lostcities-TAKEN2",
                                {...c.peer, config: {iceServers: c.iceServers}});
          peer.on("open", ok); peer.on("error", fail); window.__squat = peer;
        });
    }""")
    host = open_app(setup=lambda page: page.add_init_script(RIG_FIRST_ROOM))
    code = create_room(host)
    assert host.page.evaluate("() => window.__lcRigged")
    assert code != "TAKEN2"
    guest = open_app(setup=record)
    join_room(guest, code)
    wait_synced(host.page, guest.page)


def test_hostile_saves_are_set_aside_and_the_page_still_boots(
        open_app: Callable[..., AppPage]) -> None:
    """A save nested 6,000 deep (a fatal stack overflow for Pyodide's json.loads) in the
    table's key and in the online room's key: both are set aside with a notice."""
    deep = "[" * 6000 + "]" * 6000
    plant = ("() => { if (!sessionStorage.getItem('planted')) {"
             " sessionStorage.setItem('planted', '1');"
             f" localStorage.setItem('lostcities.match', {json.dumps(deep)});"
             f" localStorage.setItem('{HOST_KEY}', {json.dumps(deep)}); }} }}")
    app = open_app(setup=lambda page: page.add_init_script(f"({plant})()"))
    page = app.page
    page.wait_for_selector('[data-screen="lobby"]')
    assert "set aside" in page.inner_text("#notice [role=alert]")
    assert "nested deeper" in page.inner_text('[data-screen="lobby"]')
    stored = page.evaluate("""() => {
        const aside = (key) => Object.keys(localStorage).filter(
            (k) => k.startsWith(key + '.set-aside.')).map((k) => localStorage.getItem(k));
        return [localStorage.getItem('lostcities.match'), aside('lostcities.match'),
                localStorage.getItem('lostcities-online-host'), aside('lostcities-online-host')];
    }""")
    assert stored == [None, [deep], None, [deep]]
    assert not app.page_errors
    page.click('[data-action="create-room"]')  # the lobby works: a fresh room opens
    page.wait_for_selector("[data-room-code]")
