"""Randomness comes only from the seed, identically on every Python (CPython 3.11, Pyodide 3.14).

Golden values: if one of these changes, every saved game and replay changes with it. They guard
the derivation in lostcities.rng / lostcities.dealing; the Pyodide e2e test compares the same
playthrough in the browser.
"""

import runpy
from pathlib import Path

from lostcities import Options, new_match, view
from fastmatch import FastMatch

ALL_ON = Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
                 mixups=True)
playthrough = runpy.run_path(str(Path(__file__).parent / "pyodide" / "golden.py"))["play"]
"""A seeded random playthrough: the one the Pyodide test runs too."""


def test_golden_deal() -> None:
    s = new_match(Options(), seed=42)
    assert view(s, 0)["hand"] == ["Y7", "WH", "W5", "W8", "G2", "G3", "G4", "G6"]
    assert view(s, 1)["hand"] == ["YH", "Y2", "B6", "B7", "GH", "G9", "RH", "R10"]


def test_golden_playthroughs() -> None:
    assert playthrough(Options(), 42, 7).round_scores == ((-39, -32), (-16, -61), (-43, -16))
    s = playthrough(ALL_ON, 42, 7)
    # Random play passes a turn where both players' sabotages stand (state version 2).
    assert s.round_scores == ((3, -29), (-17, 12))
    assert (s.jobs, s.mixup) == (("chronicler", "collector"), "safety-net")
    assert s.objectives == (("minimalist", "investor"), ("high-stakes", "rivalry"))


def test_the_seed_decides_everything() -> None:
    for options in (Options(), ALL_ON):
        a, b = playthrough(options, 9, 3), playthrough(options, 9, 3)
        assert a == b
        assert playthrough(options, 10, 3).round_scores != a.round_scores


def test_first_player_at_random_comes_from_the_seed() -> None:
    firsts = {new_match(Options(), seed=k, first_player=None).to_act for k in range(20)}
    assert firsts == {0, 1}
    assert all(new_match(Options(), seed=k, first_player=None).to_act
               == new_match(Options(), seed=k, first_player=None).to_act for k in range(20))


def test_fast_path_deals_the_same_match() -> None:
    fast = FastMatch.new(ALL_ON, 42)
    assert fast.to_state().job_offers == new_match(ALL_ON, seed=42).job_offers
