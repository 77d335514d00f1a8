"""The online host and guest without a browser: real engine, real MatchHost, an in-memory wire.

The wire (`Wire`) stands in for a PeerJS data connection only: it carries text both ways and
records everything the guest received, which is checked against the host's hidden cards.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import lostcities
from lostcities import Options
from leakcheck import check_guest_message
from lostcities.protocol import APP_VERSION
from webui.online.codes import (
    ALPHABET, code_from_query, join_link, new_code, normalize_code, peer_id,
)
from webui.seats.remote_guest import OnlineGuest
from webui.seats.remote_host import OnlineHost, new_token, refusal
from webui.online.liveness import (
    BURST, CLOSE_AFTER_DROPS, LOST_AFTER, RATE, RateLimit, connection_state,
)

TOKEN = "T" * 20


class Wire:
    """One connection: the host side's Link, delivering to the guest at once."""

    def __init__(self, guest: OnlineGuest, host: OnlineHost | None = None) -> None:
        self.guest = guest
        self.host = host  # when given, every message is checked for hidden cards as it goes
        self.received: list[str] = []  # every text the guest got
        self.closed = False
        self.now = 0.0

    def send(self, text: str) -> None:
        if not self.closed:
            self.received.append(text)
            if self.host is not None and self.host.state is not None:
                check_guest_message(json.loads(text), self.host.state)
            self.guest.receive(text, self.now)

    def close(self) -> None:
        self.closed = True


def connect(host: OnlineHost, guest: OnlineGuest, token: str = TOKEN) -> Wire:
    wire = Wire(guest, host)
    assert host.accept(wire, {"token": token}, 0.0) is None
    guest.opened(lambda text: host.receive(wire, text, wire.now), 0.0)
    return wire


def new_pair(options: Options = Options(), first: int | None = 0) -> tuple[OnlineHost, OnlineGuest]:
    host = OnlineHost("ABCDEF", options, first, "Ana", 7, 0.0)
    guest = OnlineGuest("abc-def", TOKEN, "Ben", 0.0)
    return host, guest


def match_state(host: OnlineHost) -> Any:
    """The host's engine state as JSON (what a refused message must leave unchanged)."""
    return host.to_json()["match"]["state"]


def play_random(host: OnlineHost, guest: OnlineGuest, wire: Wire, rng: random.Random,
                steps: int) -> None:
    for _ in range(steps):
        state = host.state
        assert state is not None
        if state.phase == "match-end":
            return
        actor = state.to_act if state.to_act is not None else rng.choice((0, 1))
        seat_view = host.view() if actor == 0 else guest.view()
        legal = seat_view["legal_moves"]
        move = rng.choice([m for m in legal if m["type"] != "undo"] or legal)
        wire.now += 0.5  # a move every half second: well within the guest's rate limit
        refusal_text = host.submit(move) if actor == 0 else guest.submit(move)
        assert refusal_text is None
        assert guest.view() == lostcities.view(host.state, 1)  # type: ignore[arg-type]
        assert host.view() == lostcities.view(host.state, 0)  # type: ignore[arg-type]


# ---- codes -----------------------------------------------------------------------------------


def test_codes_avoid_look_alikes_and_normalize() -> None:
    assert not set("0O1IL") & set(ALPHABET)
    code = new_code()
    assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert normalize_code(" abc-def ") == "ABCDEF"
    assert peer_id("abcdef") == "lostcities-ABCDEF"
    for bad in ("ABCDE", "ABCDEFG", "ABCDE0", "ABCDEO", 12, "ABC DE!"):
        with pytest.raises(ValueError):
            normalize_code(bad)


def test_join_link_keeps_broker_and_fills_the_code() -> None:
    link = join_link("https://x.org/lc/?broker=p.x.org:443/a&seed=3&room=ZZZZZZ#f", "abcdef")
    assert link == "https://x.org/lc/?broker=p.x.org%3A443%2Fa&room=ABCDEF"
    assert code_from_query(link.split("?", 1)[1]) == "ABCDEF"
    assert code_from_query("?lang=es") is None


def test_liveness_states() -> None:
    assert connection_state(True, 0.5) == "connected"
    assert connection_state(True, 5.0) == "reconnecting"
    assert connection_state(False, 1.0) == "reconnecting"
    assert connection_state(True, LOST_AFTER) == "lost"


# ---- a match ----------------------------------------------------------------------------------


