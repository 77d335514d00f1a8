"""Fuzzing what a peer sends: the parsers raise nothing but ProtocolError, and the host answers
every message, refusing bad ones without changing anything.

Inputs range from arbitrary text and bytes through JSON of any shape and envelopes with
plausible fields to real messages with a few characters changed and the hostile shapes of the
nesting check (unterminated strings of escaped quotes, deep brackets). The host runs a real
match with every option on, with legal moves mixed in so that the fuzz reaches every phase.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lostcities import Options, legal_moves, move_to_json
from lostcities.cli.host import MatchHost
from lostcities.protocol import (
    APP_VERSION, CLIENT_TYPES, ERROR_CODES, HOST_TYPES, INTERNAL, MAX_HOST_MESSAGE_BYTES,
    MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ProtocolError, Request, encode, parse_host_message,
    parse_request,
)

TRICKY = '[]{}"\\,:/ \t\n\x00\x02\x7f\u200b\u202e\u00e9\U0001f600aY7'
tricky_text = st.text(alphabet=TRICKY, max_size=8) | st.text(max_size=8)

plausible = st.one_of(
    st.sampled_from(["Y7", "RH", "P10", "B2", "W", "G", "R", "deck", "play", "discard", "draw",
                     "undo", "radio", "airlift", "sabotage", "pick-job", "next-round",
                     "surveyor", APP_VERSION, "Ben", "draw", "X9"]),
    st.integers(-3, 3), st.integers(), st.sampled_from([0, 1, None, True, False, 2**63, -0.0]),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | tricky_text | plausible,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky_text, inner, max_size=4),
    max_leaves=20,
)
FIELD_NAMES = sorted({name for spec in (*CLIENT_TYPES.values(), *HOST_TYPES.values())
                      for name in spec} | {"v", "seq", "type", "card", "source", "colour"})


def moves() -> st.SearchStrategy[dict[str, Any]]:
    """Move objects, mostly well-formed in shape, often wrong in content."""
    return st.dictionaries(st.sampled_from(["type", "card", "source", "colour", "job", "x"]),
                           plausible | json_values, max_size=3)


GOOD: dict[str, st.SearchStrategy[Any]] = {
    "name": st.sampled_from(["Ben", "Ana"]), "app": st.just(APP_VERSION),
    "seat": st.sampled_from([0, 1]), "move": moves(), "t": st.integers() | st.floats(0, 1e9),
    "options": st.fixed_dictionaries({}, optional={"rounds": st.integers(1, 5),
                                                   "jobs": st.booleans()}),
    "seed": st.integers(-(2**63), 2**63), "names": st.lists(tricky_text, min_size=2, max_size=2),
    "first_player": st.sampled_from([0, 1, None]),
    "view": st.dictionaries(tricky_text, json_values, max_size=4),
    "ref_seq": st.integers(1, 60), "winner": st.sampled_from([0, 1, "draw"]),
    "totals": st.lists(st.integers(), min_size=2, max_size=2),
    "moves": st.lists(moves(), max_size=3), "code": tricky_text, "message": tricky_text,
    "refusal": st.sampled_from([
        {"code": "below-top", "data": {"card": "R4", "colour": "R", "top": 7}},
        {"code": "deck-empty", "data": {}}, {"code": "wrong-phase", "data": {"phase": "draw"}},
    ]),
    "protocol": st.just(PROTOCOL_VERSION), "match": st.booleans(),
}
"""Each field's right (or nearly right) values; junk is drawn as often as both together."""


def field_values(name: str) -> st.SearchStrategy[Any]:
    return st.one_of(GOOD[name], GOOD[name], plausible | json_values)


@st.composite
def envelopes(draw: st.DrawFn, types: Any) -> dict[str, Any]:
    """Messages of one of `types` (or an unknown type) with some of its fields: most often a
    valid envelope; now and then an extra field, another version or a bad seq."""
    valid_most_often = st.integers(0, 7).map(lambda n: n != 7)
    kind = draw(st.sampled_from(sorted(types)) if draw(valid_most_often) else tricky_text)
    message: dict[str, Any] = {
        "v": PROTOCOL_VERSION if draw(valid_most_often) else draw(plausible),
        "seq": draw(st.integers(1, 60) if draw(valid_most_often) else plausible),
        "type": kind,
    }
    for name, (_, required) in types.get(kind, {}).items():
        if draw(valid_most_often) if required else draw(st.booleans()):
            message[name] = draw(field_values(name))
    if draw(st.integers(0, 7)) == 0:
        message[draw(st.sampled_from(FIELD_NAMES) | tricky_text)] = draw(json_values)
    return message


def messages(types: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Envelopes, or objects with any of the protocol's field names."""
    return envelopes(types) | st.dictionaries(st.sampled_from(FIELD_NAMES) | tricky_text,
                                              json_values, max_size=6)


@st.composite
def mutated(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> str:
    """A text with a few characters inserted, deleted or replaced."""
    text = draw(texts)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "replace"]))
        new = draw(st.text(alphabet=TRICKY, min_size=1, max_size=3))
        if edit == "insert":
            text = text[:at] + new + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + 1:]
        else:
            text = text[:at] + new + text[at + len(new):]
    return text


