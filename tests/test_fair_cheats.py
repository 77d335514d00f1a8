"""A cheating peer, one way at a time: each cheat is caught by the honest seat at once (by the
very message that carries it) or at the round's audit, which stops the match with the evidence
kept in its save."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fairwire import GROUP, Wire, truth

from lostcities import Options, card_text
from lostcities.fair import CheatDetected, FairError, FairPeer, MatchStopped, ProtocolViolation
from lostcities.fair.codec import decode, encode
from lostcities.fair.fill import HIDDEN, is_hidden
from lostcities.fair.masking import shuffle_context
from lostcities.fair.proofs import SHARE_BYTES, ShuffleProof, verify_shuffle
from lostcities.fair.table import Deck, Table
from lostcities.fair.wire import VERSION, dumps

PLAIN = Options(rounds=1)
OBJECTIVES = Options(rounds=1, objectives=True)
JOBS = Options(rounds=1, jobs=True)
Change = Callable[[dict[str, Any]], list[dict[str, Any]] | None]
"""Given a message the cheater sends, the messages to send instead (``None``: leave it)."""


def cheat_once(cheater: int, change: Change) -> Callable[[int, str], list[str]]:
    """A wire tamper that applies ``change`` to the cheater's messages until it changes one."""
    done = [False]

    def tamper(sender: int, text: str) -> list[str]:
        if sender != cheater or done[0]:
            return [text]
        out = change(json.loads(text))
        if out is None:
            return [text]
        done[0] = True
        return [dumps(m) for m in out]
    return tamper


def caught(wire: Wire, cheater: int, kind: type[FairError], code: str) -> FairError:
    """Play until the honest seat stops; check what it reports, keeps and saves."""
    with pytest.raises(kind):
        wire.play()
    return caught_after(wire, cheater, code)


def caught_after(wire: Wire, cheater: int, code: str) -> FairError:
    """The honest seat has stopped: check what it reports, keeps and saves."""
    honest = wire.peers[1 - cheater]
    error = honest.error
    assert error is not None and error.code == code, error
    assert honest.legal_moves() == () and wire.peers[cheater].error is None
    view = honest.view()
    assert view is None or view["fair"]["stopped"]["code"] == code
    with pytest.raises(MatchStopped):
        honest.receive("{}")
    saved = honest.save()
    assert saved["stopped"] == json.loads(json.dumps(error.to_json()))
    received = [e["msg"] for e in saved["transcript"] if e["dir"] == "in"]
    assert len(received) == honest.last_received
    assert code == "replayed" or json.loads(error.evidence["message"]) not in received
    again = FairPeer.restore(saved, GROUP)
    assert again.error is not None and again.error.to_json() == saved["stopped"]
    assert again.state == honest.state
    return error


def sent(error: FairError) -> dict[str, Any]:
    """The message that stopped the match."""
    data: dict[str, Any] = json.loads(error.evidence["message"])
    return data


def other_share(text: str) -> str:
    """A well-formed share (a group point, canonical scalars) that is not ``text``: its point
    replaced by another item's, its proof left as it was."""
    data = decode(text, SHARE_BYTES)
    point = GROUP.base(GROUP.scalar(bytes(63) + b"\x07"))
    return encode(point + data[32:])


def peer_with(table: type[Table]) -> type[FairPeer]:
    return type("Cheat", (FairPeer,), {"table_class": table})


def sent_by(wire: Wire, seat: int) -> list[dict[str, Any]]:
    """Every message ``seat`` has sent (as the other side received it)."""
    return [json.loads(t) for t in wire.received[1 - seat]]


# ---------------------------------------------------------------- tampered shuffles


class Outer(Table):
    """Seat 1, the outer peer of round 1: its hand is positions 8-15 of the cards."""

    HAND = range(8, 16)


