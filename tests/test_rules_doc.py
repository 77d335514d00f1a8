"""docs/rules.md agrees with the engine: its worked scoring examples (§3.1) and its tables of
jobs, skills, objectives and mixups (§5.1–5.4)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from lostcities import ScoringRules, score_expedition
from lostcities.jobs import JOBS
from lostcities.mixups import MIXUPS
from lostcities.objectives import OBJECTIVES
from lostcities.skills import SKILLS

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
BLOCK = re.compile(r"^```score\n(.*?)^```$", re.S | re.M)
FORMULA = re.compile(r"\((\d+) − (\d+)\) × (\d+)(?: \+ (\d+))?")
KEYS = {"cards", "job", "mixup", "formula", "score"}


@dataclass(frozen=True)
class Example:
    """One worked example: the expedition, its owner's job, the mixup, formula and score."""

    cards: list[str]
    job: str | None
    mixup: str | None
    formula: str | None
    score: int

    @property
    def rules(self) -> ScoringRules:
        """The scoring rules of the example, built as the engine builds a player's."""
        rules = ScoringRules()
        if self.job:
            rules = JOBS[self.job].adjust(rules)
        if self.mixup:
            rules = MIXUPS[self.mixup].adjust(rules)
        return rules


def parse_block(body: str) -> Example:
    """An example from the text of a ``score`` block; ``ValueError`` if it is malformed."""
    fields: dict[str, str] = {}
    for line in body.strip().splitlines():
        key, sep, value = line.partition(":")
        if not sep or key.strip() not in KEYS or key.strip() in fields:
            raise ValueError(f"bad line in a score block: {line!r}")
        fields[key.strip()] = value.strip()
    if "cards" not in fields or "score" not in fields:
        raise ValueError(f"a score block needs cards and score: {body!r}")
    cards = [] if fields["cards"] == "-" else fields["cards"].split()
    return Example(cards, fields.get("job"), fields.get("mixup"), fields.get("formula"),
                   int(fields["score"]))


def examples() -> list[Example]:
    """Every worked example in docs/rules.md, in order."""
    return [parse_block(body) for body in BLOCK.findall(DOC.read_text(encoding="utf-8"))]


def section(anchor: str) -> str:
    """The text of the section whose anchor is ``anchor``, up to the next anchor."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f'<a id="{anchor}"></a>')
    end = text.find("<a id=", start + 1)
    return text[start:end if end != -1 else len(text)]


def table_rows(anchor: str) -> list[list[str]]:
    """The cells of the section's table rows whose first cell is a backticked id."""
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section(anchor).splitlines() if line.startswith("| `")
    ]


def test_the_doc_has_the_worked_examples() -> None:
    found = examples()
    plain = [e for e in found if e.job is None and e.mixup is None]
    assert len(plain) >= 6
    assert {e.job for e in found} >= {"surveyor", "financier", "chronicler", "collector"}
    assert {e.mixup for e in found} >= {"golden-tens", "dear-roads", "big-bonus", "safety-net",
                                         "short-road"}


@pytest.mark.parametrize("example", examples(), ids=lambda e: f"{' '.join(e.cards) or '-'}"
                         f"/{e.job or ''}/{e.mixup or ''}")
def test_a_worked_example_scores_as_the_doc_says(example: Example) -> None:
    assert example.job is None or example.job in JOBS
    assert example.mixup is None or example.mixup in MIXUPS
    got = score_expedition(example.cards, example.rules)
    assert got.score == example.score
    if example.formula is None:
        assert not example.cards, "an expedition with cards shows its formula"
        return
    match = FORMULA.fullmatch(example.formula)
    assert match, f"the formula should read (sum − cost) × multiplier [+ bonus]: {example.formula}"
    total, cost, multiplier = (int(g) for g in match.groups()[:3])
    bonus = int(match.group(4) or 0)
    assert (got.sum, got.cost, got.multiplier, got.bonus) == (total, cost, multiplier, bonus)
    assert (total - cost) * multiplier + bonus == example.score


def test_a_malformed_block_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_block("cards: 2 3\nscroe: 5")
    with pytest.raises(ValueError):
        parse_block("cards: 2 3")


def test_the_jobs_table_is_the_registry() -> None:
    assert [row[0].strip("`") for row in table_rows("s5-1")] == list(JOBS)
    assert [row[1] for row in table_rows("s5-1")] == [j.name for j in JOBS.values()]


def test_the_skills_table_is_the_registry() -> None:
    rows = table_rows("s5-2")
    assert [(r[0].strip("`"), r[1], int(r[2])) for r in rows] == [
        (s.id, s.name, s.cost) for s in SKILLS.values()
    ]


def test_the_objectives_table_is_the_registry() -> None:
    assert [row[0].strip("`") for row in table_rows("s5-3")] == list(OBJECTIVES)


def test_the_mixups_table_is_the_registry() -> None:
    assert [row[0].strip("`") for row in table_rows("s5-4")] == list(MIXUPS)
    assert [row[1] for row in table_rows("s5-4")] == [m.name for m in MIXUPS.values()]
