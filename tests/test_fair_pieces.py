"""A fair peer's costly work done a piece at a time, as a page does in tasks of its own: a
message taken in by `FairPeer.check` then `FairPeer.work` until done, the match begun by
`FairPeer.begin` then `work`. The same match byte for byte as `receive` and `start`; nothing
of the work shows, nor is saved, before it is done; no move and no other message is taken
meanwhile; a shuffle's work is cut deck by deck; and a hostile message is stopped by its
check with nothing under way."""

from __future__ import annotations

import json

import pytest
from fairwire import ALL_OPTIONS, GROUP, NAMES, Wire, secret

from lostcities import Draw, Options
from lostcities.fair import FairPeer, MatchStopped, NotAllowed, ProtocolViolation


def snapshot(peer: FairPeer) -> tuple[object, ...]:
    """All a page reads of a peer: its view, what it received, its save, moves, waiting."""
    return (json.dumps(peer.view()), peer.last_received, peer.save_text(), peer.legal_moves(),
            peer.waiting(), peer.sent_after(0))


def work_through(peer: FairPeer) -> int:
    """Do the work under way a piece at a time, checking between pieces that nothing of it
    shows and that the peer takes nothing else; returns the number of pieces."""
    before, pieces = snapshot(peer), 0
    while True:
        assert peer.busy
        with pytest.raises(NotAllowed):
            peer.check("{}")  # one piece of work at a time
        for move in peer.table.legal_moves()[:1] or (Draw("deck"),):
            with pytest.raises(NotAllowed):
                peer.act(move)
        assert snapshot(peer) == before and peer.error is None
        pieces += 1
        if peer.work():
            assert not peer.busy
            return pieces


class PiecewiseWire(Wire):
    """A wire whose peers begin the match, and take each message in, a piece at a time."""

    def __init__(self, options: Options, seed: int) -> None:
        self.pieces: list[tuple[int, int]] = []
        """(the message's length, the pieces its work took)."""
        super().__init__(options, seed=seed)

    def deliver(self) -> None:
        while self.flight:
            to, text = self.flight.popleft()
            self.received[to].append(text)
            peer = self.peers[to]
            seq = peer.last_received
            peer.check(text)
            self.pieces.append((len(text), work_through(peer)))
            assert peer.last_received == seq + 1
            self.send(to, peer.finish())
            self.after_step()


def begun_piecewise(options: Options, seed: int) -> list[FairPeer]:
    """Two peers whose start was done a piece at a time."""
    peers = [FairPeer(s, options, NAMES, None, secret(s, seed), GROUP) for s in (0, 1)]
    for peer in peers:
        peer.begin()
        assert not peer.started
        work_through(peer)
        assert peer.started
    return peers


@pytest.mark.parametrize("options", [Options(rounds=1), ALL_OPTIONS],
                         ids=["plain", "every-option"])
def test_work_a_piece_at_a_time_plays_the_match_receive_plays_byte_for_byte(
        options: Options) -> None:
    whole, piecewise = Wire(options, seed=7), PiecewiseWire(options, seed=7)
    whole.play()
    piecewise.play()
    assert piecewise.received == whole.received  # every message each seat sent, the same bytes
    for a, b in zip(whole.peers, piecewise.peers):
        assert a.save_text() == b.save_text()
        assert a.state is not None and a.state.phase == "match-end"
    # a shuffle's work is cut deck by deck: one piece per deck checked, and per deck made
    decks = len(piecewise.peers[0].table.decks) // options.rounds
    assert max(n for _, n in piecewise.pieces) >= decks + 1
    assert min(n for _, n in piecewise.pieces) == 1  # a message without a shuffle: one piece


def test_a_start_done_a_piece_at_a_time_makes_the_same_first_messages() -> None:
    whole = Wire(ALL_OPTIONS, seed=5)
    peers = begun_piecewise(ALL_OPTIONS, seed=5)
    for a, b in zip(whole.peers, peers):
        assert b.sent_after(0) == a.sent_after(0) and b.save_text() == a.save_text()
    assert len(peers[0].sent_after(0)) == 1 and peers[1].sent_after(0) == []
    with pytest.raises(NotAllowed):
        peers[0].begin()  # once


def test_a_start_saved_before_it_was_done_is_saved_as_not_started() -> None:
    peer = FairPeer(0, ALL_OPTIONS, NAMES, None, secret(0, 9), GROUP)
    peer.begin()
    assert not peer.work()  # one deck shuffled, others to go
    saved = peer.save()
    assert saved["started"] is False and saved["transcript"] == []
    again = FairPeer.restore(saved, GROUP)
    assert not again.started and not again.busy
    assert again.start() == peer.finish()  # begun again from its secret: the same bytes


def test_finish_with_no_work_under_way_makes_nothing() -> None:
    wire = Wire(Options(rounds=1), seed=2)
    wire.deliver()
    peer = wire.peers[1]
    before = peer.save_text()
    assert not peer.busy and peer.work() and peer.finish() == []
    assert peer.save_text() == before


def test_a_hostile_message_is_stopped_by_its_check_with_nothing_under_way() -> None:
    wire = Wire(Options(rounds=1), seed=4)
    wire.deliver()
    peer = wire.peers[0]
    with pytest.raises(ProtocolViolation):
        peer.check(wire.received[0][-1])  # a message taken already, sent again
    assert not peer.busy and peer.error is not None and peer.error.code == "replayed"
    with pytest.raises(MatchStopped):
        peer.check(wire.received[0][-1])
