"""Endgame mixups (docs/rules.md §5.4): each one a small declared thing in the ``MIXUPS`` registry.

A mixup changes each player's scoring rules relative to their own, so it stacks with jobs.
No mixup forbids a move that would otherwise be legal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .scoring import RuleChange


@dataclass(frozen=True)
class Mixup(RuleChange):
    """A mixup: how it adjusts a player's scoring rules, and whether it opens the piles."""

    open_piles: bool = False


MIXUPS: dict[str, Mixup] = {
    m.id: m
    for m in (
        Mixup("short-road", "Short Road", "the bonus needs 2 fewer cards",
              lambda r: replace(r, bonus_cards=r.bonus_cards - 2)),
        Mixup("dear-roads", "Dear Roads", "every expedition costs 10 more",
              lambda r: replace(r, cost=r.cost + 10)),
        Mixup("open-piles", "Open Piles",
              "every discard pile unlocks: you may draw from the pile you just discarded onto, "
              "and Sabotage no longer shuts piles", open_piles=True),
        Mixup("big-bonus", "Big Bonus", "the bonus is doubled",
              lambda r: replace(r, bonus=r.bonus * 2)),
        Mixup("safety-net", "Safety Net", "handshakes no longer multiply a loss",
              lambda r: replace(r, loss_multiplied=False)),
        Mixup("golden-tens", "Golden Tens", "a 10 counts 15",
              lambda r: replace(r, ten_value=15)),
    )
}
"""Every mixup by id, in the order of docs/rules.md §5.4."""

MIXUP_TRIGGER_DECK = 8
"""The mixup is drawn the first time the deck is down to this many cards (final round only)."""