class WeightedSums(Outer):
    """The decryption oracle: seat 1 puts weighted sums of seat 0's first-shuffle points in
    three of its own hand positions, hoping seat 0 takes its key off them and a
    meet-in-the-middle search names each summed item. Its proof is the one for its honest
    vector: no proof exists for the points it sends."""

    def step_output(self, deck: Deck, step: int) -> tuple[tuple[bytes, ...], ShuffleProof]:
        vector, proof = super().step_output(deck, step)
        if step != 2 or deck.name != "cards" or deck.x is None:
            return vector, proof
        g = self.group
        weights = [g.scalar(bytes([w]) + bytes(63)) for w in (1, 2, 3)]
        forged = list(vector)
        for n, j in enumerate(list(self.HAND)[:3]):
            forged[j] = g.combine(weights, deck.x[3 * n:3 * n + 3])
        return tuple(forged), proof


class ProvenForgery(WeightedSums):
    """The same forgery, with a proof made by the honest prover over the forged outputs (it
    can only prove outputs it computes itself: a forgery's proof is made for other points)."""

    def step_output(self, deck: Deck, step: int) -> tuple[tuple[bytes, ...], ShuffleProof]:
        forged, _ = super().step_output(deck, step)
        if step != 2 or deck.name != "cards":
            return forged, _
        honest, proof = Table.step_output(self, deck, step)
        assert forged != honest
        # a proof whose statement is the forged outputs: key, commitments and responses of the
        # honest run, challenge recomputed over the forgery (what a prover without the secret
        # relation can do)
        context = shuffle_context(self.setup.digest(), deck.scope, deck.name, step)
        assert not verify_shuffle(self.group, context, deck.x or (), forged, proof)
        return forged, proof


class SwappingOuter(Outer):
    """Seat 1 shuffles one objective in twice (the second copy under another key, so no two
    points are equal) and drops another."""

    def step_output(self, deck: Deck, step: int) -> tuple[tuple[bytes, ...], ShuffleProof]:
        vector, proof = super().step_output(deck, step)
        if step == 2 and deck.name == "objectives" and deck.x is not None and deck.mine:
            g = self.group
            twice = g.mult(g.mul(deck.mine.key, deck.mine.key), deck.x[deck.mine.perm[-2]])
            return vector[:-1] + (twice,), proof
        return vector, proof


def test_a_shuffle_with_a_card_masked_twice_is_caught_at_once() -> None:
    class Twice(Table):
        def step_output(self, deck: Deck,
                        step: int) -> tuple[tuple[bytes, ...], ShuffleProof]:
            vector, proof = super().step_output(deck, step)
            if step == 1 and deck.name == "cards":
                return vector[:1] + vector[:-1], proof
            return vector, proof

    wire = Wire(PLAIN, first_player=0, peers=(peer_with(Twice), FairPeer))
    error = caught(wire, 0, CheatDetected, "bad-shuffle")
    assert error.evidence["positions"] == [0, 1] and sent(error)["shuffle"]["step"] == 1


@pytest.mark.parametrize("cheat", [WeightedSums, ProvenForgery])
def test_the_decryption_oracle_is_refused_at_its_first_message(cheat: type[Table]) -> None:
    """The forged shuffle stops the match the moment it arrives: seat 0 never applies its key
    to a forged point, and sends nothing more: no share, so the cheater reads nothing."""
    wire = Wire(PLAIN, first_player=0, peers=(FairPeer, peer_with(cheat)))
    error = caught(wire, 1, CheatDetected, "bad-shuffle")
    assert error.evidence["deck"] == "cards" and error.evidence["step"] == 2
    forged = sent(error)
    assert forged["seq"] == 1 and "shuffle" in forged
    honest_sent = sent_by(wire, 0)
    assert [m["seq"] for m in honest_sent] == [1]  # its own first shuffle, nothing after
    assert "shares" not in honest_sent[0]
    cards = wire.peers[1].table.decks[(1, "cards")]
    assert not cards.known  # the cheater opened nothing


def test_a_shuffle_that_swaps_one_item_for_another_is_caught_at_once() -> None:
    wire = Wire(OBJECTIVES, first_player=0, peers=(FairPeer, peer_with(SwappingOuter)))
    error = caught(wire, 1, CheatDetected, "bad-shuffle")
    assert error.evidence["deck"] == "objectives" and error.evidence["step"] == 2
    assert wire.peers[0].state is None  # nothing was dealt


# ---------------------------------------------------------------- shares


