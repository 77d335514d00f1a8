"""Online play by room code, end to end: two browser contexts, the real local broker.

Every data-channel message the guest's page receives is recorded at the browser level (an init
script wraps RTCPeerConnection.createDataChannel: the guest opens the channel) and checked
against the host's hidden cards, read from the host's own save (its localStorage holds the full
state after every move). Hostile messages are sent raw on the guest's real data channel.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import AppPage, wait_ready
from playwright.sync_api import Page

import lostcities
from webui.seats.local import LocalMatch
from webui.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from leakcheck import check_guest_message  # noqa: E402 - tests/leakcheck.py, shared
from webui.online.liveness import BURST, RATE  # noqa: E402

HOST_KEY = "lostcities-online-host"
GUEST_KEY = "lostcities-online-guest"

RECORDER = """
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
      if (window.__lcRewrite) data = window.__lcRewrite(data);
      window.__lcTx.push(data);
      return send(data);
    };
    return channel;
  };
})();
"""
"""Records what the guest's channel receives (__lcRx) and sends (__lcTx); window.__lcRewrite,
when set, may change each outgoing message first; while window.__lcCut is true every channel
goes silent both ways, as on a lost network (PeerJS sees no close and no error)."""


def record(page: Page) -> None:
    """open_app setup: install the recorder on every document of the page."""
    page.add_init_script(RECORDER)


# ---- driving the app ------------------------------------------------------------------------


def enter_lobby(app: AppPage, rounds: int = 1) -> None:
    """From the setup screen: online mode, `rounds` rounds, start: the lobby."""
    page = app.page
    page.locator('[data-option="mode"][value="online"]').check()
    page.locator('[data-option="rounds"]').select_option(str(rounds))
    page.locator('[data-action="start"]').click()
    page.wait_for_selector('[data-screen="lobby"]')


def create_room(app: AppPage, rounds: int = 1) -> str:
    """Host: setup, lobby, create room; returns the code shown."""
    enter_lobby(app, rounds)
    app.page.click('[data-action="create-room"]')
    code = app.page.wait_for_selector("[data-room-code]")
    assert code is not None
    return str(code.get_attribute("data-room-code"))


def join_room(app: AppPage, code: str) -> None:
    """Guest: lobby (from setup), type the code, join."""
    enter_lobby(app)
    app.page.fill('[data-field="room-code"]', code.lower())
    app.page.fill('[data-field="guest-name"]', "Ben")
    app.page.click('[data-action="join-room"]')


SYNC = "document.querySelector('[data-sync]')?.dataset.sync ?? null"
"""The match position a screen shows (``[data-sync]``), null before a match is on it."""


def sync_of(page: Page) -> str | None:
    return page.evaluate(f"() => {SYNC}")


def wait_connection(state: str, *pages: Page) -> None:
    """Until each page's badge shows the opponent's connection as `state`."""
    for page in pages:
        page.wait_for_selector(f'[data-connection="{state}"]', state="attached")


def wait_synced(host: Page, guest: Page, before: str | None = None) -> str:
    """Both screens show the same match position (and not `before`); returns it.

    The host's screen shows a new position only when a player moves, so once it shows one
    other than `before`, the guest's screen must come to show the same."""
    mark = host.wait_for_function(
        f"(before) => {{ const mark = {SYNC}; return mark !== null && mark !== before && mark; }}",
        arg=before).json_value()
    guest.wait_for_function(f"(mark) => {SYNC} === mark", arg=mark)
    return str(mark)


def host_save(host: Page) -> dict[str, Any]:
    """The host's saved room, read once the page's due save has run: it saves in a task after
    the next frame (dom.AfterPaint), so this reads in a task after the frame after."""
    text = host.evaluate("(key) => new Promise((done) => requestAnimationFrame(() => setTimeout("
                         " () => done(localStorage.getItem(key)), 0)))", HOST_KEY)
    assert text, "the host has no saved room"
    return json.loads(text)


def host_state(host: Page) -> lostcities.State:
    """The host's full state, from its save (hidden cards included)."""
    return lostcities.state_from_json(host_save(host)["match"]["state"])