def test_match_starts_when_the_guest_says_hello_and_plays_to_the_end() -> None:
    host, guest = new_pair(Options(rounds=1, jobs=True, skills=True, objectives=True,
                                   mixups=True, sixth_colour=True), first=None)
    assert not host.has_match and host.submit({"type": "undo"}) is not None
    wire = connect(host, guest)
    assert host.has_match and guest.has_match and guest.joined
    assert host.view()["names"] == ["Ana", "Ben"] and guest.view()["player"] == 1
    assert guest.view()["options"]["jobs"] is True  # the guest gets the host's options
    play_random(host, guest, wire, random.Random(3), 1000)
    assert host.view()["phase"] == "match-end"
    assert host.view()["totals"] == guest.view()["totals"]


def test_guest_receives_no_hidden_card_ever() -> None:
    host, guest = new_pair(Options(rounds=1))
    wire = connect(host, guest)
    play_random(host, guest, wire, random.Random(11), 400)
    assert len(wire.received) > 50


def test_refusals_from_the_host_reach_the_guest_and_change_nothing() -> None:
    host, guest = new_pair()
    connect(host, guest)
    before = match_state(host)
    assert guest.submit({"type": "play", "card": "R7"}) is None  # host to act: not guest's turn
    assert guest.error is not None and "turn" in guest.error
    assert match_state(host) == before


def test_hostile_guest_gets_a_clear_error_for_each_message() -> None:
    host, guest = new_pair()
    wire = connect(host, guest)
    hand = guest.view()["hand"]
    out_of_turn = json.dumps({"v": 1, "seq": 800, "type": "move",
                              "move": {"type": "discard", "card": hand[0]}})
    host.receive(wire, out_of_turn, 0.0)  # the host is to act
    assert json.loads(wire.received[-1])["code"] == "not-your-turn"
    for kind in ("discard", "draw"):  # the host discards and draws: now the guest is to act
        assert host.submit(next(m for m in host.view()["legal_moves"] if m["type"] == kind)) \
            is None
    state = host.state
    hostile = {
        "garbage": "\x00 not json {",
        "wrong types": json.dumps({"v": 1, "seq": 900, "type": "move", "move": "R7"}),
        "unknown type": json.dumps({"v": 1, "seq": 901, "type": "deal-me-aces"}),
        "illegal": json.dumps({"v": 1, "seq": 902, "type": "move",
                               "move": {"type": "draw", "source": "deck"}}),
        "other seat": json.dumps({"v": 1, "seq": 903, "type": "move", "seat": 0,
                                  "move": {"type": "play", "card": hand[0]}}),
        "replayed": json.dumps({"v": 1, "seq": 1, "type": "ping"}),
        "huge": json.dumps({"v": 1, "seq": 904, "type": "ping", "pad": "x" * 100_000}),
        "start": json.dumps({"v": 1, "seq": 905, "type": "start", "options": {}, "seed": 1}),
        "old version": json.dumps({"v": 0, "seq": 906, "type": "ping"}),
    }
    expected = {"garbage": "bad-json", "wrong types": "bad-message",
                "unknown type": "unknown-type", "illegal": "illegal-move",
                "other seat": "forbidden", "replayed": "replayed", "huge": "too-large",
                "start": "forbidden", "old version": "version-mismatch"}
    before = match_state(host)
    for name, raw in hostile.items():
        count = len(wire.received)
        host.receive(wire, raw, 0.0)
        reply = json.loads(wire.received[count])
        assert reply["type"] == "error" and reply["code"] == expected[name], name
        assert reply["message"]
        assert match_state(host) == before, name
    # the guest's own connection still works afterwards
    assert guest.submit(guest.view()["legal_moves"][0]) is None
    assert host.state is not state


def test_wrong_token_is_refused_and_the_seat_stays_with_its_guest() -> None:
    host, guest = new_pair()
    connect(host, guest)
    intruder = OnlineGuest("ABCDEF", new_token(), "Eve", 0.0)
    wire = Wire(intruder)
    before = match_state(host)
    assert host.accept(wire, {"token": intruder.token}, 0.0) is not None
    assert json.loads(wire.received[0])["code"] == "forbidden"
    assert intruder.refused and "already has a guest" in intruder.refused
    assert host.accept(Wire(intruder), {}, 0.0) is not None
    assert host.accept(Wire(intruder), "junk", 0.0) is not None
    assert match_state(host) == before