@pytest.mark.parametrize("cheater", [0, 1])
def test_a_wrong_share_for_a_drawn_card_is_caught_at_once(cheater: int) -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        pairs = m.get("shares", {}).get("cards", [])
        if "move" in m or len(pairs) != 1:
            return None
        pairs[0][1] = other_share(pairs[0][1])
        return [m]

    wire = Wire(PLAIN, first_player=1 - cheater, tamper=cheat_once(cheater, change))
    error = caught(wire, cheater, CheatDetected, "bad-share")
    assert "proof" in error.message and error.evidence["deck"] == "cards"


@pytest.mark.parametrize("cheater", [0, 1])
def test_a_changed_share_for_a_played_card_is_caught_at_once(cheater: int) -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        if m.get("move", {}).get("type") not in ("play", "discard") or "shares" not in m:
            return None
        m["shares"]["cards"][0][1] = other_share(m["shares"]["cards"][0][1])
        return [m]

    wire = Wire(PLAIN, first_player=cheater, tamper=cheat_once(cheater, change))
    error = caught(wire, cheater, CheatDetected, "bad-share")
    assert error.evidence["position"] == sent(error)["pos"]


@pytest.mark.parametrize("cheater", [0, 1])
def test_a_share_of_another_position_is_caught_at_once(cheater: int) -> None:
    """A share is bound to its position: a true share of one position sent for another (a
    copy that would open a card the sender chose) fails its proof."""
    shares: list[list[Any]] = []

    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        pairs = m.get("shares", {}).get("cards", [])
        if len(pairs) < 2:
            return None
        pairs[0][1] = pairs[1][1]
        shares.extend(pairs)
        return [m]

    wire = Wire(PLAIN, first_player=0, tamper=cheat_once(cheater, change))
    error = caught(wire, cheater, CheatDetected, "bad-share")
    assert error.evidence["position"] == shares[0][0]


def test_a_key_held_back_is_caught_at_once() -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        pairs = m.get("shares", {}).get("cards", [])
        if len(pairs) < 8:
            return None
        del pairs[3]  # one card of the deal
        return [m]

    wire = Wire(PLAIN, first_player=0, tamper=cheat_once(1, change))
    error = caught(wire, 1, CheatDetected, "withheld")
    assert len(error.evidence["owed"]["shares"]["cards"]) == 1


def test_the_round_secret_held_back_is_caught_at_once() -> None:
    """The seat that draws the last card sends its round secret with that draw: without it."""
    cheater: list[int] = []

    def tamper(sender: int, text: str) -> list[str]:
        m = json.loads(text)
        if "reveal" in m and "move" in m and not cheater:
            cheater.append(sender)
            del m["reveal"]
            return [dumps(m)]
        return [text]

    for seed in (4, 5):
        cheater.clear()
        wire = Wire(PLAIN, first_player=0, seed=seed, tamper=tamper)
        with pytest.raises(CheatDetected):
            wire.play()
        error = caught_after(wire, cheater[0], "withheld")
        assert error.evidence["owed"]["reveal"] == [1]


def test_a_false_round_secret_fails_the_audit() -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        if "reveal" not in m:
            return None
        m["reveal"]["1"] = encode(bytes(32))
        return [m]

    wire = Wire(PLAIN, first_player=0, seed=4, tamper=cheat_once(1, change))
    error = caught(wire, 1, CheatDetected, "audit")
    assert error.evidence["scope"] == 1
    # the honest page keeps no deal from a round whose audit failed: a replay never shows
    # cards a cheater's false secret would have named
    assert wire.peers[0].deals() == ()


# ---------------------------------------------------------------- cards claimed


def test_a_card_not_dealt_to_that_hand_is_caught_at_once() -> None:
    wire = Wire(PLAIN, first_player=1, seed=6)

    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        move = m.get("move", {})
        if move.get("type") != "play":
            return None
        st = wire.peers[1].state
        assert st is not None
        held = {card_text(c) for c in st.hands[1]}
        move["card"] = next(card_text(c) for c in truth(wire, 1, "cards")
                            if card_text(c) not in held)
        return [m]

    wire.tamper = cheat_once(1, change)
    error = caught(wire, 1, CheatDetected, "wrong-card")
    assert error.evidence["claimed"] != error.evidence["actual"]


