"""The attacks of a page that runs any code, played out natively against the protocol.

- The decryption oracle (forged points in a shuffle) is in test_fair_cheats.py: refused at the
  forged message itself.
- Two answers from one state: a cheater that gets a page to answer two different inputs (a
  probe, then the real step) compares the answers. The second shuffler's key and permutation
  are bound to its input, so two inputs get unrelated answers; and a page answers one input per
  state: the same message number with other content is refused, restored from its save too
  (the seats save before they send, so the save always holds what was answered).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fairwire import GROUP, NAMES, Wire, secret

from lostcities import Options
from lostcities.fair import FairPeer, ProtocolViolation
from lostcities.fair.codec import decode_vector, encode
from lostcities.fair.derive import scope_seed
from lostcities.fair.masking import shuffle_context
from lostcities.fair.proofs import ShuffleProof, shuffle
from lostcities.fair.table import Deck, Table
from lostcities.fair.wire import dumps

PLAIN = Options(rounds=1)


class Swapped(Table):
    """Seat 0's first shuffle with its first two positions swapped: a valid shuffle, with a
    valid proof (the cheater's probe differs from its real step in two known places)."""

    def step_output(self, deck: Deck, step: int) -> tuple[tuple[bytes, ...], ShuffleProof]:
        assert deck.mine is not None
        perm = list(deck.mine.perm)
        perm[0], perm[1] = perm[1], perm[0]
        return shuffle(self.group, scope_seed(self._secret, deck.scope),
                       shuffle_context(self.setup.digest(), deck.scope, deck.name, step),
                       deck.mine.key, perm, self._inputs(deck, step))


def first_shuffle(table: type[Table] = Table) -> str:
    peer_class = type("Probe", (FairPeer,), {"table_class": table})
    peer = peer_class(0, PLAIN, NAMES, 0, secret(0, 1), GROUP)
    [text] = peer.start()
    return text


def answer(saved: dict[str, Any], text: str) -> dict[str, Any]:
    """Seat 1 restored from ``saved``, answering ``text``: its shuffle of the cards."""
    page = FairPeer.restore(saved, GROUP)
    [out] = page.receive(text)
    data: dict[str, Any] = json.loads(out)
    return data


def points(message: dict[str, Any]) -> list[bytes]:
    text = message["shuffle"]["decks"]["cards"]
    return list(decode_vector(text, len(text) * 3 // 4 // 32, 32))


def test_two_inputs_get_unrelated_answers_so_comparing_them_reads_nothing() -> None:
    """The cheater (seat 0) sends a probe and, to a second copy of the same state, its real
    first shuffle, two positions apart. With a permutation fixed by the secret alone the two
    answers would differ at exactly the two places the swapped items went, naming where the
    second shuffle put them (and, probe after probe, the whole order). Bound to the input, the
    answers share nothing."""
    honest = FairPeer(1, PLAIN, NAMES, 0, secret(1, 1), GROUP)
    honest.start()
    saved = honest.save()
    real, probe = first_shuffle(), first_shuffle(Swapped)
    assert real != probe
    a, b = answer(saved, real), answer(saved, probe)
    ya, yb = points(a), points(b)
    assert not set(ya) & set(yb)
    assert [j for j in range(len(ya)) if ya[j] != yb[j]] == list(range(len(ya)))
    assert a["shuffle"]["proofs"]["cards"][:43] != b["shuffle"]["proofs"]["cards"][:43]
    # the same input gets the same answer: a page made again from its save says the same
    assert answer(saved, real) == a


@pytest.mark.parametrize("restored", [False, True])
def test_a_page_answers_one_input_per_state(restored: bool) -> None:
    """Once a page has answered message 1, another message 1 is refused (as replayed), by the
    page itself or by the page restored from the save it wrote before sending its answer."""
    page = FairPeer(1, PLAIN, NAMES, 0, secret(1, 1), GROUP)
    page.start()
    [answered] = page.receive(first_shuffle())
    saved = page.save()
    if restored:
        page = FairPeer.restore(saved, GROUP)
    with pytest.raises(ProtocolViolation) as info:
        page.receive(first_shuffle(Swapped))
    assert info.value.code == "replayed"
    assert page.sent_after(0) == [answered]


def test_the_stacking_probe_gets_no_second_answer_from_the_first_shuffler() -> None:
    """The second shuffler's probe: a valid shuffle of the first one, answered (by the shares
    of its hand: eight items of the first shuffle named); then its real, re-ground shuffle sent
    as the same message again, to the page or to its restored save: refused, nothing sent."""
    wire = Wire(PLAIN, first_player=0, seed=3)
    inner = wire.peers[0]
    wire.deliver()  # the whole opening: both shuffles, and the deal's shares
    step2 = next(t for t in wire.received[0] if json.loads(t)["seq"] == 1)
    ground = json.loads(step2)
    ground["shuffle"]["decks"]["cards"] = encode(b"".join(reversed(points(ground))))
    for page in (inner, FairPeer.restore(inner.save(), GROUP)):
        before = page.sent_after(0)
        with pytest.raises(ProtocolViolation) as info:
            page.receive(dumps(ground))
        assert info.value.code == "replayed" and page.sent_after(0) == before
