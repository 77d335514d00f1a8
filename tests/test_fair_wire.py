"""Fair-play messages are strangers: each is checked field by field on arrival, and a bad one
stops the match (the evidence kept) without changing anything else. Saves are strangers too."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest
from fairwire import GROUP, Wire

from lostcities import CorruptSave, Options
from lostcities.fair import FairPeer, MatchStopped, ProtocolViolation
from lostcities.fair.codec import encode
from lostcities.fair.group import ORDER
from lostcities.fair.wire import MAX_MESSAGE_CHARS, dumps, parse

PLAIN = Options(rounds=1)


def first_message() -> tuple[Wire, str]:
    """A wire whose seat 0 has sent its first shuffle, not yet delivered."""
    wire = Wire(PLAIN, first_player=0, seed=9)
    assert len(wire.flight) == 1
    return wire, wire.flight.popleft()[1]


def edited(change: Callable[[dict[str, Any]], Any]) -> Callable[[str], str]:
    def edit(text: str) -> str:
        data = json.loads(text)
        result = change(data)
        return dumps(data if result is None else result)
    return edit


def share_of(scalar: bytes) -> str:
    """A share on the wire: a valid point, then ``scalar`` as its challenge and response."""
    return encode(GROUP.base(b"\x09" + bytes(31)) + scalar + scalar)


def decode_proof(data: dict[str, Any]) -> bytes:
    text = data["shuffle"]["proofs"]["cards"]
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def with_point(data: dict[str, Any], point: bytes) -> None:
    raw = base64.urlsafe_b64decode(data["shuffle"]["decks"]["cards"] + "=")
    data["shuffle"]["decks"]["cards"] = encode(point + raw[32:])


BAD: dict[str, Callable[[str], str]] = {
    "not JSON": lambda t: t[:-1],
    "not an object": lambda t: "[1, 2]",
    "another version": edited(lambda d: d.update(fair=1)),
    "an unknown field": edited(lambda d: d.update(extra=1)),
    "no seq": edited(lambda d: d.pop("seq")),
    "a boolean seq": edited(lambda d: d.update(seq=True)),
    "nothing in it": lambda t: '{"fair": 2, "seq": 1}',
    "a step out of range": edited(lambda d: d["shuffle"].update(step=4)),
    "an unknown deck": edited(lambda d: d["shuffle"]["decks"].update(dice="AAAA")),
    "a point off the curve": edited(lambda d: with_point(d, b"\xff" * 32)),
    "the identity point": edited(lambda d: with_point(d, b"\x01" + bytes(31))),
    "padded base64": edited(lambda d: d["shuffle"]["decks"].update(
        cards=d["shuffle"]["decks"]["cards"] + "=")),
    "a setup digest of the wrong form": edited(lambda d: d["shuffle"].update(setup="xyz")),
    "a share scalar above the group order": lambda t: dumps(
        {"fair": 2, "seq": 1, "shares": {"cards": [[0, share_of(ORDER.to_bytes(32, "little"))]]}}),
    "a share off the group": lambda t: dumps(
        {"fair": 2, "seq": 1, "shares": {"cards": [[0, encode(b"\xff" * 32 + bytes(64))]]}}),
    "a share of the wrong size": lambda t: dumps(
        {"fair": 2, "seq": 1, "shares": {"cards": [[0, encode(b"\x05" * 32)]]}}),
    "two shares for one position": lambda t: dumps(
        {"fair": 2, "seq": 1, "shares": {"cards": [[0, share_of(b"\x05" * 32)]] * 2}}),
    "a position off the deck": lambda t: dumps(
        {"fair": 2, "seq": 1, "shares": {"cards": [[72, share_of(b"\x05" * 32)]]}}),
    "a shuffle without its proof": edited(lambda d: d["shuffle"].pop("proofs")),
    "a proof of the wrong size": edited(lambda d: d["shuffle"]["proofs"].update(
        cards=d["shuffle"]["proofs"]["cards"][:-43])),
    "a proof holding a point off the group": edited(lambda d: d["shuffle"]["proofs"].update(
        cards=encode(b"\xff" * 32 + decode_proof(d)[32:]))),
    "a move that is no move": lambda t: dumps({"fair": 2, "seq": 1, "move": {"type": "fly"}}),
    "a reveal of another scope": lambda t: dumps(
        {"fair": 2, "seq": 1, "reveal": {"9": encode(bytes(32))}}),
    "too long": lambda t: t + " " * MAX_MESSAGE_CHARS,
}


@pytest.mark.parametrize("what", sorted(BAD))
def test_a_malformed_message_stops_the_match_and_changes_nothing_else(what: str) -> None:
    wire, text = first_message()
    peer = wire.peers[1]
    before = peer.save()
    bad = BAD[what](text)
    with pytest.raises(ProtocolViolation) as info:
        peer.receive(bad)
    assert info.value.code == "bad-message"
    assert peer.error is info.value and info.value.evidence["message"] == bad[:MAX_MESSAGE_CHARS]
    after = peer.save()
    assert after["stopped"]["code"] == "bad-message"
    assert {**after, "stopped": None} == before
    with pytest.raises(MatchStopped):
        peer.receive(text)
    assert FairPeer.restore(after, GROUP).error is not None


def test_bytes_that_are_not_utf8_are_refused() -> None:
    wire, _ = first_message()
    with pytest.raises(ProtocolViolation):
        wire.peers[1].receive(b"\xff\xfe")


def test_the_same_message_twice_is_refused_and_the_transport_can_ask_for_a_resend() -> None:
    wire, text = first_message()
    peer = wire.peers[1]
    replies = peer.receive(text)
    assert replies and peer.last_received == 1
    assert wire.peers[0].sent_after(0) == [text] and wire.peers[0].sent_after(1) == []
    with pytest.raises(ProtocolViolation) as info:
        peer.receive(text)
    assert info.value.code == "replayed"


def test_parsing_checks_every_point_of_a_shuffle() -> None:
    _, text = first_message()
    message = parse(text, GROUP)
    assert message.seq == 1 and message.shuffle is not None
    assert len(message.shuffle.decks["cards"]) == 60
    assert all(GROUP.is_point(p) for p in message.shuffle.decks["cards"])


# ---------------------------------------------------------------- saves


def played_save() -> dict[str, Any]:
    wire = Wire(PLAIN, first_player=0, seed=9)
    wire.deliver()
    for _ in range(6):
        peer = wire.actor()
        assert peer is not None
        wire.act(peer, wire.choose(peer))
    return wire.peers[1].save()


def test_a_save_resumes_exactly() -> None:
    saved = played_save()
    again = FairPeer.restore(json.loads(json.dumps(saved)), GROUP)
    assert again.save() == saved and again.error is None


@pytest.mark.parametrize("what", ["format", "version", "secret", "options", "seat",
                                  "a received share", "a sent message", "a lost message",
                                  "a stray field"])
def test_a_corrupt_save_is_refused(what: str) -> None:
    saved = played_save()
    transcript = saved["transcript"]
    received = [e for e in transcript if e["dir"] == "in" and "shares" in e["msg"]]
    sent = [e for e in transcript if e["dir"] == "out"]
    if what == "format":
        saved["format"] = "lostcities-state"
    elif what == "version":
        saved["version"] = 99
    elif what == "secret":
        saved["secret"] = saved["secret"][:-2] + ("AA" if saved["secret"][-2:] != "AA" else "AQ")
    elif what == "options":
        saved["options"]["rounds"] = 9
    elif what == "seat":
        saved["seat"] = 0
    elif what == "a received share":
        pairs = received[-1]["msg"]["shares"]["cards"]
        pairs[0][1] = share_of(b"\x07" + bytes(31))
    elif what == "a sent message":
        sent[-1]["msg"]["seq"] += 1
    elif what == "a lost message":
        transcript.remove(sent[-1])
    else:
        saved["extra"] = 1
    with pytest.raises(CorruptSave):
        FairPeer.restore(saved, GROUP)