def test_guest_reconnect_resumes_and_the_stale_link_is_ignored() -> None:
    host, guest = new_pair()
    old = connect(host, guest)
    host.submit(host.view()["legal_moves"][0])
    rejoined = OnlineGuest.from_json(json.loads(json.dumps(guest.to_json())), 0.0)
    new = connect(host, rejoined)
    assert old.closed
    assert rejoined.view() == lostcities.view(host.state, 1)  # type: ignore[arg-type]
    before, count = match_state(host), len(old.received)
    host.receive(old, json.dumps({"v": 1, "seq": 50, "type": "ping"}), 0.0)
    assert len(old.received) == count
    assert match_state(host) == before  # the stale connection is deaf
    play_random(host, rejoined, new, random.Random(5), 30)


def test_every_guest_move_is_heard_and_the_host_save_restores_exactly() -> None:
    """The host's page hears each change the guest makes (and shows and saves it: the
    controller); a save made then resumes the room exactly."""
    host, guest = new_pair(Options(rounds=1))
    heard: list[Any] = []
    host.set_on_change(lambda: heard.append(host.state))
    wire = connect(host, guest)
    rng = random.Random(2)
    for _ in range(15):
        before = host.state
        assert before is not None
        play_random(host, guest, wire, rng, 1)
        if before.to_act == 1:
            assert heard[-1] is host.state  # the guest's move was heard
    save = host.to_json()
    restored = OnlineHost.from_json(json.loads(json.dumps(save)), 10.0)
    assert restored.view() == host.view()
    assert restored.connection(10.0) == "reconnecting"
    guest2 = OnlineGuest.from_json(guest.to_json(), 10.0)
    wire2 = connect(restored, guest2)
    assert guest2.view() == guest.view()
    play_random(restored, guest2, wire2, random.Random(4), 400)
    assert restored.view()["phase"] == "match-end"


def test_corrupt_saves_are_refused() -> None:
    host, _ = new_pair()
    good = host.to_json()
    for change in ({"format": "x"}, {"version": 2}, {"token": "short"}, {"local_seq": 0},
                   {"first_player": 2}, {"match": {}}, {"code": "O0O0O0"}):
        with pytest.raises(ValueError):
            OnlineHost.from_json({**good, **change}, 0.0)
    with pytest.raises(ValueError):
        OnlineGuest.from_json({"format": "lostcities-online-guest", "version": 1}, 0.0)


def test_guest_checks_host_messages() -> None:
    host, guest = new_pair()
    connect(host, guest)
    seen = guest.view()
    guest.receive("not json", 0.0)
    assert guest.error and guest.view() == seen
    guest.receive(json.dumps({"v": 1, "seq": 1, "type": "view", "view": {"player": 1}}), 0.0)
    assert guest.view() == seen  # replayed seq: dropped
    guest.receive(json.dumps({"v": 1, "seq": 99, "type": "view", "view": {"player": 0}}), 0.0)
    assert guest.view() == seen and guest.error
    guest.receive(json.dumps({"v": 2, "seq": 100, "type": "view"}), 0.0)
    assert guest.reload_needed


def test_version_mismatch_tells_the_guest_to_reload() -> None:
    host, guest = new_pair()
    wire = Wire(guest)
    host.accept(wire, {"token": TOKEN}, 0.0)
    host.receive(wire, json.dumps({"v": 1, "seq": 1, "type": "hello", "name": "Ben",
                                   "app": "0.0.1"}), 0.0)
    assert guest.reload_needed and "reload" in guest.reload_needed
    assert not host.has_match


def test_refusal_text_is_a_protocol_error() -> None:
    message = json.loads(refusal("forbidden", "no"))
    assert message == {"v": 1, "seq": 1, "type": "error", "ref_seq": None,
                       "code": "forbidden", "message": "no"}


def test_a_guest_pings_only_once_welcomed_and_stops_when_turned_away() -> None:
    guest = OnlineGuest("ABCDEF", TOKEN, "Ben", 0.0)
    sent: list[str] = []
    guest.opened(sent.append, 0.0)
    guest.ping()  # no answer to the hello yet: no ping
    guest.receive(json.dumps({"v": 1, "seq": 1, "type": "welcome", "ref_seq": 1, "protocol": 1,
                              "app": APP_VERSION, "seat": 1, "match": False}), 0.0)
    guest.ping()
    assert [json.loads(m)["type"] for m in sent] == ["hello", "ping"]
    guest.receive(json.dumps({"v": 1, "seq": 2, "type": "error", "ref_seq": 2,
                              "code": "version-mismatch", "message": "reload"}), 0.0)
    assert guest.reload_needed
    guest.ping()
    assert len(sent) == 2
    guest.opened(sent.append, 1.0)  # a new channel: silent again until welcomed
    guest.ping()
    assert [json.loads(m)["type"] for m in sent] == ["hello", "ping", "hello"]


