"""Refusals: every illegal move says why with a stable code and its data (architecture.md, Errors).

One scenario per code checks the code, the data and the English message; seeded random matches
check that ``apply``, ``why_illegal``, ``legal_moves`` and the view's ``refusals`` never disagree.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from lostcities import (
    COLOURS, JOBS, REFUSAL_CODES, Airlift, Discard, Draw, IllegalMove, Move, NextRound, Options,
    PickJob, Play, Radio, Refusal, Sabotage, State, Undo, apply, legal_moves, new_match, view,
    why_illegal,
)
from lostcities.cards import CARD_TEXTS
from lostcities.scenario import position

SKILLS_ON = Options(rounds=3, skills=True)


def _round_end() -> State:
    return position(Options(rounds=2), phase="round-end", to_act=None, deck_size=0,
                    round_scores=[(0, 0)])


CASES: list[tuple[str, Any, object, str, dict[str, Any] | None, str]] = [
    ("not-a-move", lambda: position(), "play R7", "not-a-move", {}, "is not a move"),
    ("wrong-phase/play", lambda: position(hands=(["Y7"], [])), Draw("deck"), "wrong-phase",
     {"phase": "play"}, "First play or discard"),
    ("wrong-phase/draw", lambda: apply(position(hands=(["Y7", "B2"], [])), Play("Y7")),
     Discard("B2"), "wrong-phase", {"phase": "draw"}, "Now draw a card"),
    ("wrong-phase/jobs", lambda: new_match(Options(jobs=True), seed=1), Play("Y2"),
     "wrong-phase", {"phase": "jobs"}, "First pick your job"),
    ("wrong-phase/round-end", _round_end, Play("Y7"), "wrong-phase", {"phase": "round-end"},
     "start the next round"),
    ("wrong-phase/match-end",
     lambda: apply(position(Options(rounds=1), phase="draw", deck_size=1), Draw("deck")),
     NextRound(), "wrong-phase", {"phase": "match-end"}, "The match is over"),
    ("no-such-colour", lambda: position(Options()), Play("P2"), "no-such-colour",
     {"colour": "P"}, "There is no purple in this match"),
    ("no-such-colour/sabotage", lambda: position(SKILLS_ON, charges=(3, 0)), Sabotage("P"),
     "no-such-colour", {"colour": "P"}, "There is no purple"),
    ("card-not-in-hand", lambda: position(hands=(["Y7"], ["B9"])), Discard("B9"),
     "card-not-in-hand", {"card": "B9"}, "You don't hold the blue 9"),
    ("below-top", lambda: position(hands=(["R4"], []), expeditions=({"R": ["R2", "R7"]}, {})),
     Play("R4"), "below-top", {"card": "R4", "colour": "R", "top": 7},
     "red 4 can't follow red 7"),
    ("below-top/over-handshakes",
     lambda: position(hands=(["R3"], []), expeditions=({"R": ["RH", "R5"]}, {})),
     Play("R3"), "below-top", {"card": "R3", "colour": "R", "top": 5},
     "red 3 can't follow red 5"),
    ("handshake-after-number",
     lambda: position(hands=(["BH"], []), expeditions=({"B": ["BH", "B3"]}, {})),
     Play("BH"), "handshake-after-number", {"colour": "B"},
     "blue handshake can't follow blue numbers"),
    ("pile-empty", lambda: apply(position(hands=(["Y2"], [])), Play("Y2")), Draw("R"),
     "pile-empty", {"colour": "R"}, "The red pile is empty"),
    ("pile-locked", lambda: apply(position(hands=(["G5"], []), discards={"G": ["G2"]}),
                                  Discard("G5")),
     Draw("G"), "pile-locked", {"colour": "G"}, "you just discarded onto it"),
    ("pile-shut", lambda: apply(position(SKILLS_ON, hands=(["Y2"], []), discards={"R": ["R3"]},
                                         shut_piles=("R", None)), Play("Y2")),
     Draw("R"), "pile-shut", {"colour": "R"}, "it was sabotaged"),
    ("pile-shut/empty", lambda: apply(position(SKILLS_ON, hands=(["Y2"], []),
                                               shut_piles=("R", None)), Play("Y2")),
     Draw("R"), "pile-shut", {"colour": "R"}, "it was sabotaged"),
    ("skills-off", lambda: new_match(Options(), seed=1), Radio(), "skills-off", {},
     "Skills are off in this match"),
    ("skill-too-late", lambda: apply(position(SKILLS_ON, charges=(3, 0), hands=(["Y2"], [])),
                                     Play("Y2")),
     Airlift(), "skill-too-late", {"skill": "airlift"}, "before your play or discard"),
    ("skill-used", lambda: position(SKILLS_ON, charges=(5, 0), skills_used=["radio"]), Radio(),
     "skill-used", {"skill": "radio"}, "already used Radio this turn"),
    ("no-charge", lambda: position(SKILLS_ON, charges=(2, 9)), Sabotage("R"), "no-charge",
     {"skill": "sabotage", "cost": 3, "charges": 2}, "Sabotage needs 3 charges; you have 2"),
    ("job-not-offered", lambda: new_match(Options(jobs=True), seed=1), None, "job-not-offered",
     None, "was not offered to you"),
    ("nothing-to-undo", lambda: position(hands=(["W6"], [])), Undo(), "nothing-to-undo", {},
     "nothing to undo"),
]


def _resolve(build: Any, move: object, data: dict[str, Any] | None) -> tuple[
        State, object, dict[str, Any]]:
    state = build()
    if move is None:  # the job case: one that was not offered to the player to act
        job = next(j for j in JOBS if j not in state.job_offers[state.to_act])
        return state, PickJob(job), {"job": job}
    assert data is not None
    return state, move, data


@pytest.mark.parametrize(("name", "build", "move", "code", "data", "message"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_refusal_carries_its_code_and_data(name: str, build: Any, move: object,
                                                code: str, data: dict[str, Any] | None,
                                                message: str) -> None:
    state, move, data = _resolve(build, move, data)
    refusal = why_illegal(state, move)
    assert refusal is not None
    assert (refusal.code, refusal.data) == (code, data)
    assert message in refusal.message
    json.dumps(refusal.to_json())
    with pytest.raises(IllegalMove) as raised:
        apply(state, move)  # type: ignore[arg-type]
    assert (raised.value.code, raised.value.data, str(raised.value)) == (
        refusal.code, refusal.data, refusal.message)
    assert raised.value.refusal == refusal


def test_every_code_has_a_scenario() -> None:
    covered = {c[3] for c in CASES} | {"not-your-turn", "deck-empty"}
    assert covered == set(REFUSAL_CODES)


def test_out_of_turn_is_refused_only_when_the_player_is_named() -> None:
    s = position(hands=(["Y7"], ["B9"]))
    assert why_illegal(s, Discard("B9"), player=1) == Refusal(
        "not-your-turn", {"to_act": 0}, "It is Player 1's turn")
    assert why_illegal(s, Discard("Y7"), player=0) is None
    assert why_illegal(s, Discard("B9")) is not None  # the player to act does not hold it
    assert why_illegal(_round_end(), NextRound(), player=1) is None  # anyone may go on


def test_drawing_from_an_empty_deck_is_refused() -> None:
    s = apply(position(hands=(["Y2"], []), deck_size=1), Play("Y2"))
    empty = replace(s, deck=())  # never reached in play: the last deck draw ends the round
    refusal = why_illegal(empty, Draw("deck"))
    assert refusal is not None and (refusal.code, refusal.data) == ("deck-empty", {})


def test_a_refusal_must_use_a_known_code_with_its_data() -> None:
    with pytest.raises(ValueError):
        Refusal("no-such-code", {}, "?")
    with pytest.raises(ValueError):
        Refusal("below-top", {"card": "R4"}, "?")


# ---------------------------------------------------------------- random matches


def _candidates(state: State, rng: random.Random) -> list[object]:
    """Moves worth asking about here: every move of the hand, every draw, skill and job, a
    few cards not held, and things that are not moves."""
    held = sorted(set(view(state, 0)["hand"] + view(state, 1)["hand"]))
    others = rng.sample(sorted(CARD_TEXTS), 4)
    moves: list[object] = [Radio(), Airlift(), Undo(), NextRound(), Draw("deck"), "draw"]
    moves += [Sabotage(c) for c in COLOURS] + [Draw(c) for c in COLOURS]
    moves += [PickJob(j) for j in JOBS]
    for card in held + others:
        moves += [Play(card), Discard(card)]
    return moves


def _check_state(state: State, rng: random.Random) -> None:
    legal = set(legal_moves(state))
    for move in _candidates(state, rng):
        refusal = why_illegal(state, move)
        assert (refusal is None) == (move in legal), (move, refusal)
        if refusal is None:
            apply(state, move)  # type: ignore[arg-type]
            continue
        assert refusal.code in REFUSAL_CODES
        json.dumps(refusal.to_json())
        with pytest.raises(IllegalMove) as raised:
            apply(state, move)  # type: ignore[arg-type]
        assert raised.value.refusal == refusal
    _check_view_refusals(state)


def _check_view_refusals(state: State) -> None:
    """The view's refusals are the engine's reasons, for the player to act only."""
    for player in (0, 1):
        got = view(state, player)["refusals"]
        if state.to_act != player or state.phase not in ("play", "draw"):
            assert got == {"play": {}, "draw": {}}
            continue
        if state.phase == "play":
            expected_plays: dict[str, Any] = {}
            for card in view(state, player)["hand"]:
                refusal = why_illegal(state, Play(card))
                if refusal is not None:
                    expected_plays[card] = refusal.to_json()
            assert got["play"] == expected_plays
            plays = [m for m in legal_moves(state) if isinstance(m, Play)]
            if plays:  # a play changes no pile: the draw step's reasons are already known
                after = apply(state, plays[0])
                assert view(after, player)["refusals"]["draw"] == got["draw"]
        else:
            assert got["play"] == {}
            expected_draws: dict[str, Any] = {}
            for source in ("deck", *state.colours):
                refusal = why_illegal(state, Draw(source))
                if refusal is not None:
                    expected_draws[source] = refusal.to_json()
            assert got["draw"] == expected_draws


def _pick(moves: tuple[Move, ...], rng: random.Random) -> Move:
    """A random move, skills and pile draws (rare in uniform play) a little favoured."""
    moves = tuple(m for m in moves if not isinstance(m, Undo)) or moves
    special = [m for m in moves if not isinstance(m, (Play, Discard))
               and m != Draw("deck")]
    return rng.choice(special) if special and rng.random() < 0.3 else rng.choice(moves)


@pytest.mark.parametrize("seed", range(6))
def test_apply_why_illegal_legal_moves_and_the_view_agree(seed: int) -> None:
    rng = random.Random(seed)
    options = Options(rounds=1, sixth_colour=rng.random() < 0.5, jobs=rng.random() < 0.5,
                      skills=seed % 2 == 0, objectives=rng.random() < 0.5,
                      mixups=rng.random() < 0.5)
    state = new_match(options, seed=seed, first_player=rng.randrange(2))
    step = 0
    while state.phase != "match-end":
        if step % 3 == 0 or state.phase in ("jobs", "round-end"):
            _check_state(state, rng)
        state = apply(state, _pick(legal_moves(state), rng))
        step += 1
    _check_state(state, rng)
