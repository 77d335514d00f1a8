"""The bots' fast mutable simulator (lostcities.fast) played against the public immutable API.

``FastMatch`` (tests/fastmatch.py) drives whole matches (random options) through ``Sim``;
at every move both must agree on the legal moves (in order), every hand, pile, expedition,
charge, skill used, locked and shut pile, the deck, the mixup, and on the round scores.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lostcities import (
    MIXUPS, Options, Undo, apply, legal_moves, move_to_json, new_match, state_from_json,
    state_to_json,
)
from lostcities.fast import DECK
from lostcities.mixups import MIXUP_TRIGGER_DECK
from lostcities.scenario import position

from fastmatch import FastMatch, from_move, round_sim, summary_of, to_move

options_st = st.builds(
    Options, rounds=st.integers(1, 3), sixth_colour=st.booleans(), jobs=st.booleans(),
    skills=st.booleans(), objectives=st.booleans(), mixups=st.booleans(),
)


def engine_moves(state):
    return [m for m in legal_moves(state) if not isinstance(m, Undo)]


def pick(moves, rng: random.Random):
    """A random move; skills and draws from piles (rare in uniform play) a little favoured."""
    special = [m for m in moves if move_to_json(m)["type"] not in ("play", "discard")
               and move_to_json(m) != {"type": "draw", "source": "deck"}]
    return rng.choice(special) if special and rng.random() < 0.3 else rng.choice(moves)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_st, seed=st.integers(0, 2**32), policy=st.integers(0, 2**16))
def test_fast_match_never_disagrees_with_the_engine(options: Options, seed: int,
                                                     policy: int) -> None:
    rng = random.Random(policy)
    first = rng.randrange(2)
    state = new_match(options, seed=seed, first_player=first)
    fast = FastMatch.new(options, seed, first)
    step = 0
    while True:
        assert fast.summary() == summary_of(state)
        actions = fast.legal_actions()
        assert [to_move(a) for a in actions] == engine_moves(state)
        if step % 20 == 0:
            copy = FastMatch.from_state(state)
            assert copy.summary() == summary_of(state) and copy.legal_actions() == actions
            rebuilt = state_from_json(state_to_json(fast.to_state()))
            assert engine_moves(rebuilt) == engine_moves(state)
        if not actions:
            break
        move = pick(engine_moves(state), rng)
        fast.step(from_move(fast, move))
        state = apply(state, move)
        step += 1
    assert fast.totals == state.totals


@settings(max_examples=10, deadline=None)
@given(options=options_st, seed=st.integers(0, 2**32), policy=st.integers(0, 2**16))
def test_a_random_playout_ends_in_a_valid_finished_match(options: Options, seed: int,
                                                         policy: int) -> None:
    fast = FastMatch.new(options, seed)
    fast.playout(random.Random(policy))
    end = state_from_json(state_to_json(fast.to_state()))
    assert end.phase == "match-end" and len(end.round_scores) == options.rounds


def test_a_copy_is_independent() -> None:
    state = new_match(Options(skills=True), seed=3)
    sim = round_sim(state)
    twin = sim.copy()
    twin.discard(twin.hands[sim.to_act][0])
    twin.draw(DECK)
    assert FastMatch.from_state(state).sim.hands == sim.hands  # type: ignore[union-attr]
    assert len(twin.deck) == len(sim.deck) - 1 and twin.to_act != sim.to_act


def test_a_sim_with_a_mixup_pool_turns_one_up_when_the_deck_reaches_eight() -> None:
    opts = Options(rounds=1, mixups=True)
    state = position(opts, hands=(["Y2"], []), deck_size=MIXUP_TRIGGER_DECK + 1)
    sim = round_sim(state, random.Random(4))
    sim.mixup_pool = tuple(MIXUPS)
    sim.play(sim.hands[0][0])
    sim.draw(DECK)
    assert sim.mixup in MIXUPS and sim.mixup_pool == ()
    assert sim.rules(0) == MIXUPS[sim.mixup].adjust(state.rules_for(0))
