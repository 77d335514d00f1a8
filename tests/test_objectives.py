"""docs/rules.md §5.3: the objective deal, secrecy, and one scenario per objective."""

import pytest

from lostcities import OBJECTIVES, Draw, NextRound, Options, apply, new_match, view
from lostcities.scenario import position

OBJ_ON = Options(rounds=1, objectives=True)
HIGH = ["8", "9", "10"]


def cards(colour: str, values: list[str]) -> list[str]:
    return [colour + v for v in values]


CASES = [
    ("long-haul", {"R": cards("R", "2 3 4 5 6 7 8".split())}, {}, 0, True),
    ("long-haul", {"R": cards("R", "2 3 4 5 6 7".split())}, {}, 0, False),
    ("grand-tour", {c: [c + "2"] for c in "YBWGR"}, {}, 0, True),
    ("grand-tour", {c: [c + "2"] for c in "YBWG"}, {}, 0, False),
    ("in-the-black", {"R": cards("R", HIGH)}, {}, 0, True),
    ("in-the-black", {"R": cards("R", HIGH), "Y": ["Y2"]}, {}, 0, False),
    ("in-the-black", {}, {}, 0, False),
    ("high-stakes", {"R": cards("R", ["H", "H"] + HIGH)}, {}, 0, True),
    ("high-stakes", {"R": cards("R", ["H"] + HIGH)}, {}, 0, False),
    ("high-stakes", {"R": cards("R", ["H", "H", "2"])}, {}, 0, False),
    ("specialist", {"R": cards("R", "H 5 6 7 8 9 10".split())}, {}, 0, True),
    ("specialist", {"R": cards("R", ["H"] + HIGH)}, {}, 0, False),
    ("summit", {"G": cards("G", ["2"] + HIGH)}, {}, 0, True),
    ("summit", {"G": cards("G", ["9", "10"])}, {}, 0, False),
    ("base-camp", {"W": cards("W", ["2", "3", "4", "9"])}, {}, 0, True),
    ("base-camp", {"W": cards("W", ["2", "3", "5"])}, {}, 0, False),
    ("straight", {"B": cards("B", ["3", "4", "5", "6", "7"])}, {}, 0, True),
    ("straight", {"B": cards("B", ["3", "4", "5", "6", "8", "9"])}, {}, 0, False),
    ("thrift", {}, {}, 3, True),
    ("thrift", {}, {}, 4, False),
    ("minimalist", {c: cards(c, HIGH) for c in "RBW"}, {}, 0, True),
    ("minimalist", {c: cards(c, HIGH) for c in "RBWG"}, {}, 0, False),
    ("minimalist", {"R": cards("R", HIGH), "B": cards("B", HIGH), "W": ["W2"]}, {}, 0, False),
    ("rivalry", {c: cards(c, HIGH) for c in "RBW"}, {"Y": ["Y9"]}, 0, True),
    ("rivalry", {c: cards(c, HIGH) for c in "RBW"}, {"W": cards("W", "2 3 4 5 6 7".split())},
     0, False),
    ("investor", {"R": ["RH"], "B": ["BH"], "W": ["WH", "W5"]}, {}, 0, True),
    ("investor", {"R": ["RH", "RH"]}, {}, 0, False),
]


@pytest.mark.parametrize("objective, mine, theirs, discards, achieved", CASES)
def test_objective(objective: str, mine: dict, theirs: dict, discards: int,
                   achieved: bool) -> None:
    others = [o for o in OBJECTIVES if o != objective]
    s = position(OBJ_ON, expeditions=(mine, theirs), phase="draw", deck_size=1,
                 discard_counts=(discards, 0), objectives=([objective, others[0]], others[1:3]))
    v = view(s, 1)
    assert v["objectives"] == [None, others[1:3]]  # secret until the scoring
    s = apply(s, Draw("deck"))
    v = view(s, 1)
    assert v["objectives"] == [[objective, others[0]], others[1:3]]
    result = v["breakdown"][0]["objectives"][0]
    assert result == {"id": objective, "achieved": achieved, "points": 25 if achieved else 0}
    expeditions = sum(e["score"] for e in v["breakdown"][0]["expeditions"].values())
    bonus = sum(o["points"] for o in v["breakdown"][0]["objectives"])
    assert v["breakdown"][0]["total"] == expeditions + bonus == v["round_scores"][0][0]


def test_every_objective_has_a_case_both_ways() -> None:
    assert {(c[0], c[4]) for c in CASES} == {(o, a) for o in OBJECTIVES for a in (True, False)}


def test_two_secret_objectives_each_reshuffled_every_round() -> None:
    opts = Options(rounds=2, objectives=True)
    s = new_match(opts, seed=8)
    mine, theirs = view(s, 0)["objectives"][0], view(s, 1)["objectives"][1]
    assert len(mine) == 2 and len(theirs) == 2 and len(set(mine + theirs)) == 4
    assert view(s, 0)["objectives"][1] is None and view(s, 1)["objectives"][0] is None
    for o in theirs:
        assert o not in str(view(s, 0)).replace(f"'{mine[0]}'", "").replace(f"'{mine[1]}'", "")
    deals = set()
    for seed in range(12):
        s = position(opts, phase="round-end", to_act=None, deck_size=0, round_scores=[(0, 0)],
                     objectives=(["thrift", "summit"], ["straight", "rivalry"]), seed=seed)
        deals.add(tuple(view(apply(s, NextRound()), 0)["objectives"][0]))
    assert len(deals) > 3
