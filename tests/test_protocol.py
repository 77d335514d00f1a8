"""The wire protocol refuses every hostile message with a clear error and changes nothing.

Each message goes through `MatchHost.receive` exactly as a transport would hand it over; the
checks read only the returned messages and the host's public snapshot.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lostcities import Options, apply, legal_moves, move_to_json, new_match, view
from lostcities.cli.host import CONTROLLER, MatchHost
from lostcities.protocol import (
    APP_VERSION, MAX_HOST_MESSAGE_BYTES, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ProtocolError,
    encode, parse_host_message,
)


def msg(seq: int, kind: str, **fields: Any) -> str:
    return json.dumps({"v": PROTOCOL_VERSION, "seq": seq, "type": kind, **fields})


class Seat:
    """One side of a seat-mode host: numbers its messages and keeps what it was sent."""

    def __init__(self, host: MatchHost, seat: int) -> None:
        self.host, self.seat, self.seq = host, seat, 0

    def send(self, kind: str, **fields: Any) -> list[tuple[int, dict[str, Any]]]:
        self.seq += 1
        return self.host.receive(self.seat, msg(self.seq, kind, **fields))


def started_host(**options: Any) -> tuple[MatchHost, Seat, Seat]:
    """A seat-mode host with both seats greeted and a match (seed 7, seat 0 first) started."""
    host = MatchHost()
    seats = Seat(host, 0), Seat(host, 1)
    for seat in seats:
        assert seat.send("hello", name=f"P{seat.seat}", app=APP_VERSION)[0][1]["type"] == "welcome"
    host.start(Options(**options), seed=7, first_player=0, names=("Ana", "Ben"))
    return host, seats[0], seats[1]


def refused(host: MatchHost, peer: int, raw: str | bytes, code: str) -> dict[str, Any]:
    """Send `raw`; check it gets exactly one error of `code` and changes nothing. Returns it."""
    before = host.snapshot()
    out = host.receive(peer, raw)
    after = host.snapshot()
    assert len(out) == 1, out
    recipient, error = out[0]
    assert recipient == peer
    assert error["type"] == "error", error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    assert after["state"] == before["state"]
    for key in before["peers"]:
        b, a = before["peers"][key], after["peers"][key]
        assert (a["greeted"], a["name"], a["last_in"]) == (b["greeted"], b["name"], b["last_in"])
    json.loads(encode(error))  # what goes on the wire is valid JSON
    return error


# ---- the envelope ----------------------------------------------------------------------------


P = '{"v": 1, "seq": 9, '  # a valid envelope start: errors after it refer to seq 9


@pytest.mark.parametrize(
    ("raw", "code", "ref_seq"),
    [
        ("hello there", "bad-json", None),
        ("", "bad-json", None),
        (P + '"type": "ping"', "bad-json", None),
        (b"\xff\xfe{}", "bad-json", None),
        (P + '"type": "ping", "t": NaN}', "bad-json", None),
        (P + '"type": "ping", "t": Infinity}', "bad-json", None),
        (P + '"seq": 10, "type": "ping"}', "bad-json", None),
        (P + '"type": "ping", "t": ' + "[" * 40 + "]" * 40 + "}", "bad-json", None),
        ("[1, 2, 3]", "not-object", None),
        ("42", "not-object", None),
        ("null", "not-object", None),
        ('"ping"', "not-object", None),
        ('{"seq": 9, "type": "ping"}', "bad-message", None),
        ('{"v": "1", "seq": 9, "type": "ping"}', "bad-message", None),
        ('{"v": true, "seq": 9, "type": "ping"}', "bad-message", None),
        ('{"v": 2, "seq": 9, "type": "ping"}', "version-mismatch", None),
        ('{"v": 0, "seq": 9, "type": "hello", "name": "x", "app": "0.1.0"}',
         "version-mismatch", None),
        ('{"v": 1, "type": "ping"}', "bad-message", None),
        ('{"v": 1, "seq": "9", "type": "ping"}', "bad-message", None),
        ('{"v": 1, "seq": 9.0, "type": "ping"}', "bad-message", None),
        ('{"v": 1, "seq": true, "type": "ping"}', "bad-message", None),
        ('{"v": 1, "seq": 0, "type": "ping"}', "bad-message", None),
        ('{"v": 1, "seq": -3, "type": "ping"}', "bad-message", None),
        ('{"v": 1, "seq": 9}', "bad-message", 9),
        (P + '"type": 5}', "bad-message", 9),
        (P + '"type": "teleport"}', "unknown-type", 9),
        (P + '"type": "Ping"}', "unknown-type", 9),
        (P + '"type": "ping", "extra": 1}', "bad-message", 9),
        (P + '"type": "ping", "t": "now"}', "bad-message", 9),
        (P + '"type": "ping", "t": true}', "bad-message", 9),
        (P + '"type": "get-view", "seat": "1"}', "bad-message", 9),
        (P + '"type": "get-view", "seat": 2}', "bad-message", 9),
        (P + '"type": "get-view", "seat": true}', "bad-message", 9),
        (P + '"type": "move"}', "bad-message", 9),
        (P + '"type": "move", "move": "play R7"}', "bad-message", 9),
        (P + '"type": "move", "move": ["play", "R7"]}', "bad-message", 9),
        (P + '"type": "move", "move": null}', "bad-message", 9),
        (P + '"type": "hello", "app": "0.1.0"}', "bad-message", 9),
        (P + '"type": "hello", "name": 5, "app": "0.1.0"}', "bad-message", 9),
        (P + '"type": "hello", "name": "  ", "app": "0.1.0"}', "bad-message", 9),
        (P + '"type": "hello", "name": "a\\u0000b", "app": "0.1.0"}', "bad-message", 9),
        (P + '"type": "hello", "name": "' + "n" * 41 + '", "app": "0.1.0"}', "bad-message", 9),
        (P + '"type": "hello", "name": "x", "app": 1}', "bad-message", 9),
    ],
)
def test_malformed_messages_are_refused_mid_match(
    raw: str | bytes, code: str, ref_seq: int | None
) -> None:
    host, ana, _ = started_host()
    ana.send("get-view")  # seq 2 accepted; the hostile messages use seq 9
    error = refused(host, 0, raw, code)
    assert error["ref_seq"] == ref_seq
    assert ana.send("get-view")[0][1]["type"] == "view"  # the seat plays on normally


def test_nesting_is_limited_to_eight_levels_and_brackets_in_strings_do_not_count() -> None:
    host, ana, _ = started_host()
    # the message is level 1, the move object level 2: six more arrays make eight
    eight = msg(5, "move", move={"type": [[[[[[]]]]]]})
    refused(host, 0, eight, "bad-move")  # parsed, then refused as a move
    nine = msg(5, "move", move={"type": [[[[[[[]]]]]]]})
    assert "nested" in refused(host, 0, nine, "bad-json")["message"]
    out = host.receive(0, msg(5, "hello", name='[[[[{{{{"[[[[[{{{{', app=APP_VERSION))
    assert out[0][1]["type"] == "welcome" and host.name_of(0) == '[[[[{{{{"[[[[[{{{{'


def test_an_oversized_message_is_refused_before_parsing() -> None:
    host, ana, _ = started_host()
    padding = " " * (MAX_MESSAGE_BYTES - len(msg(5, "ping")))
    exactly = msg(5, "ping") + padding
    assert len(exactly.encode()) == MAX_MESSAGE_BYTES
    assert host.receive(0, exactly)[0][1]["type"] == "pong"
    refused(host, 0, msg(6, "ping") + padding + " ", "too-large")
    # counted in UTF-8 bytes, not characters: 2100 two-byte letters are 4200 bytes
    error = refused(host, 0, msg(7, "hello", name="é" * 40, app="é" * 2100), "too-large")
    assert error["ref_seq"] is None
    # even text that is not JSON at all, and bytes
    refused(host, 0, "x" * 1_000_000, "too-large")
    refused(host, 0, b"{" * (MAX_MESSAGE_BYTES + 1), "too-large")


def test_a_replayed_or_stale_seq_is_refused() -> None:
    host, ana, _ = started_host()
    first = msg(1, "ping", t=1)
    # ana already used seq 1 for hello: a replay of any earlier seq is refused
    error = refused(host, 0, first, "replayed")
    assert error["ref_seq"] == 1
    accepted = msg(10, "get-view")
    assert host.receive(0, accepted)[0][1]["type"] == "view"
    refused(host, 0, accepted, "replayed")
    refused(host, 0, msg(9, "get-view"), "replayed")
    # gaps are allowed: strictly increasing is enough
    assert host.receive(0, msg(25, "get-view"))[0][1]["type"] == "view"


def test_a_refused_seq_is_not_used_up() -> None:
    host, ana, _ = started_host()
    refused(host, 0, msg(5, "move", move={"type": "fly"}), "bad-move")
    assert host.receive(0, msg(5, "get-view"))[0][1]["ref_seq"] == 5


def test_hello_comes_first_and_needs_the_same_app_version() -> None:
    host = MatchHost()
    refused(host, 1, msg(1, "get-view"), "no-hello")
    refused(host, 1, msg(1, "ping"), "no-hello")
    error = refused(host, 1, msg(1, "hello", name="Ben", app="0.0.9"), "version-mismatch")
    assert "reload" in error["message"]
    assert error["ref_seq"] == 1
    refused(host, 1, msg(1, "hello", name="Ben", app=APP_VERSION, seat=0), "forbidden")
    refused(host, 1, msg(1, "hello", name="Ben"), "bad-message")  # a browser must say its app
    out = host.receive(1, msg(1, "hello", name="Ben", app=APP_VERSION, seat=1))
    assert [m["type"] for _, m in out] == ["welcome"]
    assert out[0][1] == {"v": 1, "seq": 6, "type": "welcome", "ref_seq": 1, "protocol": 1,
                         "app": APP_VERSION, "seat": 1, "match": False}
    assert host.name_of(1) == "Ben"
    refused(host, 1, msg(2, "get-view"), "no-match")
    refused(host, 1, msg(2, "get-legal-moves"), "no-match")
    refused(host, 1, msg(2, "move", move={"type": "draw", "source": "deck"}), "no-match")


def test_a_seat_cannot_start_a_match_or_speak_for_the_other_seat() -> None:
    host, ana, ben = started_host()
    refused(host, 1, msg(5, "start", options={}, seed=1), "forbidden")
    refused(host, 1, msg(5, "get-view", seat=0), "forbidden")
    refused(host, 1, msg(5, "get-legal-moves", seat=0), "forbidden")
    assert host.state is not None
    move = move_to_json(legal_moves(host.state)[0])
    refused(host, 1, msg(5, "move", seat=0, move=move), "forbidden")
    refused(host, 1, msg(5, "move", move=move), "not-your-turn")
    assert host.receive(1, msg(5, "get-view", seat=1))[0][1]["view"]["player"] == 1


@pytest.mark.parametrize(
    "move",
    [
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "card": "R11"},
        {"type": "play", "card": 7},
        {"type": "play", "card": "R7", "colour": "R"},
        {"type": "draw", "source": "attic"},
        {"type": "pick-job", "job": "astronaut"},
        {},
    ],
)
def test_a_malformed_move_is_refused(move: dict[str, Any]) -> None:
    host, ana, _ = started_host()
    error = refused(host, 0, msg(5, "move", move=move), "bad-move")
    assert error["ref_seq"] == 5


def test_an_illegal_move_is_refused_with_the_engine_reason() -> None:
    host, ana, _ = started_host()
    assert host.state is not None
    hand = view(host.state, 0)["hand"]
    missing = next(f"{c}{n}" for c in "YBWGR" for n in range(2, 11) if f"{c}{n}" not in hand)
    error = refused(host, 0, msg(5, "move", move={"type": "play", "card": missing}),
                    "illegal-move")
    assert "don't hold" in error["message"]
    refused(host, 0, msg(6, "move", move={"type": "draw", "source": "deck"}), "illegal-move")
    refused(host, 0, msg(7, "move", move={"type": "next-round"}), "illegal-move")
    refused(host, 0, msg(8, "move", move={"type": "radio"}), "illegal-move")  # skills are off
    refused(host, 0, msg(9, "move", move={"type": "play", "card": "P5"}), "illegal-move")


def test_out_of_turn_moves_are_refused_even_when_they_would_be_legal() -> None:
    host, ana, ben = started_host()
    state = host.state
    assert state is not None and state.to_act == 0
    bens_card = view(state, 1)["hand"][0]
    refused(host, 1, msg(5, "move", move={"type": "discard", "card": bens_card}),
            "not-your-turn")
    # after ana plays, it is still ana's turn (she must draw)
    first = move_to_json(legal_moves(state)[0])
    out = ana.send("move", move=first)
    assert out[0][1]["type"] == "view"
    refused(host, 1, msg(6, "move", move={"type": "draw", "source": "deck"}), "not-your-turn")


def test_the_controller_must_name_a_seat_and_may_not_claim_one_in_hello() -> None:
    host = MatchHost(controller=True)
    refused(host, CONTROLLER, msg(1, "hello", name="bot", app=APP_VERSION, seat=0), "forbidden")
    refused(host, CONTROLLER, msg(1, "hello", name="bot", app="0.0.1"), "version-mismatch")
    # a program on the command line may leave out the app version ("v" is still checked)
    assert host.receive(CONTROLLER, msg(1, "hello", name="bot"))[0][1]["seat"] is None
    refused(host, CONTROLLER, msg(2, "get-view"), "bad-message")  # no seat and no match
    assert host.receive(CONTROLLER, msg(2, "start", options={}, seed=1))[0][1]["type"] == "view"
    for kind in ("get-view", "get-legal-moves"):
        refused(host, CONTROLLER, msg(3, kind), "bad-message")
    refused(host, CONTROLLER, msg(3, "move", move={"type": "draw", "source": "deck"}),
            "bad-message")


@pytest.mark.parametrize(
    "fields",
    [
        {"options": {"rounds": 9}, "seed": 1},
        {"options": {"rounds": "3"}, "seed": 1},
        {"options": {"jobs": 1}, "seed": 1},
        {"options": {"turbo": True}, "seed": 1},
        {"options": [], "seed": 1},
        {"options": {}, "seed": 1.5},
        {"options": {}, "seed": "1"},
        {"options": {}, "seed": True},
        {"options": {}, "seed": 2**64},
        {"options": {}},
        {"seed": 1},
        {"options": {}, "seed": 1, "names": ["solo"]},
        {"options": {}, "seed": 1, "names": ["a", 2]},
        {"options": {}, "seed": 1, "names": "ab"},
        {"options": {}, "seed": 1, "first_player": 2},
        {"options": {}, "seed": 1, "first_player": "0"},
    ],
)
def test_a_bad_start_is_refused_and_keeps_the_current_match(fields: dict[str, Any]) -> None:
    host = MatchHost(controller=True)
    host.receive(CONTROLLER, msg(1, "hello", name="bot", app=APP_VERSION))
    host.receive(CONTROLLER, msg(2, "start", options={"rounds": 1}, seed=3))
    refused(host, CONTROLLER, msg(3, "start", **fields), "bad-message")
    assert host.state is not None and host.state.options.rounds == 1


def test_a_start_replaces_the_match_and_answers_with_the_view_of_the_player_to_act() -> None:
    host = MatchHost(controller=True)
    host.receive(CONTROLLER, msg(1, "hello", name="bot", app=APP_VERSION))
    out = host.receive(CONTROLLER, msg(2, "start", options={"sixth_colour": True}, seed=11,
                                       names=["Ana", "Ben"], first_player=1))
    [(peer, reply)] = out
    expected = new_match(Options(sixth_colour=True), seed=11, first_player=1,
                         names=("Ana", "Ben"))
    assert peer == CONTROLLER and reply["ref_seq"] == 2
    assert reply["view"] == view(expected, 1)
    out = host.receive(CONTROLLER, msg(3, "start", options={}, seed=11, first_player=None))
    chosen = new_match(Options(), seed=11, first_player=None)
    assert out[0][1]["view"] == view(chosen, chosen.to_act or 0)


def test_ping_is_answered_with_pong_echoing_t() -> None:
    host, ana, _ = started_host()
    [(_, pong)] = ana.send("ping", t=12.5)
    assert pong == {"v": 1, "seq": pong["seq"], "type": "pong", "ref_seq": ana.seq, "t": 12.5}
    [(_, pong)] = ana.send("ping")
    assert "t" not in pong


def test_legal_moves_are_listed_for_the_seat_to_act_only() -> None:
    host, ana, ben = started_host(skills=True)
    state = host.state
    assert state is not None
    [(_, mine)] = ana.send("get-legal-moves")
    assert mine["type"] == "legal-moves" and mine["seat"] == 0
    assert mine["moves"] == [move_to_json(m) for m in legal_moves(state)]
    [(_, theirs)] = ben.send("get-legal-moves")
    assert theirs["moves"] == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=12,
)
envelope_keys = st.sampled_from(["v", "seq", "type", "move", "seat", "name", "app", "t",
                                 "options", "seed", "names", "first_player"])


@settings(max_examples=300, deadline=None)
@given(
    raw=st.one_of(
        st.text(max_size=60),
        st.binary(max_size=60),
        json_values.map(json.dumps),
        st.dictionaries(envelope_keys, json_values, max_size=6).map(json.dumps),
        st.fixed_dictionaries(
            {"v": st.just(1), "seq": st.integers(-2, 50),
             "type": st.sampled_from(["move", "get-view", "hello", "start", "ping"]),
             "move": st.dictionaries(st.sampled_from(["type", "card", "source", "colour", "job"]),
                                     st.text(max_size=4) | json_values, max_size=3)},
        ).map(json.dumps),
    ),
    peer=st.sampled_from([0, 1]),
)
def test_no_input_ever_raises_or_changes_a_match_unless_accepted(raw: Any, peer: int) -> None:
    host, ana, ben = started_host(skills=True, jobs=True)
    before = host.snapshot()
    out = host.receive(peer, raw)
    assert out and all(recipient in (0, 1) for recipient, _ in out)
    first = out[0][1]
    assert first["type"] in ("error", "view", "welcome", "pong", "legal-moves")
    if first["type"] == "error":
        assert len(out) == 1
        assert host.snapshot()["state"] == before["state"]
    for _, message in out:
        json.loads(encode(message))


def test_an_accepted_move_answers_the_mover_and_tells_the_other_seat() -> None:
    host, ana, ben = started_host()
    state = host.state
    assert state is not None
    move = legal_moves(state)[0]
    out = ana.send("move", move=move_to_json(move))
    after = apply(state, move)
    assert [(peer, m["type"]) for peer, m in out] == [(0, "view"), (1, "view")]
    assert out[0][1]["ref_seq"] == ana.seq and "ref_seq" not in out[1][1]
    assert out[0][1]["view"] == view(after, 0)
    assert out[1][1]["view"] == view(after, 1)


# ---- a client checks what the host sends ----------------------------------------------------

H = '{"v": 1, "seq": 4, '


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("<html>", "bad-json"),
        ("[]", "not-object"),
        ('{"v": 2, "seq": 4, "type": "view", "view": {}}', "version-mismatch"),
        ('{"v": 1, "seq": 3, "type": "view", "view": {}}', "replayed"),
        ('{"v": 1, "seq": "4", "type": "view", "view": {}}', "bad-message"),
        (H + '"type": "hello", "name": "x"}', "unknown-type"),
        (H + '"type": "view"}', "bad-message"),
        (H + '"type": "view", "view": []}', "bad-message"),
        (H + '"type": "view", "view": {}, "state": {}}', "bad-message"),
        (H + '"type": "view", "view": {}, "ref_seq": 0}', "bad-message"),
        (H + '"type": "match-end", "view": {}, "winner": 2, "totals": [1, 2]}', "bad-message"),
        (H + '"type": "match-end", "view": {}, "winner": 0, "totals": [1]}', "bad-message"),
        (H + '"type": "legal-moves", "seat": 0, "moves": ["play"]}', "bad-message"),
        (H + '"type": "welcome", "protocol": 1, "app": "0.1.0", "seat": 3, "match": true}',
         "bad-message"),
        (H + '"type": "welcome", "protocol": 1, "app": "0.1.0", "seat": 1, "match": 1}',
         "bad-message"),
        (H + '"type": "error", "code": "x", "message": "y"}', "bad-message"),
        (H + '"type": "error", "ref_seq": null, "code": 5, "message": "y"}', "bad-message"),
        (H + '"type": "pong", "t": "soon"}', "bad-message"),
        (H + '"type": "view", "view": {"log": "' + "x" * MAX_HOST_MESSAGE_BYTES + '"}}',
         "too-large"),
        (H + '"type": "view", "view": ' + "[" * 20 + "]" * 20 + "}", "bad-json"),
    ],
)
def test_a_client_refuses_a_bad_host_message(raw: str, code: str) -> None:
    with pytest.raises(ProtocolError) as refusal:
        parse_host_message(raw, 3)
    assert refusal.value.code == code


def test_a_client_accepts_what_a_host_sends() -> None:
    host, ana, ben = started_host()
    last = 0
    for kind, fields in [("get-view", {}), ("ping", {"t": 1}), ("get-legal-moves", {}),
                         ("move", {"move": {"type": "fly"}})]:
        [(_, message)] = ana.send(kind, **fields)
        checked = parse_host_message(encode(message), last)
        assert checked.type == message["type"] and checked.seq > last
        last = checked.seq


@pytest.mark.parametrize("refusal", [
    {"code": "below-top"}, {"code": "nope", "data": {}}, {"code": "pile-empty", "data": {}},
    {"code": "pile-empty", "data": {"colour": ["R"]}},
    {"code": "pile-empty", "data": {"colour": True}},
    "below-top", None,
])
def test_a_host_error_with_a_malformed_refusal_is_refused(refusal: object) -> None:
    raw = json.dumps({"v": 1, "seq": 1, "type": "error", "ref_seq": None, "code": "illegal-move",
                      "message": "no", "refusal": refusal})
    with pytest.raises(ProtocolError):
        parse_host_message(raw, 0)
