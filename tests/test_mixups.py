"""docs/rules.md §5.4: when the mixup is drawn, one scenario per mixup, and stacking with jobs."""

import pytest

from lostcities import (
    MIXUPS, Discard, Draw, NextRound, Options, Play, Sabotage, apply, legal_moves, view,
)
from lostcities.scenario import position

MIX = Options(rounds=1, mixups=True)


def test_drawn_the_first_time_the_deck_is_down_to_eight_in_the_final_round() -> None:
    s = position(MIX, phase="draw", deck_size=10)
    s = apply(s, Draw("deck"))
    assert view(s, 0)["mixup"] is None and view(s, 0)["deck_count"] == 9
    s = apply(apply(s, Discard(view(s, 1)["hand"][0])), Draw("deck"))
    mixup = view(s, 0)["mixup"]
    assert mixup in MIXUPS and view(s, 1)["mixup"] == mixup
    assert view(s, 1)["log"][-1] == {"player": None, "type": "mixup", "mixup": mixup}
    s = apply(apply(s, Discard(view(s, 0)["hand"][0])), Draw("deck"))
    assert view(s, 0)["mixup"] == mixup and view(s, 0)["deck_count"] == 7


def test_mixups_vary_with_the_seed() -> None:
    drawn = set()
    for seed in range(40):
        s = apply(position(MIX, phase="draw", deck_size=9, seed=seed), Draw("deck"))
        drawn.add(view(s, 0)["mixup"])
    assert drawn == set(MIXUPS)


def test_no_mixup_before_the_final_round_or_with_the_option_off() -> None:
    early = position(Options(rounds=2, mixups=True), phase="draw", deck_size=9)
    assert apply(early, Draw("deck")).mixup is None
    off = position(Options(rounds=1), phase="draw", deck_size=9)
    assert apply(off, Draw("deck")).mixup is None
    final = position(Options(rounds=2, mixups=True), phase="round-end", to_act=None,
                     deck_size=0, round_scores=[(0, 0)])
    final = apply(final, NextRound())
    while view(final, 0)["deck_count"] > 8:
        final = apply(apply(final, Discard(view(final, final.to_act)["hand"][0])), Draw("deck"))
    assert final.mixup in MIXUPS


def _red(mixup: str | None, cards: list[str], job: str | None = None) -> int:
    opts = Options(rounds=1, mixups=True, jobs=job is not None)
    jobs = (job, "scout" if job != "scout" else "surveyor") if job else (None, None)
    s = position(opts, expeditions=({"R": cards}, {}), mixup=mixup, jobs=jobs)
    return view(s, 1)["scores"][0]["R"]


EIGHT = ["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]
SIX = ["RH", "R4", "R5", "R6", "R7", "R8"]


@pytest.mark.parametrize("mixup, cards, plain, mixed", [
    ("short-road", SIX, (30 - 20) * 2, (30 - 20) * 2 + 20),
    ("dear-roads", ["R8", "R9", "R10"], 7, -3),
    ("big-bonus", EIGHT, 24 + 20, 24 + 40),
    ("safety-net", ["RH", "RH", "R4"], -48, -16),
    ("golden-tens", ["R9", "R10"], -1, 4),
])
def test_scoring_mixups(mixup: str, cards: list[str], plain: int, mixed: int) -> None:
    assert _red(None, cards) == plain
    assert _red(mixup, cards) == mixed


def test_mixup_applies_to_the_round_scoring() -> None:
    s = position(MIX, expeditions=({"R": ["R9", "R10"]}, {}), mixup="golden-tens",
                 phase="draw", deck_size=1)
    assert view(apply(s, Draw("deck")), 0)["breakdown"][0]["expeditions"]["R"]["sum"] == 24


@pytest.mark.parametrize("job, mixup, cards, expected", [
    ("surveyor", "dear-roads", ["R8", "R9", "R10"], 27 - 25),
    ("chronicler", "short-road", ["R2", "R3", "R4", "R5", "R6"], 0 + 20),
    ("collector", "big-bonus", EIGHT, 24 + 60),
    ("financier", "safety-net", ["RH", "RH", "R4"], -16),
    ("surveyor", "golden-tens", ["R10"], 0),
])
def test_jobs_and_mixups_stack(job: str, mixup: str, cards: list[str], expected: int) -> None:
    assert _red(mixup, cards, job) == expected


def test_open_piles_unlocks_the_pile_just_discarded_onto() -> None:
    s = position(MIX, hands=(["G5"], []), mixup="open-piles")
    s = apply(s, Discard("G5"))
    assert Draw("G") in legal_moves(s) and view(s, 0)["locked_pile"] is None
    s = apply(s, Draw("G"))
    assert "G5" in view(s, 0)["hand"]


def test_open_piles_sabotage_is_legal_but_shuts_nothing() -> None:
    opts = Options(rounds=1, mixups=True, skills=True)
    s = position(opts, hands=(["Y2"], ["B2"]), discards={"R": ["R3"]}, mixup="open-piles",
                 charges=(3, 0))
    assert Sabotage("R") in legal_moves(s)
    s = apply(apply(apply(s, Sabotage("R")), Play("Y2")), Draw("deck"))
    assert view(s, 0)["charges"] == [0, 0] and view(s, 1)["shut_pile"] is None
    s = apply(s, Play("B2"))
    assert Draw("R") in legal_moves(s)


def _move_set(state):
    return set(legal_moves(state))


@pytest.mark.parametrize("mixup", list(MIXUPS))
def test_no_mixup_forbids_a_move_that_would_otherwise_be_legal(mixup: str) -> None:
    opts = Options(rounds=1, mixups=True, skills=True)
    for seed in range(5):
        kw = dict(hands=(["G5", "RH"], []), discards={"G": ["G2"], "B": ["B3"]},
                  charges=(3, 3), shut_piles=("B", None), seed=seed,
                  expeditions=({"R": ["R4"]}, {}))
        plain = position(opts, **kw)
        mixed = position(opts, mixup=mixup, **kw)
        assert _move_set(plain) <= _move_set(mixed)
        plain_d, mixed_d = apply(plain, Discard("G5")), apply(mixed, Discard("G5"))
        assert _move_set(plain_d) <= _move_set(mixed_d)
