"""Differential test: the bots' compact mutable simulator against the public immutable engine.

From real positions of random matches (random options), both are driven with the same random
legal moves to the end of the round; at every step they must agree on the legal moves, on
every pile, hand, expedition, charge and the deck size, and at the end on the round scores.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from lostcities import (
    JOBS, Options, ScoringRules, State, apply, card_text, legal_moves, move_from_json,
    move_to_json, new_match,
)
from lostcities.bots.sim import DECK, DRAW_PHASE, PLAY_PHASE, Sim, action_json
from lostcities.mixups import MIXUPS


def sim_from_state(state: State, rng: random.Random) -> Sim:
    """A ``Sim`` holding exactly the (whole, hidden included) round of ``state``."""
    colours = state.colours
    to_act = state.to_act
    assert to_act is not None

    def base_rules(p: int) -> ScoringRules:
        job = state.jobs[p]
        return JOBS[job].adjust(ScoringRules()) if job else ScoringRules()

    used = sum(bit for name, bit in (("radio", 1), ("airlift", 2), ("sabotage", 4))
               if name in state.skills_used)
    shut = [colours.index(c) if c else -1 for c in state.shut_piles]
    final = state.round == state.options.rounds
    return Sim(
        len(colours), [list(state.hands[0]), list(state.hands[1])], list(state.deck),
        [list(p) for p in state.discards],
        [[list(e) for e in state.expeditions[p]] for p in (0, 1)],
        (base_rules(0), base_rules(1)), state.objectives, to_act, rng,
        phase=PLAY_PHASE if state.phase == "play" else DRAW_PHASE,
        charges=state.charges, discards=state.discard_counts, skills=state.options.skills,
        locked=colours.index(state.discarded_onto) if state.discarded_onto else -1,
        shut=shut[to_act], shut_next=shut[1 - to_act], used=used,
        airlift=state.airlift_active, mixup=state.mixup,
        mixup_pool=tuple(MIXUPS) if state.options.mixups and final and not state.mixup else (),
    )


def texts(cards: list[int] | tuple[int, ...]) -> Counter[str]:
    return Counter(card_text(c) for c in cards)


def assert_same(state: State, sim: Sim) -> None:
    assert sim.to_act == state.to_act
    assert sim.phase == (PLAY_PHASE if state.phase == "play" else DRAW_PHASE)
    assert len(sim.deck) == len(state.deck)
    assert [card_text(c) for c in sim.deck] == [card_text(c) for c in state.deck]
    for p in (0, 1):
        assert texts(sim.hands[p]) == texts(state.hands[p])
        assert [[card_text(c) for c in e] for e in sim.exps[p]] == \
            [[card_text(c) for c in e] for e in state.expeditions[p]]
    assert [[card_text(c) for c in p] for p in sim.piles] == \
        [[card_text(c) for c in p] for p in state.discards]
    assert tuple(sim.charges) == state.charges
    assert tuple(sim.discards) == state.discard_counts
    assert sim.airlift == state.airlift_active
    engine_moves = {tuple(sorted(move_to_json(m).items())) for m in legal_moves(state)
                    if move_to_json(m)["type"] != "undo"}
    sim_moves = {tuple(sorted(action_json(a).items())) for a in sim.legal_actions()}
    assert sim_moves == engine_moves


def random_options(rng: random.Random) -> Options:
    return Options(
        rounds=rng.randint(1, 3), sixth_colour=rng.random() < 0.5, jobs=rng.random() < 0.5,
        skills=rng.random() < 0.7, objectives=rng.random() < 0.6, mixups=rng.random() < 0.6,
    )


def play_round_both(state: State, rng: random.Random) -> State:
    """Drive engine and simulator together to the end of the current round."""
    sim = sim_from_state(state, random.Random(0))
    assert_same(state, sim)
    while state.phase in ("play", "draw"):
        moves = [m for m in legal_moves(state) if move_to_json(m)["type"] != "undo"]
        # Skills and draws from piles are rarer in random play; favour them a little.
        special = [m for m in moves if move_to_json(m)["type"] not in ("play", "discard")
                   and move_to_json(m) != {"type": "draw", "source": "deck"}]
        move = rng.choice(special) if special and rng.random() < 0.3 else rng.choice(moves)
        state = apply(state, move)
        action = next(a for a in sim.legal_actions() if action_json(a) == move_to_json(move))
        sim.apply(action)
        if state.mixup is not None:
            assert sim.mixup is not None, "the simulator must turn up a mixup when the engine does"
            if sim.mixup != state.mixup:
                sim.set_mixup(state.mixup)
        else:
            assert sim.mixup is None
        if state.phase in ("play", "draw"):
            assert not sim.over
            assert_same(state, sim)
    assert sim.over
    assert sim.round_scores() == state.round_scores[-1]
    return state


@pytest.mark.parametrize("seed", range(12))
def test_simulator_agrees_with_engine(seed: int) -> None:
    rng = random.Random(seed)
    state = new_match(random_options(rng), seed=seed, first_player=seed % 2)
    while state.phase == "jobs":
        state = apply(state, rng.choice(legal_moves(state)))
    while True:
        state = play_round_both(state, rng)
        if state.phase == "match-end":
            break
        state = apply(state, move_from_json({"type": "next-round"}))


def test_copy_is_independent() -> None:
    state = new_match(Options(skills=True), seed=3)
    sim = sim_from_state(state, random.Random(0))
    twin = sim.copy()
    card = sim.hands[state.to_act or 0][0]
    twin.discard(card)
    twin.draw(DECK)
    assert_same(state, sim)
    assert len(twin.deck) == len(sim.deck) - 1
