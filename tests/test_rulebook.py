"""The rules the screens ask the engine (`lostcities.rulebook`): the ascending rule, a player's
scoring rules and the winner of totals, each checked against what the engine does with them."""

from __future__ import annotations

import random

import pytest

from lostcities import (
    JOBS, MIXUPS, Options, Play, ScoringRules, apply, legal_moves, may_follow, new_match,
    player_rules, winner_of,
)
from lostcities.cards import (
    HANDSHAKES_PER_COLOUR, NUMBERS, card_text, colour_index, parse_card, value_of,
)
from lostcities.scenario import position

EVERY_OPTION = Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
                       mixups=True)


@pytest.mark.parametrize(("cards", "card", "fits"), [
    ([], "RH", True), ([], "R2", True), (["RH", "RH"], "RH", True), (["RH"], "R5", True),
    (["R3"], "RH", False), (["R4"], "R3", False), (["R3"], "R2", False), (["R3"], "R10", True),
    (["RH", "R4", "R9"], "R10", True), (["RH", "R4", "R9"], "R8", False),
])
def test_the_ascending_rule(cards: list[str], card: str, fits: bool) -> None:
    assert may_follow([parse_card(c) for c in cards], parse_card(card)) is fits
    s = position(hands=([card], []), expeditions=({"R": cards}, {}))
    assert (Play(card) in legal_moves(s)) is fits


def test_the_ascending_rule_is_the_engines_in_random_matches() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = new_match(EVERY_OPTION, seed=seed)
        while state.phase != "match-end" and checked < 4000:
            moves = legal_moves(state)
            if state.phase == "play" and not state.airlift_active:
                me = state.to_act
                for card in state.hands[me]:
                    expedition = state.expeditions[me][colour_index(card)]
                    assert (Play(card_text(card)) in moves) is may_follow(expedition, card)
                    checked += 1
            state = apply(state, rng.choice(moves))
    assert checked > 1000


def test_a_players_scoring_rules_are_the_engines() -> None:
    rng = random.Random(3)
    state = new_match(EVERY_OPTION, seed=4)
    seen = set()
    while state.phase != "match-end":
        for p in (0, 1):
            assert state.rules_for(p) == player_rules(state.jobs[p], state.mixup)
            seen.add((state.jobs[p], state.mixup))
        state = apply(state, rng.choice(legal_moves(state)))
    assert player_rules(None, None) == ScoringRules()
    for job in JOBS:
        for mixup in (None, *MIXUPS):
            rules = JOBS[job].adjust(ScoringRules())
            assert player_rules(job, mixup) == (MIXUPS[mixup].adjust(rules) if mixup else rules)
    assert len(seen) > 1


def test_the_winner_of_totals() -> None:
    assert (winner_of((50, 12)), winner_of((12, 50)), winner_of((7, 7))) == (0, 1, "draw")
    assert winner_of((-20, -21)) == 0


def test_a_colour_has_three_handshakes_and_the_numbers_two_to_ten() -> None:
    values = [value_of(c) for c in range(12)]
    assert values == [0] * HANDSHAKES_PER_COLOUR + list(NUMBERS)
    assert NUMBERS == tuple(range(2, 11))