@st.composite
def hostile_shapes(draw: st.DrawFn, limit: int) -> str:
    """The inputs that cost the old nesting check dearly, and deep brackets of every kind."""
    size = draw(st.integers(0, limit))
    opens = draw(st.text(alphabet="[{", min_size=1, max_size=20))
    kind = draw(st.sampled_from(["escaped", "backslashes", "deep", "strings"]))
    if kind == "escaped":
        body = opens + '"' + '\\"' * (size // 2)
    elif kind == "backslashes":
        body = opens + '"' + "\\" * size
    elif kind == "deep":
        body = "[" * (size // 2) + "]" * (size // 2)
    else:
        body = opens + '"[",' * (size // 4)
    return body[:limit + draw(st.integers(-2, 2))]


def client_texts() -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        st.text(max_size=80), st.binary(max_size=80), json_values.map(json.dumps),
        messages(CLIENT_TYPES).map(json.dumps), mutated(messages(CLIENT_TYPES).map(json.dumps)),
        messages(CLIENT_TYPES).map(lambda m: json.dumps(m, ensure_ascii=False).encode()),
        hostile_shapes(MAX_MESSAGE_BYTES),
    )


def host_texts() -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        st.text(max_size=80), st.binary(max_size=80), json_values.map(json.dumps),
        messages(HOST_TYPES).map(json.dumps), mutated(messages(HOST_TYPES).map(json.dumps)),
        hostile_shapes(MAX_HOST_MESSAGE_BYTES // 16),
    )


def checked(request: Request, types: Any, last_seq: int) -> None:
    """What a parser returns is an envelope it checked."""
    assert request.type in types and request.seq > last_seq
    assert set(request.fields) <= set(types[request.type])


@settings(max_examples=300, deadline=None)
@given(raw=client_texts(), last_seq=st.integers(0, 40))
def test_parse_request_raises_nothing_but_protocol_error(raw: str | bytes, last_seq: int) -> None:
    try:
        checked(parse_request(raw, last_seq), CLIENT_TYPES, last_seq)
    except ProtocolError as exc:
        assert exc.code in ERROR_CODES and exc.message


@settings(max_examples=300, deadline=None)
@given(raw=host_texts(), last_seq=st.integers(0, 40))
def test_parse_host_message_raises_nothing_but_protocol_error(
        raw: str | bytes, last_seq: int) -> None:
    try:
        checked(parse_host_message(raw, last_seq), HOST_TYPES, last_seq)
    except ProtocolError as exc:
        assert exc.code in ERROR_CODES and exc.message


def started() -> tuple[MatchHost, list[int]]:
    """A host with both seats greeted and a match with every option on; each seat's seq."""
    host = MatchHost()
    for seat in (0, 1):
        hello = json.dumps({"v": 1, "seq": 1, "type": "hello", "name": f"P{seat}",
                            "app": APP_VERSION})
        assert host.receive(seat, hello)[0][1]["type"] == "welcome"
    options = Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
                      mixups=True)
    host.start(options, seed=11, first_player=0, names=("Ana", "Ben"))
    return host, [1, 1]


def legal_message(host: MatchHost, seqs: list[int], pick: int) -> tuple[int, str]:
    """A legal move by a seat that may act, with that seat's next seq."""
    state = host.state
    assert state is not None
    seat = state.to_act if state.to_act is not None else pick % 2
    choices = legal_moves(state)
    move = move_to_json(choices[pick % len(choices)]) if choices else {"type": "undo"}
    seqs[seat] += 1
    return seat, json.dumps({"v": 1, "seq": seqs[seat], "type": "move", "move": move})


def unchanged_but_the_error(before: dict[str, Any], after: dict[str, Any], peer: int) -> None:
    """A refusal changes nothing but the count of messages sent to the refused peer."""
    assert after["state"] == before["state"]
    for key, session in before["peers"].items():
        expected = dict(session)
        if key == str(peer):
            expected["last_out"] += 1
        assert after["peers"][key] == expected


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_host_answers_everything_and_a_refusal_changes_nothing(data: st.DataObject) -> None:
    host, seqs = started()
    for _ in range(data.draw(st.integers(1, 12), label="messages")):
        state = host.state
        raw: str | bytes
        if state is not None and state.phase != "match-end" and data.draw(st.booleans()):
            peer, raw = legal_message(host, seqs, data.draw(st.integers(0, 50)))
        else:
            peer = data.draw(st.sampled_from([0, 1]), label="peer")
            raw = data.draw(client_texts(), label="raw")
        before = host.snapshot()
        out = host.receive(peer, raw)
        after = host.snapshot()
        assert out and all(recipient in (0, 1) for recipient, _ in out)
        for _, message in out:
            json.loads(encode(message))
            assert message.get("code") != INTERNAL, message
        first = out[0][1]
        if first["type"] == "error":
            assert len(out) == 1 and out[0][0] == peer
            unchanged_but_the_error(before, after, peer)
        else:
            assert after["peers"][str(peer)]["last_in"] > before["peers"][str(peer)]["last_in"]
            seqs[peer] = after["peers"][str(peer)]["last_in"]
