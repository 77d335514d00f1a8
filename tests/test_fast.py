"""The fast playout path (lostcities.fast) played against the public immutable API."""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lostcities import (
    Options, Undo, apply, legal_moves, new_match, state_from_json, state_to_json,
)
from lostcities.fast import FastMatch, from_move, summary_of, to_move

options_st = st.builds(
    Options, rounds=st.integers(1, 3), sixth_colour=st.booleans(), jobs=st.booleans(),
    skills=st.booleans(), objectives=st.booleans(), mixups=st.booleans(),
)


def engine_moves(state):
    return [m for m in legal_moves(state) if not isinstance(m, Undo)]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
        move = rng.choice(engine_moves(state))
        fast.step(from_move(fast, move))
        state = apply(state, move)
        step += 1
    assert fast.totals == state.totals


@settings(max_examples=20, deadline=None)
@given(options=options_st, seed=st.integers(0, 2**32), policy=st.integers(0, 2**16),
       moves=st.integers(0, 80))
def test_playout_hot_loop_equals_step_by_step_random_actions(options: Options, seed: int,
                                                             policy: int, moves: int) -> None:
    rng = random.Random(policy)
    state = new_match(options, seed=seed)
    for _ in range(moves):  # start anywhere, mid-turn included
        if state.phase == "match-end":
            break
        state = apply(state, rng.choice(engine_moves(state)))
    quick = FastMatch.from_state(state)
    quick.playout(random.Random(policy))
    slow = FastMatch.from_state(state)
    rand = random.Random(policy).random
    while True:
        try:
            action = slow.random_action(rand)
        except ValueError:
            break
        assert action in slow.legal_actions()
        slow.step(action)
    assert quick.summary() == slow.summary() and quick.phase == slow.phase
    end = state_from_json(state_to_json(quick.to_state()))  # a valid finished match
    assert end.phase == "match-end" and len(end.round_scores) == options.rounds


def test_random_action_is_uniform_over_the_legal_actions() -> None:
    rng = random.Random(5)
    for options in (Options(rounds=1), Options(rounds=1, skills=True, sixth_colour=True)):
        state = new_match(options, seed=3)
        for _ in range(25):  # reach a position with piles and charges
            state = apply(state, rng.choice(engine_moves(state)))
        for position in (state, apply(state, engine_moves(state)[-1])):
            fast = FastMatch.from_state(position)
            legal = fast.legal_actions()
            counts = Counter(fast.random_action(rng.random) for _ in range(400 * len(legal)))
            assert set(counts) == set(legal)
            assert all(250 < c < 550 for c in counts.values()), counts
