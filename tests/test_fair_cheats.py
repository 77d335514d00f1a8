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
from lostcities.fair.codec import encode
from lostcities.fair.fill import HIDDEN, is_hidden
from lostcities.fair.masking import remask
from lostcities.fair.table import Deck, Table
from lostcities.fair.wire import dumps

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


def other_key(key: str) -> str:
    """A valid key that is not ``key``."""
    return encode((int.from_bytes(key.encode()[:8], "little") + 1).to_bytes(32, "little"))


# ---------------------------------------------------------------- tampered shuffles


class DuplicatingOuter(Table):
    """Seat 1 shuffles one objective in twice (each under its own key, so no two points are
    equal) and drops another, at positions that are never dealt."""

    def step_vector(self, deck: Deck, step: int) -> tuple[bytes, ...]:
        if step == 2 and deck.name == "objectives" and deck.x is not None:
            perm = list(deck.mine.perm)
            perm[-1] = perm[-2]
            return remask(self.group, deck.mine.keys, deck.x, perm)
        return super().step_vector(deck, step)


class CopyingRekey(Table):
    """Seat 0, re-keying, puts another position's card (under position 8's key, so no two
    points are equal) into position 8, the first card of seat 1's hand."""

    def step_vector(self, deck: Deck, step: int) -> tuple[bytes, ...]:
        vector = super().step_vector(deck, step)
        if step == 3 and deck.name == "cards" and deck.y is not None:
            mine = deck.mine
            assert mine.mask is not None
            g = self.group
            copied = g.mult(g.mul(mine.keys[8], g.invert(mine.mask)), deck.y[9])
            return vector[:8] + (copied,) + vector[9:]
        return vector


def peer_with(table: type[Table]) -> type[FairPeer]:
    return type("Cheat", (FairPeer,), {"table_class": table})


def test_a_shuffle_with_a_card_masked_twice_is_caught_at_once() -> None:
    class Twice(Table):
        def step_vector(self, deck: Deck, step: int) -> tuple[bytes, ...]:
            vector = super().step_vector(deck, step)
            return vector[:1] + vector[:-1] if step == 1 and deck.name == "cards" else vector

    wire = Wire(PLAIN, first_player=0, peers=(peer_with(Twice), FairPeer))
    error = caught(wire, 0, CheatDetected, "bad-shuffle")
    assert error.evidence["positions"] == [0, 1] and sent(error)["shuffle"]["step"] == 1


def test_a_shuffle_that_swaps_one_item_for_another_is_caught_at_the_audit() -> None:
    wire = Wire(OBJECTIVES, first_player=0, peers=(FairPeer, peer_with(DuplicatingOuter)))
    error = caught(wire, 1, CheatDetected, "audit")
    assert error.evidence["deck"] == "objectives" and error.evidence["step"] == 2
    # the round was played to its last card before the audit caught it
    honest = wire.peers[0]
    assert honest.state is not None and len(honest.state.deck) == 1
    assert "reveal" in sent(error)


def test_a_re_keying_that_copies_a_position_is_caught_when_it_opens() -> None:
    wire = Wire(PLAIN, first_player=0, peers=(peer_with(CopyingRekey), FairPeer))
    error = caught(wire, 0, CheatDetected, "bad-key")
    assert error.evidence["deck"] == "cards" and error.evidence["position"] == 8


# ---------------------------------------------------------------- keys


@pytest.mark.parametrize("cheater, reason", [(0, "committed"), (1, "opens to no item")])
def test_a_wrong_key_for_a_drawn_card_is_caught_at_once(cheater: int, reason: str) -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        pairs = m.get("keys", {}).get("cards", [])
        if "move" in m or len(pairs) != 1:
            return None
        pairs[0][1] = other_key(pairs[0][1])
        return [m]

    wire = Wire(PLAIN, first_player=1 - cheater, tamper=cheat_once(cheater, change))
    error = caught(wire, cheater, CheatDetected, "bad-key")
    assert reason in error.message and error.evidence["deck"] == "cards"


@pytest.mark.parametrize("cheater, reason", [(0, "committed"), (1, "opens to no item")])
def test_a_changed_key_for_a_played_card_is_caught_at_once(cheater: int, reason: str) -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        if m.get("move", {}).get("type") not in ("play", "discard") or "keys" not in m:
            return None
        m["keys"]["cards"][0][1] = other_key(m["keys"]["cards"][0][1])
        return [m]

    wire = Wire(PLAIN, first_player=cheater, tamper=cheat_once(cheater, change))
    error = caught(wire, cheater, CheatDetected, "bad-key")
    assert reason in error.message and error.evidence["position"] == sent(error)["pos"]


def test_a_key_held_back_is_caught_at_once() -> None:
    def change(m: dict[str, Any]) -> list[dict[str, Any]] | None:
        pairs = m.get("keys", {}).get("cards", [])
        if len(pairs) < 8:
            return None
        del pairs[3]  # one card of the deal
        return [m]

    wire = Wire(PLAIN, first_player=0, tamper=cheat_once(1, change))
    error = caught(wire, 1, CheatDetected, "withheld")
    assert len(error.evidence["owed"]["keys"]["cards"]) == 1


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
    """Seat 1 discards the deck's top card (sending its own key for it) as if it held it."""
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
        m["keys"] = {"cards": [[pos, encode(deck.mine.keys[pos])]]}
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
        m["pick"] = [pos, encode(wire.peers[0].table.decks[(0, "jobs")].mine.keys[pos])]
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
        extra = {"fair": 1, "seq": m["seq"] + 1, "move": {"type": "discard", "card": "R7"},
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
