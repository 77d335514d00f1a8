"""Scoring an expedition (docs/rules.md §3) with adjustable parameters (jobs and mixups)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .cards import COLOURS, Card, colour_of, parse_card, value_of


@dataclass(frozen=True)
class ScoringRules:
    """The parameters of expedition scoring for one player.

    ``cost``: subtracted from the sum; ``bonus_cards``: cards needed for the bonus; ``bonus``:
    the flat bonus added after the multiplier; ``loss_multiplied``: whether handshakes multiply a
    negative ``sum - cost``; ``ten_value``: what a 10 counts.
    """

    cost: int = 20
    bonus_cards: int = 8
    bonus: int = 20
    loss_multiplied: bool = True
    ten_value: int = 10


def unchanged(rules: ScoringRules) -> ScoringRules:
    """The rules as they are (a rule change that changes no scoring)."""
    return rules


@dataclass(frozen=True)
class RuleChange:
    """A declared change to the rules (a job or a mixup): its id, name, effect in words, and how
    it adjusts a player's scoring rules."""

    id: str
    name: str
    effect: str
    adjust: Callable[[ScoringRules], ScoringRules] = unchanged


@dataclass(frozen=True)
class ExpeditionScore:
    """The breakdown of one expedition's score."""

    cards: int
    sum: int
    cost: int
    multiplier: int
    bonus: int
    score: int

    def to_json(self) -> dict[str, int]:
        """The breakdown as in the view: cards, sum, cost, multiplier, bonus, score."""
        return {
            "cards": self.cards, "sum": self.sum, "cost": self.cost,
            "multiplier": self.multiplier, "bonus": self.bonus, "score": self.score,
        }


EMPTY_SCORE = ExpeditionScore(0, 0, 0, 1, 0, 0)


def score_values(values: Iterable[int], rules: ScoringRules = ScoringRules()) -> ExpeditionScore:
    """Score an expedition given its card values (0 = handshake, 2–10 numbers)."""
    count = handshakes = total = 0
    for v in values:
        count += 1
        if v == 0:
            handshakes += 1
        else:
            total += rules.ten_value if v == 10 else v
    if count == 0:
        return EMPTY_SCORE
    multiplier = 1 + handshakes
    base = total - rules.cost
    if base < 0 and not rules.loss_multiplied:
        multiplier = 1
    bonus = rules.bonus if count >= rules.bonus_cards else 0
    return ExpeditionScore(count, total, rules.cost, multiplier, bonus, base * multiplier + bonus)


def score_cards(cards: Iterable[Card], rules: ScoringRules = ScoringRules()) -> ExpeditionScore:
    """Score an expedition given card ids."""
    return score_values((value_of(c) for c in cards), rules)


def parse_expedition(texts: Iterable[str]) -> list[int]:
    """Card values from texts: bare (``H``, ``7``) or coloured (``RH``, ``R7``), one colour only.

    Raises ``ValueError`` with a clear message on anything else.
    """
    values: list[int] = []
    colours: set[str] = set()
    for text in texts:
        if not isinstance(text, str):
            raise ValueError(f"a card must be text like 'H', '7' or 'R7', not {text!r}")
        t = text.strip().upper()
        if t[:1] in COLOURS and len(t) > 1:
            card = parse_card(t)
            colours.add(colour_of(card))
            values.append(value_of(card))
        elif t == "H":
            values.append(0)
        elif t.isdigit() and 2 <= int(t) <= 10:
            values.append(int(t))
        else:
            raise ValueError(f"{text!r} is not a card: use H or a number 2-10 (or R7, RH)")
    if len(colours) > 1:
        raise ValueError(
            "an expedition holds one colour, but these cards are "
            + ", ".join(sorted(colours))
        )
    if values.count(0) > 3:
        raise ValueError("a colour has only 3 handshakes")
    numbers = [v for v in values if v]
    if len(numbers) != len(set(numbers)):
        raise ValueError("a colour holds each number only once")
    return values


def score_expedition(
    cards: Iterable[str | Card], rules: ScoringRules = ScoringRules()
) -> ExpeditionScore:
    """Score one expedition (docs/rules.md §3) and return its breakdown (``.score`` is the points).

    ``cards`` are texts (``"H"``, ``"7"``, ``"RH"``, ``"R7"``) or card ids; ``ValueError`` if bad.
    Example: ``score_expedition("H H 4 5 6 7 8 10".split()).score == 80``.
    """
    items = list(cards)
    if all(isinstance(c, str) for c in items):
        return score_values(parse_expedition(str(c) for c in items), rules)
    ids = [c for c in items if isinstance(c, int) and not isinstance(c, bool)]
    if len(ids) != len(items):
        raise ValueError("give the cards either all as texts or all as card ids")
    return score_cards(ids, rules)
