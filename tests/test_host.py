"""MatchHost as the online host uses it: two seats, each bound to its connection."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from lostcities import CorruptSave, Options, apply, move_from_json, new_match, view
from lostcities.cli.host import CONTROLLER, MatchHost
from lostcities.protocol import (
    APP_VERSION, ERROR_CODES, PROTOCOL_VERSION, encode, parse_host_message,
)

ALL_ON = {"rounds": 2, "sixth_colour": True, "jobs": True, "skills": True, "objectives": True,
          "mixups": True}


class Peer:
    """One seat's side of the connection: numbers what it sends, keeps what it receives."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seq = 0
        self.host_seq = 0
        self.inbox: list[dict[str, Any]] = []

    def raw(self, kind: str, **fields: Any) -> str:
        self.seq += 1
        return json.dumps({"v": PROTOCOL_VERSION, "seq": self.seq, "type": kind, **fields})

    @property
    def last_view(self) -> dict[str, Any]:
        views = [m["view"] for m in self.inbox if m["type"] in ("view", "match-end")]
        return views[-1]


class Table:
    """A host and two peers; delivers every outgoing message to its recipient's inbox."""

    def __init__(self, host: MatchHost | None = None) -> None:
        self.host = host if host is not None else MatchHost()
        self.peers = (Peer(0), Peer(1))

    def deliver(self, out: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
        for recipient, message in out:
            peer = self.peers[recipient]
            # what goes on the wire passes the checks a client makes
            checked = parse_host_message(encode(message), peer.host_seq)
            assert checked.type == message["type"]
            if checked.type == "error":
                assert message["code"] in ERROR_CODES
            peer.host_seq = checked.seq
            peer.inbox.append(message)
        return out

    def send(self, seat: int, kind: str, **fields: Any) -> list[tuple[int, dict[str, Any]]]:
        return self.deliver(self.host.receive(seat, self.peers[seat].raw(kind, **fields)))

    def greet(self) -> None:
        for seat in (0, 1):
            self.send(seat, "hello", name=("Ana", "Ben")[seat], app=APP_VERSION)


def pick(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random move, rarely an undo and mostly drawing from the deck (so rounds end soon)."""
    deck = {"type": "draw", "source": "deck"}
    if deck in moves and rng.random() < 0.75:
        return deck
    return rng.choice([m for m in moves if m["type"] != "undo" or rng.random() < 0.1])


def play_random_match(table: Table, rng: random.Random, shadow: Any) -> Any:
    """Both seats play random legal moves from their own latest view until the match ends.

    Checks every view each seat receives against the engine's view of a shadow state that
    applies the same moves. Returns the final shadow state.
    """
    while True:
        views = [p.last_view for p in table.peers]
        for seat in (0, 1):
            assert views[seat] == view(shadow, seat)
        if views[0]["phase"] == "match-end":
            return shadow
        actors = [s for s in (0, 1) if views[s]["legal_moves"]]
        assert actors, "somebody must be able to act"
        seat = rng.choice(actors)
        move = pick(views[seat]["legal_moves"], rng)
        out = table.send(seat, "move", move=move)
        assert [r for r, _ in out] == [seat, 1 - seat]
        shadow = apply(shadow, move_from_json(move))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_random_seats_play_a_whole_match_through_the_host(seed: int) -> None:
    rng = random.Random(seed)
    table = Table()
    table.greet()
    options = ALL_ON if seed != 1 else {}
    out = table.deliver(table.host.start(Options(**options), seed=seed, first_player=None,
                                         names=("Ana", "Ben")))
    assert [r for r, m in out] == [0, 1] and all(m["type"] == "view" for _, m in out)
    shadow = new_match(Options(**options), seed=seed, first_player=None, names=("Ana", "Ben"))
    final = play_random_match(table, rng, shadow)
    for peer in table.peers:
        end = peer.inbox[-1]
        assert end["type"] == "match-end"
        assert end["winner"] == final.winner and end["totals"] == list(final.totals)
        # the host numbers its messages to each peer 1, 2, 3, ...
        assert [m["seq"] for m in peer.inbox] == list(range(1, len(peer.inbox) + 1))
    # after the end nothing more can be played, and asking still works
    error = table.send(0, "move", move={"type": "next-round"})[0][1]
    assert error["code"] == "illegal-move"
    assert error["refusal"] == {"code": "wrong-phase", "data": {"phase": "match-end"}}
    assert parse_host_message(json.dumps(error), 0).fields["refusal"] == error["refusal"]
    assert table.send(1, "get-view")[0][1]["type"] == "match-end"


def test_a_match_started_before_anyone_joined_is_sent_on_hello() -> None:
    host = MatchHost()
    assert host.start(Options(), seed=4) == []
    table = Table(host)
    out = table.send(1, "hello", name="Ben", app=APP_VERSION)
    assert [(r, m["type"]) for r, m in out] == [(1, "welcome"), (1, "view")]
    assert out[0][1]["match"] is True
    assert out[1][1]["view"] == view(new_match(Options(), seed=4), 1)
    assert "ref_seq" not in out[1][1]


def test_start_refuses_bad_arguments_and_keeps_the_match() -> None:
    host = MatchHost()
    host.start(Options(rounds=1), seed=4)
    with pytest.raises(ValueError):
        host.start(Options(), seed=4, first_player=3)
    assert host.state is not None and host.state.options.rounds == 1


def test_a_peer_id_the_host_does_not_serve_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        MatchHost().receive(CONTROLLER, "{}")
    with pytest.raises(ValueError):
        MatchHost().receive(2, "{}")
    with pytest.raises(ValueError):
        MatchHost(controller=True).receive(0, "{}")
    assert MatchHost().peers == (0, 1) and MatchHost(controller=True).peers == (CONTROLLER,)


def test_a_disconnected_seat_is_sent_nothing_and_resyncs_on_reconnect() -> None:
    table = Table()
    table.greet()
    table.deliver(table.host.start(Options(skills=True), seed=9, first_player=0))
    table.host.disconnect(1)
    assert not table.host.is_greeted(1) and table.host.is_greeted(0)
    move = table.peers[0].last_view["legal_moves"][0]
    out = table.send(0, "move", move=move)
    assert [r for r, _ in out] == [0]  # the other seat is gone: nothing for it
    # the guest comes back on a new connection: its numbering starts again from 1
    table.host.connect(1)
    table.peers = (table.peers[0], Peer(1))
    error = table.send(1, "get-view")[0][1]
    assert error["code"] == "no-hello" and error["seq"] == 1
    out = table.send(1, "hello", name="Ben again", app=APP_VERSION)
    assert [(r, m["type"]) for r, m in out] == [(1, "welcome"), (1, "view")]
    state = table.host.state
    assert state is not None
    assert out[1][1]["view"] == view(state, 1)
    assert table.host.name_of(1) == "Ben again"
    # the new connection's messages are numbered afresh, not refused as replays
    assert table.send(1, "get-view")[0][1]["type"] == "view"


def test_a_second_hello_on_the_same_connection_resyncs() -> None:
    table = Table()
    table.greet()
    table.deliver(table.host.start(Options(), seed=2))
    out = table.send(0, "hello", name="Ana", app=APP_VERSION)
    assert [m["type"] for _, m in out] == ["welcome", "view"]


def play_some(table: Table, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        views = [p.last_view for p in table.peers]
        seat = next(s for s in (0, 1) if views[s]["legal_moves"])
        table.send(seat, "move", move=rng.choice(views[seat]["legal_moves"]))


def test_a_snapshot_restores_the_match_and_the_seq_counters_exactly() -> None:
    rng = random.Random(8)
    table = Table()
    table.greet()
    table.deliver(table.host.start(Options(**ALL_ON), seed=8, first_player=1))
    play_some(table, rng, 40)
    snap = json.loads(json.dumps(table.host.snapshot()))
    restored = MatchHost.restore(snap)
    assert restored.snapshot() == snap
    assert restored.name_of(0) == "Ana" and restored.is_greeted(1)
    # both hosts answer the next messages identically, replays included
    seat = next(s for s in (0, 1) if table.peers[s].last_view["legal_moves"])
    later = [
        table.peers[seat].raw("move", move=table.peers[seat].last_view["legal_moves"][-1]),
        table.peers[seat].raw("get-legal-moves"),
    ]
    stale = json.dumps({"v": 1, "seq": 1, "type": "get-view"})
    for raw in later + [stale, later[0]]:
        assert restored.receive(seat, raw) == table.host.receive(seat, raw)
    assert restored.snapshot() == table.host.snapshot()
    assert restored.receive(seat, later[0])[0][1]["code"] == "replayed"


def test_a_snapshot_before_any_match_restores_too() -> None:
    host = MatchHost(controller=True)
    snap = host.snapshot()
    assert snap["state"] is None
    assert MatchHost.restore(snap).snapshot() == snap


def corrupted(change: Any) -> dict[str, Any]:
    host = MatchHost()
    host.start(Options(), seed=1)
    snap = json.loads(json.dumps(host.snapshot()))
    change(snap)
    return snap  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "snap",
    [
        None,
        [],
        "snapshot",
        corrupted(lambda s: s.update(format="chess")),
        corrupted(lambda s: s.update(version=2)),
        corrupted(lambda s: s.pop("peers")),
        corrupted(lambda s: s.update(extra=1)),
        corrupted(lambda s: s.update(controller="no")),
        corrupted(lambda s: s.update(controller=True)),
        corrupted(lambda s: s["peers"].pop("1")),
        corrupted(lambda s: s["peers"].update({"0": []})),
        corrupted(lambda s: s["peers"]["0"].update(last_in=-1)),
        corrupted(lambda s: s["peers"]["0"].update(last_out=True)),
        corrupted(lambda s: s["peers"]["0"].update(last_in="3")),
        corrupted(lambda s: s["peers"]["0"].update(name=7)),
        corrupted(lambda s: s["peers"]["0"].update(greeted=1)),
        corrupted(lambda s: s["peers"]["0"].pop("name")),
        corrupted(lambda s: s.update(state={"format": "lostcities-state"})),
        corrupted(lambda s: s["state"]["hands"][0].append(s["state"]["hands"][1][0])),
        corrupted(lambda s: s.update(state=[])),
    ],
)
def test_a_corrupt_snapshot_is_refused(snap: Any) -> None:
    with pytest.raises(CorruptSave):
        MatchHost.restore(snap)