def acting_page(host: Page, guest: Page, state: lostcities.State) -> Page:
    return guest if state.to_act == 1 else host


def take_turn_step(page: Page) -> None:
    """One move by clicks: draw from the deck, or play (else discard) the first card, or
    start the next round."""
    if page.locator('[data-action="next-round"]:enabled').count():
        page.click('[data-action="next-round"]')
        return
    deck = page.locator('[data-action="draw"][data-source="deck"]:enabled')
    if deck.count():
        deck.click()
        return
    page.locator('[data-action="select"]:enabled').first.click()
    play = page.locator('[data-action="play"]:enabled')
    (play if play.count() else page.locator('[data-action="discard"]:enabled')).click()


# ---- what the guest received ---------------------------------------------------------------


RECEIVED = """([type, says]) => window.__lcRx.some((text) => {
  try {
    const message = JSON.parse(text);
    return message.type === type && String(message.message ?? "").includes(says);
  } catch { return false; }
})"""
"""Whether the guest's channel has received (and not yet drained) a message of `type` whose
``message`` says `says` (any, with "")."""


@dataclass
class GuestWire:
    """Every message the guest's page received, checked as it is collected."""

    page: Page
    messages: list[dict[str, Any]] = field(default_factory=list)

    def drain(self) -> list[dict[str, Any]]:
        raw = self.page.evaluate("() => window.__lcRx.splice(0)")
        assert "[binary]" not in raw
        new = [json.loads(text) for text in raw]
        self.messages += new
        return new

    def check(self, state: lostcities.State) -> int:
        """The messages since the last check, against the host's state now: each view is
        exactly the engine's view for seat 1, and no message holds a card hidden from the
        guest (host's hand, deck) in more copies than the guest may see."""
        new = self.drain()
        self.check_messages(new, state)
        return len(new)

    @staticmethod
    def check_messages(new: list[dict[str, Any]], state: lostcities.State) -> None:
        """`check` for messages already drained."""
        for message in new:
            check_guest_message(message, state)


# ---- fixtures -------------------------------------------------------------------------------


@dataclass
class Match:
    host: AppPage
    guest: AppPage
    wire: GuestWire
    code: str


@pytest.fixture
def online_match(open_app: Callable[..., AppPage]) -> Iterator[Match]:
    """A host and a guest (two contexts) in one room, the match on, both screens in sync."""
    host = open_app()
    guest = open_app(setup=record)
    code = create_room(host)
    join_room(guest, code)
    wait_synced(host.page, guest.page)
    yield Match(host, guest, GuestWire(guest.page), code)


def play_steps(match: Match, steps: int) -> str:
    """`steps` moves by clicks on the screen of the player to act; checks each message."""
    host, guest = match.host.page, match.guest.page
    mark = wait_synced(host, guest)
    match.wire.check(host_state(host))  # what arrived before: welcome, the first view, pongs
    for _ in range(steps):
        state = host_state(host)
        if state.phase == "match-end":
            break
        take_turn_step(acting_page(host, guest, state))
        mark = wait_synced(host, guest, mark)
        match.wire.check(host_state(host))
    return mark


# ---- the tests ------------------------------------------------------------------------------


def test_full_match_online_both_screens_agree_and_nothing_hidden_leaks(
        online_match: Match) -> None:
    host, guest = online_match.host.page, online_match.guest.page
    wait_connection("connected", host, guest)
    view = lostcities.view(host_state(host), 1)
    assert view["options"]["rounds"] == 1  # the guest got the host's options
    play_steps(online_match, 400)
    assert host_state(host).phase == "match-end"
    host.wait_for_selector('[data-screen="match-end"]')
    guest.wait_for_selector('[data-screen="match-end"]')
    for player in (0, 1):
        selector = f'[data-total][data-player="{player}"]'
        assert host.inner_text(selector) == guest.inner_text(selector)
    state = host_state(host)
    assert [int(host.inner_text(f'[data-total][data-player="{p}"]')) for p in (0, 1)] == \
        list(lostcities.view(state, 0)["totals"])
    assert len(online_match.wire.messages) > 40
    assert not online_match.host.page_errors and not online_match.guest.page_errors


