"""A fair message taken in two halves (`FairPeer.check`, then `FairPeer.answer`), as a page does
in two tasks: the same match byte for byte as `receive`, nothing of the message shown or saved
between the halves, no move and no other message taken meanwhile, and a hostile message
stopped by its check with nothing held."""

from __future__ import annotations

import json

import pytest
from fairwire import ALL_OPTIONS, Wire

from lostcities import Draw, Options
from lostcities.fair import FairPeer, MatchStopped, NotAllowed, ProtocolViolation


class HalvedWire(Wire):
    """A wire whose peers take each message in two halves, checking between them that the
    held message shows nowhere and that nothing else is taken."""

    held_checks = 0

    def deliver(self) -> None:
        while self.flight:
            to, text = self.flight.popleft()
            self.received[to].append(text)
            peer = self.peers[to]
            before = (json.dumps(peer.view()), peer.last_received, peer.save_text(),
                      peer.legal_moves(), peer.waiting())
            peer.check(text)
            assert peer.holding
            assert (json.dumps(peer.view()), peer.last_received, peer.save_text(),
                    peer.legal_moves(), peer.waiting()) == before
            with pytest.raises(NotAllowed):
                peer.check(text)  # one message held at a time
            for move in peer.table.legal_moves()[:1] or (Draw("deck"),):
                with pytest.raises(NotAllowed):
                    peer.act(move)
            assert peer.holding and peer.error is None
            self.held_checks += 1
            self.send(to, peer.answer())
            assert not peer.holding and peer.last_received == before[1] + 1
            self.after_step()


@pytest.mark.parametrize("options", [Options(rounds=1), ALL_OPTIONS],
                         ids=["plain", "every-option"])
def test_check_then_answer_plays_the_match_receive_plays_byte_for_byte(
        options: Options) -> None:
    whole, halved = Wire(options, seed=7), HalvedWire(options, seed=7)
    whole.play()
    halved.play()
    assert halved.held_checks > 40
    assert halved.received == whole.received  # every message each seat sent, the same bytes
    for a, b in zip(whole.peers, halved.peers):
        assert a.save_text() == b.save_text()
        assert a.state is not None and a.state.phase == "match-end"


def test_answer_with_nothing_held_makes_nothing() -> None:
    wire = Wire(Options(rounds=1), seed=2)
    wire.deliver()
    peer = wire.peers[1]
    before = peer.save_text()
    assert not peer.holding and peer.answer() == [] and peer.save_text() == before


def test_a_hostile_message_is_stopped_by_its_check_and_nothing_is_held() -> None:
    wire = Wire(Options(rounds=1), seed=4)
    wire.deliver()
    peer: FairPeer = wire.peers[0]
    with pytest.raises(ProtocolViolation):
        peer.check(wire.received[0][-1])  # a message taken already, sent again
    assert not peer.holding and peer.error is not None and peer.error.code == "replayed"
    with pytest.raises(MatchStopped):
        peer.answer()
