"""The rules both the engine and the screens ask about (docs/rules.md): whether a card may
follow an expedition (§2.3), a player's scoring rules from their job and the round's mixup
(§3, §5.1, §5.4) and the winner of a match's totals (§4). The engine decides with these; the
UI asks them instead of keeping copies."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import Card, value_of
from .jobs import JOBS
from .mixups import MIXUPS
from .scoring import ScoringRules


def highest(expedition: Iterable[Card]) -> int:
    """The highest number in an expedition, 0 if it holds none."""
    return max((value_of(c) for c in expedition), default=0)


def follows(card: Card, top: int) -> bool:
    """The ascending rule: whether ``card`` may go onto an expedition whose highest number is
    ``top`` (0: none yet). A handshake only before any number; a number only above ``top``."""
    value = value_of(card)
    return value > top if value else top == 0


def may_follow(expedition: Iterable[Card], card: Card) -> bool:
    """Whether ``card`` may go onto ``expedition`` by the ascending rule (no Airlift)."""
    return follows(card, highest(expedition))


def player_rules(job: str | None, mixup: str | None) -> ScoringRules:
    """A player's scoring rules: the base rules, then their job's change, then the mixup's."""
    rules = ScoringRules()
    if job:
        rules = JOBS[job].adjust(rules)
    return MIXUPS[mixup].adjust(rules) if mixup else rules


def winner_of(totals: tuple[int, int]) -> int | str:
    """The winner of a match with these totals: 0, 1, or ``"draw"`` when they are equal."""
    a, b = totals
    return 0 if a > b else 1 if b > a else "draw"