def test_guest_tab_closed_mid_match_and_reopening_resumes(online_match: Match) -> None:
    host, guest = online_match.host.page, online_match.guest.page
    mark = play_steps(online_match, 5)
    context = guest.context
    url = guest.url
    guest.close()
    wait_connection("lost", host)
    assert sync_of(host) == mark
    reopened = context.new_page()
    record(reopened)
    reopened.goto(url.split("?")[0])
    wait_ready(reopened)
    online_match.guest.page = online_match.wire.page = reopened
    assert wait_synced(host, reopened) == mark
    wait_connection("connected", host, reopened)
    play_steps(online_match, 4)


def test_guest_network_lost_until_both_show_lost_then_back_and_the_match_resumes(
        online_match: Match) -> None:
    host, guest = online_match.host.page, online_match.guest.page
    mark = play_steps(online_match, 3)
    guest.context.set_offline(True)
    guest.evaluate("() => { window.__lcCut = true; }")
    wait_connection("lost", host, guest)
    assert sync_of(host) == sync_of(guest) == mark
    guest.context.set_offline(False)
    guest.evaluate("() => { window.__lcCut = false; }")
    wait_connection("connected", host, guest)
    assert wait_synced(host, guest) == mark
    play_steps(online_match, 4)
    assert not online_match.host.page_errors and not online_match.guest.page_errors


def test_guest_page_closed_then_rejoins_by_typing_the_code(online_match: Match) -> None:
    """The guest's page closes; on this device a pass-and-play match is then resumed first
    (it wins over the saved seat at boot), so the guest abandons it, opens the lobby and types
    the room code: the saved seat's token takes the seat back."""
    host = online_match.host.page
    mark = play_steps(online_match, 3)
    context = online_match.guest.page.context
    online_match.guest.page.close()
    local = Session(LocalMatch.new(lostcities.Options(), 5, 0, ("A", "B"))).save_text()
    reopened = context.new_page()
    record(reopened)
    reopened.add_init_script(
        "if (!sessionStorage.getItem('local')) { sessionStorage.setItem('local', '1');"
        f" localStorage.setItem('lostcities.match', {json.dumps(local)}); }}")
    reopened.goto(online_match.host.page.url.split("?")[0])
    wait_ready(reopened)
    assert reopened.evaluate("() => document.body.dataset.screen") != "waiting"
    reopened.click('[data-action="abandon"]')
    reopened.click('[data-action="abandon-yes"]')
    reopened.locator('[data-option="mode"][value="online"]').check()
    reopened.click('[data-action="start"]')
    reopened.fill('[data-field="room-code"]', f" {online_match.code[:3]}-{online_match.code[3:]}")
    reopened.fill('[data-field="guest-name"]', "Ben")
    reopened.click('[data-action="join-room"]')
    online_match.guest.page = online_match.wire.page = reopened
    assert wait_synced(host, reopened) == mark
    wait_connection("connected", host, reopened)
    play_steps(online_match, 4)


def test_host_closed_then_back_then_gone_for_good(online_match: Match) -> None:
    """The host's page closes: the guest is told the host closed the game (the match waits);
    the host opens it again and the match resumes; the host leaves the room: the guest is told
    it is over for good, and forgets its seat."""
    host, guest = online_match.host.page, online_match.guest.page
    mark = play_steps(online_match, 3)
    context = host.context
    host.close()
    guest.wait_for_selector('[data-host-away="closed"]')
    assert "closed the game" in guest.inner_text(".online-status")
    host = context.new_page()
    host.goto(guest.url.split("?")[0])
    wait_ready(host)
    online_match.host.page = host
    assert wait_synced(host, guest) == mark
    wait_connection("connected", host, guest)
    guest.wait_for_selector("[data-host-away]", state="detached")
    mark = play_steps(online_match, 2)
    host.click('.online-status [data-action="leave-room"]')
    host.click('[role="alertdialog"] [data-action="leave-room"]')
    guest.wait_for_selector('[data-host-away="left"]')
    assert "left the room for good" in guest.inner_text(".online-status")
    assert guest.evaluate(f"() => localStorage.getItem('{GUEST_KEY}')") is None
    assert sync_of(guest) == mark
    guest.click('.online-status [data-action="leave-room"]')  # no question: it is over
    guest.wait_for_selector('[data-screen="setup"]')


