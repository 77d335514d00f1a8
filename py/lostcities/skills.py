"""Skills (docs/rules.md §5.2): each one a small declared thing in the ``SKILLS`` registry."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Skill:
    """A skill: its id (also its move type), name, charge cost and effect."""

    id: str
    name: str
    cost: int
    effect: str


SKILLS: dict[str, Skill] = {
    s.id: s
    for s in (
        Skill("radio", "Radio", 1, "you privately see the top two cards of the deck"),
        Skill("airlift", "Airlift", 2,
              "your play this turn ignores the ascending rule (later plays must still be "
              "higher than the highest number in that expedition)"),
        Skill("sabotage", "Sabotage", 3,
              "name one discard pile: your opponent may not draw from it on their next turn"),
    )
}
"""Every skill by id, in the order of docs/rules.md §5.2."""

RADIO_PEEK = 2
"""How many deck cards Radio shows."""
