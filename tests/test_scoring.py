"""docs/rules.md §3: every worked example, and the scoring parameters jobs and mixups change."""

import pytest

from lostcities import ScoringRules, score_expedition


@pytest.mark.parametrize(
    "cards, score",
    [
        ("2 3 7 8 10", 10),
        ("H H 4 5 6 7 8 10", 80),
        ("H 4 6 7", -6),
        ("H H H", -80),
        ("", 0),
        ("2 3 4 5 6 7 8 9", 44),
    ],
)
def test_worked_examples(cards: str, score: int) -> None:
    assert score_expedition(cards.split()).score == score


def test_breakdown_fields() -> None:
    b = score_expedition("H H 4 5 6 7 8 10".split())
    assert (b.cards, b.sum, b.cost, b.multiplier, b.bonus, b.score) == (8, 40, 20, 3, 20, 80)


def test_coloured_cards_score_like_bare_ones() -> None:
    assert score_expedition(["RH", "RH", "R4", "R5", "R6", "R7", "R8", "R10"]).score == 80


def test_mixed_colours_are_refused() -> None:
    with pytest.raises(ValueError, match="one colour"):
        score_expedition(["R4", "B5"])


@pytest.mark.parametrize("bad", [["X"], ["1"], ["11"], ["H", "H", "H", "H"], ["4", "4"]])
def test_bad_cards_are_refused(bad: list[str]) -> None:
    with pytest.raises(ValueError):
        score_expedition(bad)


def test_rules_parameters() -> None:
    cards = "H 4 6 7".split()
    assert score_expedition(cards, ScoringRules(cost=15)).score == 4  # (17-15)*2
    assert score_expedition(cards, ScoringRules(loss_multiplied=False)).score == -3
    seven = "2 3 4 5 6 7 8".split()
    assert score_expedition(seven, ScoringRules(bonus_cards=7)).score == 15 + 20
    assert score_expedition(seven, ScoringRules(bonus_cards=7, bonus=30)).score == 15 + 30
    assert score_expedition(["10", "9"], ScoringRules(ten_value=15)).score == 4
