"""Jobs (docs/rules.md §5.1): each one a small declared thing in the ``JOBS`` registry."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .scoring import RuleChange


@dataclass(frozen=True)
class Job(RuleChange):
    """A job: how it changes its owner's scoring rules, hand size and deck sight."""

    hand_size: int = 8
    sees_deck_top: bool = False


JOBS: dict[str, Job] = {
    job.id: job
    for job in (
        Job("quartermaster", "Quartermaster", "hand size 9 instead of 8 (dealt 9, holds 9)",
            hand_size=9),
        Job("surveyor", "Surveyor", "expeditions cost 15 instead of 20",
            lambda r: replace(r, cost=15)),
        Job("chronicler", "Chronicler", "the bonus needs 7 cards instead of 8",
            lambda r: replace(r, bonus_cards=7)),
        Job("financier", "Financier", "handshakes never multiply a loss",
            lambda r: replace(r, loss_multiplied=False)),
        Job("collector", "Collector", "the bonus is +30 instead of +20",
            lambda r: replace(r, bonus=30)),
        Job("scout", "Scout", "during their own turn they see the top card of the deck",
            sees_deck_top=True),
    )
}
"""Every job by id, in the order of docs/rules.md §5.1."""

JOB_OFFER_SIZE = 2
JOBS_DRAWN = 4
