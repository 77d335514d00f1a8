"""Property tests: random legal play of whole matches with random options (hypothesis).

Each example plays one match with a seeded random policy and checks, step by step: every card
accounted for, never stuck before the end, generated illegal moves rejected with the state
unchanged, legal moves all applicable, views JSON-ready and blind to hidden information, state
and move JSON round-trips, undo exact; and at the end that a replay gives the same game.
"""

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lostcities import (
    COLOURS, JOBS, OBJECTIVES, Airlift, Discard, Draw, IllegalMove, NextRound, Options, PickJob,
    Play, Radio, Sabotage, Undo, apply, card_text, legal_moves, move_from_json, move_to_json,
    new_match, state_from_json, state_to_json, view,
)

CARD_TEXTS = [c + v for c in COLOURS for v in ["H"] + [str(n) for n in range(2, 11)]]
UNIVERSE = (
    [PickJob(j) for j in JOBS] + [Radio(), Airlift(), Undo(), NextRound(), Draw("deck")]
    + [Sabotage(c) for c in COLOURS] + [Draw(c) for c in COLOURS]
    + [Play(t) for t in CARD_TEXTS] + [Discard(t) for t in CARD_TEXTS]
)

options_st = st.builds(
    Options, rounds=st.integers(1, 3), sixth_colour=st.booleans(), jobs=st.booleans(),
    skills=st.booleans(), objectives=st.booleans(), mixups=st.booleans(),
)
SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def all_cards(state) -> list[int]:
    cards = list(state.deck) + [c for h in state.hands for c in h]
    cards += [c for pile in state.discards for c in pile]
    cards += [c for exps in state.expeditions for e in exps for c in e]
    return sorted(cards)


def choose(state, rng: random.Random):
    moves = legal_moves(state)
    if state.phase == "draw":
        draws = [m for m in moves if not isinstance(m, Undo)]
        if rng.random() < 0.6:
            return Draw("deck")
        return rng.choice(draws)
    return rng.choice(moves)


def peek_count(state, player: int) -> int:
    """How many deck cards docs/rules.md §6 lets ``player`` see now (Radio 2, Scout 1, own turn)."""
    if state.to_act != player or state.phase not in ("play", "draw"):
        return 0
    if "radio" in state.skills_used:
        return 2
    return 1 if state.jobs[player] == "scout" else 0


def knowable(state, player: int) -> set[str]:
    """Every card text ``player`` has been allowed to see, worked out from the state."""
    cards = set(state.hands[player])
    cards.update(c for exps in state.expeditions for e in exps for c in e)
    cards.update(c for pile in state.discards for c in pile)
    k = peek_count(state, player)
    cards.update(state.deck[len(state.deck) - k:] if k else ())
    for e in state.log:
        if e.card is not None and (e.type != "draw" or e.detail != "deck" or e.player == player):
            cards.add(e.card)
    return {card_text(c) for c in cards}


def card_strings(data) -> set[str]:
    """Every card text anywhere in a JSON value."""
    if isinstance(data, str):
        return {data} & set(CARD_TEXTS)
    if isinstance(data, dict):
        return set().union(*(card_strings(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(card_strings(v) for v in data)) if data else set()
    return set()


def scramble(state, viewer: int, rng: random.Random):
    """The same game with everything ``viewer`` may not see redealt at random."""
    opp = 1 - viewer
    data = copy.deepcopy(state_to_json(state))
    v = view(state, viewer)
    keep = peek_count(state, viewer)
    deck_hidden = data["deck"][:len(data["deck"]) - keep]
    pool = data["hands"][opp] + deck_hidden
    new = pool[:]
    rng.shuffle(new)
    mapping = dict(zip(pool, new))

    def remap(d):
        d["hands"][opp] = [mapping.get(c, c) for c in d["hands"][opp]]
        d["deck"] = [mapping.get(c, c) for c in d["deck"]]
        if not v["breakdown"] and data["options"]["objectives"] and data["phase"] != "jobs":
            d["objectives"][opp] = objectives_swap
        if data["options"]["jobs"]:
            d["job_offers"][opp] = offer_swap
            if d["jobs"][opp] is not None and v["jobs"][opp] is None:
                d["jobs"][opp] = offer_swap[0]

    used = set(data["objectives"][viewer])
    spare = [o for o in OBJECTIVES if o not in used]
    rng.shuffle(spare)
    objectives_swap = spare[:2]
    offer_swap = list(data["job_offers"][opp])
    if data["options"]["jobs"]:
        free = [j for j in JOBS if j not in data["job_offers"][0] + data["job_offers"][1]]
        if v["jobs"][opp] is None:
            offer_swap = free[:2]
        else:
            offer_swap = [v["jobs"][opp], free[0]]
    remap(data)
    if data["undo"] is not None:
        remap(data["undo"])
    return state_from_json(data)


def check_step(state, rng: random.Random, deep: bool) -> None:
    n = 72 if state.options.sixth_colour else 60
    assert all_cards(state) == list(range(n))
    moves = legal_moves(state)
    assert moves or state.phase == "match-end"
    legal = set(moves)
    before = state_to_json(state) if deep else None
    for m in rng.sample(UNIVERSE, 6) + ([rng.choice(moves)] if moves else []):
        try:
            apply(state, m)
            ok = True
        except IllegalMove:
            ok = False
        assert ok == (m in legal), (m, state.phase)
    if not deep:
        return
    assert state_to_json(state) == before
    assert state_from_json(json.loads(json.dumps(before))) == state
    for m in moves:
        assert move_from_json(json.loads(json.dumps(move_to_json(m)))) == m
    for p in (0, 1):
        v = view(state, p)
        assert json.loads(json.dumps(v)) == v
        assert card_strings(v) <= knowable(state, p)
        assert view(scramble(state, p, rng), p) == v


@SETTINGS
@given(options=options_st, seed=st.integers(0, 2**32), policy=st.integers(0, 2**16))
def test_random_matches_keep_every_invariant(options: Options, seed: int, policy: int) -> None:
    rng = random.Random(policy)
    state = new_match(options, seed=seed, first_player=rng.randrange(2))
    start = state
    played = []
    step = 0
    while state.phase != "match-end":
        check_step(state, rng, deep=step % 15 == 0)
        move = choose(state, rng)
        after = apply(state, move)
        if state.phase == "draw" and rng.random() < 0.05:
            assert apply(state, Undo()) == state.undo
            assert apply(state, Undo()).phase == "play"
        played.append(move)
        state = after
        step += 1
    check_step(state, rng, deep=True)
    assert len(state.round_scores) == options.rounds and state.winner in (0, 1, "draw")
    replay = start
    for move in played:
        replay = apply(replay, move)
    assert replay == state and view(replay, 0) == view(state, 0)


@settings(max_examples=10, deadline=None)
@given(options=options_st, seed=st.integers(0, 2**32))
def test_undo_takes_back_exactly(options: Options, seed: int) -> None:
    rng = random.Random(seed)
    state = new_match(options, seed=seed)
    for _ in range(120):
        if state.phase in ("round-end", "match-end"):
            break
        if state.phase == "play":
            before = state
            state = apply(state, rng.choice(legal_moves(state)))
            if state.phase == "draw":
                assert apply(state, Undo()) == before
        else:
            state = apply(state, choose(state, rng))