def test_host_reload_mid_match_resumes(online_match: Match) -> None:
    host, guest = online_match.host.page, online_match.guest.page
    mark = play_steps(online_match, 5)
    before = host_save(host)["match"]["state"]
    host.reload()
    wait_ready(host)
    assert wait_synced(host, guest) == mark
    assert host_save(host)["match"]["state"] == before
    wait_connection("connected", host, guest)
    mark = play_steps(online_match, 4)
    guest.click('.online-status [data-action="leave-room"]')  # leaving a match asks first
    guest.click('[role="alertdialog"] [data-action="stay"]')
    assert guest.locator('[role="alertdialog"]').count() == 0
    assert sync_of(guest) == mark and host_save(host)["token"]


def inject(page: Page, text: str) -> None:
    """Send raw text on the guest's real data channel, past its own online layer."""
    page.evaluate("(text) => window.__lcChannels.at(-1).send(text)", text)


def test_hostile_guest_gets_a_clear_rejection_and_the_match_is_unchanged(
        online_match: Match) -> None:
    host, guest, wire = online_match.host.page, online_match.guest.page, online_match.wire
    mark = play_steps(online_match, 0)
    state = host_state(host)
    assert state.to_act == 0  # the host starts (setup: player 1 starts)
    hand = lostcities.view(state, 1)["hand"]

    def rejected(raw: str, code: str) -> None:
        before = host_save(host)["match"]["state"]
        inject(guest, raw)
        guest.wait_for_function(RECEIVED, arg=["error", ""])  # the host's answer
        got = wire.drain()
        wire.check_messages(got, host_state(host))
        errors = [m for m in got if m["type"] == "error"]
        assert errors[0]["code"] == code, errors[0]
        assert errors[0]["message"]
        assert host_save(host)["match"]["state"] == before
        assert sync_of(host) == sync_of(guest) == mark
        guest.wait_for_selector(".online-error")

    move = {"type": "discard", "card": hand[0]}
    rejected(json.dumps({"v": 1, "seq": 10**6, "type": "move", "move": move}), "not-your-turn")
    mark = play_steps(online_match, 2)  # the host plays and draws
    assert host_state(host).to_act == 1
    first_sent = guest.evaluate("() => window.__lcTx[0]")
    for raw, code in (
        ("\u0000{ not json", "bad-json"),
        ("[1, 2, 3]", "not-object"),
        (json.dumps({"v": 1, "seq": 10**6, "type": "move", "move": "R7"}), "bad-message"),
        (json.dumps({"v": 1, "seq": 10**6, "type": "deal-me-aces"}), "unknown-type"),
        (json.dumps({"v": 1, "seq": 10**6, "type": "move",
                     "move": {"type": "draw", "source": "deck"}}), "illegal-move"),
        (json.dumps({"v": 1, "seq": 10**6, "type": "move", "seat": 0, "move": move}),
         "forbidden"),
        (json.dumps({"v": 1, "seq": 10**6, "type": "start", "options": {}, "seed": 1}),
         "forbidden"),
        (first_sent, "replayed"),
        (json.dumps({"v": 1, "seq": 10**6, "type": "ping", "t": 1, "pad": "x" * 200_000}),
         "too-large"),
    ):
        rejected(raw, code)
    play_steps(online_match, 4)  # the guest's own moves still go through