def test_a_play_from_a_position_not_in_the_hand_is_caught_at_once() -> None:
    """Seat 1 discards the deck's top card (sending its own share of it) as if it held it."""
    wire = Wire(PLAIN, first_player=1, seed=6)

    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        if m.get("move", {}).get("type") not in ("play", "discard"):
            return None
        honest = wire.peers[0].state
        assert honest is not None
        top = honest.deck[-1]
        assert is_hidden(top)
        pos = top - HIDDEN
        deck = wire.peers[1].table.decks[(1, "cards")]
        m["move"] = {"type": "discard", "card": card_text(truth(wire, 1, "cards")[pos])}
        m["pos"] = pos
        m["shares"] = {"cards": [[pos, encode(wire.peers[1].table._share(deck, pos))]]}
        return [m]

    wire.tamper = cheat_once(1, change)
    error = caught(wire, 1, CheatDetected, "not-in-hand")
    assert error.evidence["position"] == sent(error)["pos"]


def test_an_illegal_move_is_caught_at_once() -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        if m.get("move") != {"type": "draw", "source": "deck"}:
            return None
        m["move"]["source"] = "P"  # there is no purple in a five-colour match
        return [m]

    wire = Wire(PLAIN, first_player=0, tamper=cheat_once(0, change))
    caught(wire, 0, CheatDetected, "illegal-move")


def test_a_job_not_offered_at_that_position_is_caught_at_once() -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        move = m.get("move", {})
        if move.get("type") != "pick-job" or "job" not in move:
            return None
        move["job"] = next(j for j in ("surveyor", "collector") if j != move["job"])
        return [m]

    wire = Wire(JOBS, first_player=0, tamper=cheat_once(1, change))
    error = caught(wire, 1, CheatDetected, "wrong-card")
    assert error.evidence["deck"] == "jobs"


def test_a_job_pick_opened_other_than_committed_is_caught_at_once() -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        if "pick" not in m:
            return None
        pos = 1 - m["pick"][0]
        m["pick"] = [pos, m["pick"][1]]
        return [m]

    wire = Wire(JOBS, first_player=0)
    wire.tamper = cheat_once(0, change)
    caught(wire, 0, CheatDetected, "bad-key")


# ---------------------------------------------------------------- the messages themselves


def test_a_replayed_message_is_refused() -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        return [m, m] if m.get("move", {}).get("type") == "play" else None

    wire = Wire(PLAIN, first_player=0, tamper=cheat_once(0, change))
    error = caught(wire, 0, ProtocolViolation, "replayed")
    assert error.evidence["seq"] == error.evidence["due"] - 1


def test_reordered_messages_are_refused() -> None:
    held: list[dict[str, Any]] = []

    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        if not held:
            if m.get("move", {}).get("type") in ("play", "discard"):
                held.append(m)
                return []
            return None
        return [m, held[0]]

    wire = Wire(PLAIN, first_player=0, tamper=cheat_once(0, change))
    error = caught(wire, 0, ProtocolViolation, "out-of-order")
    assert error.evidence["seq"] == error.evidence["due"] + 1


def test_a_move_out_of_turn_is_refused() -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        if m.get("move") != {"type": "draw", "source": "deck"}:
            return None
        extra = {"fair": VERSION, "seq": m["seq"] + 1, "move": {"type": "discard", "card": "R7"},
                 "pos": 0}
        return [m, extra]

    wire = Wire(PLAIN, first_player=0, tamper=cheat_once(0, change))
    caught(wire, 0, ProtocolViolation, "not-your-turn")


def test_a_peer_set_up_for_another_match_is_caught_at_once() -> None:
    wire = Wire(PLAIN, first_player=0)
    other = FairPeer(1, Options(rounds=2), ("Ana", "Ben"), 0, b"x" * 32, GROUP)
    with pytest.raises(CheatDetected) as info:
        other.receive(wire.flight[0][1])
    assert info.value.code == "setup-mismatch"
