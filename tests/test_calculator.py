"""The score calculator gives the scores of every worked example of docs/rules.md §3.1, taps
and options work like the screen's buttons and fields, and bad input changes nothing."""

from __future__ import annotations

import re

import pytest

from lostcities import JOBS, MIXUPS, ScoringRules, score_expedition
from test_rules_doc import Example, examples
from test_stats_screen import Page
from webui.features.calculator import (
    SCORING_JOBS, SCORING_MIXUPS, Calculator, formula, render_calculator,
)


def tap_example(example: Example, colour: str = "R") -> Calculator:
    """The calculator with the example's cards tapped (in `colour`) and its job and mixup set,
    through the same actions the screen sends."""
    calc = Calculator()
    if example.job:
        calc = calc.handle("calc-job", {"value": example.job})
    if example.mixup:
        calc = calc.handle("calc-mixup", {"value": example.mixup})
    copies = 0
    for card in example.cards:
        if card == "H":
            copies += 1
            calc = calc.handle("calc-toggle", {"colour": colour, "card": colour + "H",
                                               "copy": str(copies)})
        else:
            calc = calc.handle("calc-toggle", {"colour": colour, "card": colour + card})
    return calc


def _shown(html: str, hook: str, colour: str) -> str:
    page = Page(html)
    (found,) = page.find(**{hook: None, "data_colour": colour})
    return found[2]


@pytest.mark.parametrize("example", examples(), ids=lambda e: f"{' '.join(e.cards) or '-'}"
                         f"/{e.job or ''}/{e.mixup or ''}")
@pytest.mark.parametrize("colour", ["Y", "R"])
def test_the_calculator_gives_each_worked_example(example: Example, colour: str) -> None:
    calc = tap_example(example, colour)
    score = calc.score(colour)
    assert score.score == example.score
    assert formula(score) == (example.formula or "")
    html = render_calculator(calc, "en")
    assert _shown(html, "data_calc_score", colour) == str(example.score)
    if example.formula:
        assert _shown(html, "data_calc_formula", colour) == example.formula
    total = Page(html).find(data_calc_total=None)
    assert total[0][2] == str(example.score)  # the other colours are empty: 0


def test_a_whole_table_adds_up() -> None:
    calc = Calculator().handle("calc-sixth", {"value": "true"})
    picks = {"Y": ["Y2", "Y3", "Y7"], "B": ["BH", "B10"], "P": ["P4", "P5", "P6", "P9"]}
    for colour, cards in picks.items():
        for i, card in enumerate(cards):
            copy = str(i + 1) if card.endswith("H") else None
            data = {"colour": colour, "card": card, **({"copy": copy} if copy else {})}
            calc = calc.handle("calc-toggle", data)
    want = sum(score_expedition(cards).score for cards in picks.values())
    assert calc.total == want
    html = render_calculator(calc, "es")
    assert Page(html).find(data_calc_total=None)[0][2] == str(want)
    pressed = [a["data-card"] for _, a, _ in Page(html).find("button", aria_pressed="true")]
    assert sorted(pressed) == sorted(c for cards in picks.values() for c in cards)
    off = calc.handle("calc-sixth", {"value": "false"})
    assert off.cards("P") == [] and "P" not in off.colours
    assert off.total == want - score_expedition(picks["P"]).score


def test_toggling_twice_untaps_and_clear_clears() -> None:
    calc = Calculator()
    once = calc.handle("calc-toggle", {"colour": "G", "card": "GH", "copy": "2"})
    assert once.cards("G") == ["GH"] and once.score("G").score == -40
    assert once.handle("calc-toggle", {"colour": "G", "card": "GH", "copy": "2"}) == calc
    many = once.handle("calc-toggle", {"colour": "G", "card": "G9"})
    assert many.handle("calc-clear", {}).tapped == frozenset()


@pytest.mark.parametrize(("action", "data"), [
    ("calc-toggle", {"colour": "P", "card": "P5"}),  # no purple on a five-colour table
    ("calc-toggle", {"colour": "R", "card": "B5"}),
    ("calc-toggle", {"colour": "R", "card": "R1"}),
    ("calc-toggle", {"colour": "R", "card": "R05"}),
    ("calc-toggle", {"colour": "R", "card": "RH"}),  # a handshake without its copy
    ("calc-toggle", {"colour": "R", "card": "RH", "copy": "4"}),
    ("calc-job", {"value": "quartermaster"}),  # changes no score
    ("calc-job", {"value": "wizard"}),
    ("calc-mixup", {"value": "open-piles"}),
    ("calc-sixth", {"value": "yes"}),
    ("calc-fly", {}),
])
def test_bad_input_is_refused(action: str, data: dict[str, str]) -> None:
    calc = Calculator().handle("calc-toggle", {"colour": "R", "card": "R7"})
    with pytest.raises(ValueError):
        calc.handle(action, data)
    assert calc.cards("R") == ["R7"]


def test_only_options_that_change_scoring_are_offered() -> None:
    for job in JOBS:
        assert (job in SCORING_JOBS) == (JOBS[job].adjust(ScoringRules()) != ScoringRules())
    assert {"surveyor", "chronicler", "financier", "collector"} <= set(SCORING_JOBS)
    assert "quartermaster" not in SCORING_JOBS and "scout" not in SCORING_JOBS
    assert "open-piles" not in SCORING_MIXUPS and len(SCORING_MIXUPS) == len(MIXUPS) - 1
    html = render_calculator(Calculator(job="surveyor"), "es")
    options = re.findall(r'<option value="([a-z-]*)"( selected)?>', html)
    assert ("surveyor", " selected") in options
    assert [v for v, _ in options] == ["", *SCORING_JOBS, "", *SCORING_MIXUPS]


def test_the_calculator_reads_back_from_json() -> None:
    calc = tap_example(examples()[1], "B").handle("calc-sixth", {"value": "true"})
    calc = calc.handle("calc-toggle", {"colour": "P", "card": "P10"})
    assert Calculator.from_json(calc.to_json()) == calc
    for bad in ({}, {**calc.to_json(), "tapped": ["BH9"]}, {**calc.to_json(), "job": 3},
                {**calc.to_json(), "sixth_colour": "true"}, {**calc.to_json(), "x": 1},
                {**calc.to_json(), "tapped": ["B7", "B7"]}):
        with pytest.raises(ValueError):
            Calculator.from_json(bad)


def test_the_screen_has_its_hooks() -> None:
    page = Page(render_calculator(Calculator(), "en"))
    toggles = page.find("button", data_action="calc-toggle")
    assert len(toggles) == 5 * 12
    assert all(a["aria-pressed"] == "false" and a["aria-label"] for _, a, _ in toggles)
    assert page.find("input", data_field="calc-sixth")
    assert page.find("select", data_field="calc-job")
    assert page.find("select", data_field="calc-mixup")
    assert page.find("button", data_action="calc-close")
    (clear,) = page.find("button", data_action="calc-clear")
    assert "disabled" in clear[1]