def test_the_leak_detector_catches_a_planted_card() -> None:
    host, guest = new_pair()
    connect(host, guest)
    state = host.state
    assert state is not None
    secret = next(c for c in lostcities.state_to_json(state)["hands"][0] if c[1] != "H")
    view = lostcities.view(state, 1)
    check_guest_message({"type": "view", "view": view}, state)  # the real view passes
    with pytest.raises(AssertionError, match="hidden cards"):
        check_guest_message({"type": "pong", "note": [secret]}, state)
    with pytest.raises(AssertionError, match="would not give"):
        check_guest_message({"type": "view", "view": {**view, "deck_count": 0}}, state)


def test_rate_limit_allows_a_burst_then_the_rate() -> None:
    limit = RateLimit(0.0, rate=10.0, burst=3)
    assert [limit.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert limit.allow(0.1) and not limit.allow(0.1)
    assert limit.allow(10.0) and limit.dropped == 2


def test_a_flooding_guest_is_cut_off_and_the_match_is_unchanged() -> None:
    host, guest = new_pair()
    warnings: list[str] = []
    host.set_on_warn(warnings.append)
    wire = connect(host, guest)
    play_random(host, guest, wire, random.Random(6), 3)
    before, answered = match_state(host), len(wire.received)
    flood = [json.dumps({"v": 1, "seq": 1000 + i, "type": "ping"}) for i in range(5000)]
    for text in flood:
        host.receive(wire, text, wire.now)  # all at once: far over the rate
    answers = [json.loads(t) for t in wire.received[answered:]]
    assert len(answers) <= BURST + 1  # the excess was dropped unread, not answered
    assert answers[-1]["type"] == "error" and "too many messages" in answers[-1]["message"]
    assert guest.error and "too many messages" in guest.error  # the guest is told why
    assert wire.closed and host.connection(wire.now) != "connected"
    assert host.limit.dropped == CLOSE_AFTER_DROPS
    assert len(warnings) == 2 and "dropping" in warnings[0]
    assert match_state(host) == before
    wire.now += 10  # the guest dials again: a fresh budget, and the match goes on
    rejoined = OnlineGuest.from_json(guest.to_json(), wire.now)
    again = connect(host, rejoined)
    again.now = wire.now
    assert rejoined.view() == lostcities.view(host.state, 1)  # type: ignore[arg-type]
    play_random(host, rejoined, again, random.Random(7), 6)


def test_an_honest_guest_at_the_rate_is_never_dropped() -> None:
    host, guest = new_pair()
    wire = connect(host, guest)
    for i in range(200):
        wire.now = i / RATE
        guest.ping()
    assert host.limit.dropped == 0 and not guest.error


def test_the_guest_learns_that_the_host_closed_the_game_or_left_for_good() -> None:
    host, guest = new_pair()
    stranger = OnlineGuest("ABCDEF", new_token(), "Eve", 0.0)
    stranger.host_closed()  # never joined: no room yet, not a host that went away
    assert stranger.host_away is None
    wire = connect(host, guest)
    guest.closed()
    guest.host_closed()  # the broker no longer knows the room
    assert guest.host_away == "closed"
    wire = connect(host, guest)  # the host's game is back: the match resumes
    assert guest.host_away is None and guest.connection(0.0) == "connected"
    play_random(host, guest, wire, random.Random(8), 3)
    before = match_state(host)
    host.leave()
    goodbye = json.loads(wire.received[-1])
    assert (goodbye["type"], goodbye["code"]) == ("error", "no-match")
    assert guest.host_away == "left" and wire.closed and not guest.error
    assert match_state(host) == before


def test_a_pong_redraws_nothing_but_counts_as_hearing_the_host() -> None:
    host, guest = new_pair()
    wire = connect(host, guest)
    changes: list[int] = []
    guest.set_on_change(lambda: changes.append(1))
    wire.now = LOST_AFTER - 1
    guest.ping()  # the host answers pong at once on the wire
    assert json.loads(wire.received[-1])["type"] == "pong"
    assert not changes and guest.live.last_heard == LOST_AFTER - 1
    play_random(host, guest, wire, random.Random(9), 2)
    assert changes  # views still redraw