def test_lobby_says_plainly_when_online_play_cannot_work(
        open_app: Callable[..., AppPage]) -> None:
    app = open_app()
    app.page.context.set_offline(True)
    enter_lobby(app)
    app.page.wait_for_selector('[data-screen="lobby"] >> text=needs a network')
    unreachable = open_app("?broker=127.0.0.1:9/none")
    enter_lobby(unreachable)
    unreachable.page.wait_for_selector("text=can't be reached")


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
    # The waiting room again after a reload: shown at once, its QR code once the library ran.
    fetched.clear()
    host.page.reload()
    wait_ready(host.page)
    host.page.wait_for_selector(".qr-figure svg.qr")
    assert host.page.inner_text("[data-room-code]") == code
    assert libraries() == sorted(ONLINE_LIBRARIES)
    guest = open_app(setup=record)
    join_room(guest, code)
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


def test_a_guest_on_another_app_version_is_told_to_reload(
        open_app: Callable[..., AppPage]) -> None:
    host = open_app()
    code = create_room(host)

    def old_version(page: Page) -> None:
        record(page)
        page.add_init_script(
            "window.__lcRewrite = (d) => d.replace('\"app\":\"', '\"app\":\"0.0.0-old');")

    guest = open_app(setup=old_version)
    join_room(guest, code)
    guest.page.wait_for_selector("text=reload the page")
    errors = [json.loads(m) for m in guest.page.evaluate("() => window.__lcRx")]
    assert [e["code"] for e in errors if e["type"] == "error"] == ["version-mismatch"]
    assert host_save(host.page)["match"]["state"] is None  # no match started with it
    assert host.page.locator("[data-room-code]").count() == 1  # the host still waits


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


def test_a_flooding_guest_is_cut_off_and_the_host_plays_on(online_match: Match) -> None:
    """2,000 messages at once on the guest's real channel: the host answers at most a burst
    (plus what its bucket refills while the flood is read: RATE a second), closes the
    connection with a clear error, keeps its match and its page; the guest dials again and
    the match goes on."""
    host, guest, wire = online_match.host.page, online_match.guest.page, online_match.wire
    mark = play_steps(online_match, 2)
    before = host_save(host)["match"]["state"]
    started = time.monotonic()
    guest.evaluate("""() => { const channel = window.__lcChannels.at(-1);
        for (let i = 0; i < 2000; i++)
          channel.send(JSON.stringify({v: 1, seq: 100000 + i, type: "ping"})); }""")
    guest.wait_for_function(RECEIVED, arg=["error", "too many messages"])  # host closes
    took = time.monotonic() - started  # at least the host's time from the flood to its close
    got = wire.drain()
    assert any("too many messages" in m.get("message", "") for m in got)
    assert len([m for m in got if m["type"] in ("pong", "error")]) <= BURST + RATE * took + 1
    guest.wait_for_selector("text=too many messages")
    assert host_save(host)["match"]["state"] == before and sync_of(host) == mark
    host.locator("[data-action=rules]:visible").click()  # the host's page still answers clicks
    host.wait_for_selector("#rules:not([hidden])")
    host.click('[data-action="rules-close"]')
    wait_connection("connected", guest, host)  # the guest dials again
    play_steps(online_match, 4)
    assert not online_match.host.page_errors and not online_match.guest.page_errors


def test_hint_for_each_online_player_from_its_own_view(online_match: Match) -> None:
    """Each player may ask for a hint on its own turn: the Hard bot's move for its own view
    (a legal move there); the other screen's hint button is disabled meanwhile, and asking
    sends nothing that leaks (every message the guest got is still checked)."""
    host, guest = online_match.host.page, online_match.guest.page
    play_steps(online_match, 2)
    for _ in range(2):
        state = host_state(host)
        actor, other = (host, guest) if state.to_act == 0 else (guest, host)
        assert other.locator('[data-action="hint"]').is_disabled()
        actor.click('[data-action="hint"]')
        box = actor.wait_for_selector(".hint-box[data-hint]")
        assert box is not None
        move = json.loads(str(box.get_attribute("data-hint")))
        assert move in lostcities.view(state, state.to_act)["legal_moves"]
        assert actor.inner_text(".hint-reason").strip()
        assert other.locator(".hint-box").count() == 0
        assert host_state(host) == state  # asking changes nothing
        play_steps(online_match, 2)  # the turn passes (play, then draw)
    online_match.wire.check(host_state(host))
    assert not online_match.host.page_errors and not online_match.guest.page_errors
