"""Objectives (docs/rules.md §5.3): each a small declared thing in the ``OBJECTIVES`` registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .cards import Card, value_of
from .scoring import ExpeditionScore

OBJECTIVE_POINTS = 25
OBJECTIVES_PER_PLAYER = 2


@dataclass(frozen=True)
class ObjectiveContext:
    """What an objective looks at, for one player at the end of a round.

    ``expeditions`` and ``scores`` are per colour of the match (own), ``opponent_scores``
    likewise; ``discards`` is how many cards the player discarded this round.
    """

    expeditions: tuple[tuple[Card, ...], ...]
    scores: tuple[ExpeditionScore, ...]
    opponent_scores: tuple[ExpeditionScore, ...]
    discards: int

    def started(self) -> list[int]:
        """Indices of the expeditions holding at least one card."""
        return [i for i, e in enumerate(self.expeditions) if e]


@dataclass(frozen=True)
class Objective:
    """An objective: worth ``OBJECTIVE_POINTS`` when ``achieved`` holds at round end."""

    id: str
    text: str
    achieved: Callable[[ObjectiveContext], bool]


def _numbers(cards: tuple[Card, ...]) -> set[int]:
    return {value_of(c) for c in cards} - {0}


def _has_run(cards: tuple[Card, ...], length: int) -> bool:
    nums = _numbers(cards)
    return any(all(n + k in nums for k in range(length)) for n in nums)


def _long_haul(c: ObjectiveContext) -> bool:
    return any(len(e) >= 7 for e in c.expeditions)


def _grand_tour(c: ObjectiveContext) -> bool:
    return len(c.started()) >= 5


def _in_the_black(c: ObjectiveContext) -> bool:
    started = c.started()
    return bool(started) and all(c.scores[i].score >= 0 for i in started)


def _high_stakes(c: ObjectiveContext) -> bool:
    return any(
        sum(1 for card in e if value_of(card) == 0) >= 2 and s.score > 0
        for e, s in zip(c.expeditions, c.scores)
    )


def _specialist(c: ObjectiveContext) -> bool:
    return any(s.score >= 40 for s in c.scores)


def _summit(c: ObjectiveContext) -> bool:
    return any({8, 9, 10} <= _numbers(e) for e in c.expeditions)


def _base_camp(c: ObjectiveContext) -> bool:
    return any({2, 3, 4} <= _numbers(e) for e in c.expeditions)


def _straight(c: ObjectiveContext) -> bool:
    return any(_has_run(e, 5) for e in c.expeditions)


def _thrift(c: ObjectiveContext) -> bool:
    return c.discards <= 3


def _minimalist(c: ObjectiveContext) -> bool:
    started = c.started()
    return len(started) == 3 and all(c.scores[i].score > 0 for i in started)


def _rivalry(c: ObjectiveContext) -> bool:
    return sum(1 for a, b in zip(c.scores, c.opponent_scores) if a.score > b.score) >= 3


def _investor(c: ObjectiveContext) -> bool:
    return sum(1 for e in c.expeditions for card in e if value_of(card) == 0) >= 3


OBJECTIVES: dict[str, Objective] = {
    o.id: o
    for o in (
        Objective("long-haul", "have an expedition of 7 or more cards", _long_haul),
        Objective("grand-tour", "have started 5 or more expeditions", _grand_tour),
        Objective("in-the-black",
                  "have started at least one expedition and none of your expeditions scores "
                  "below 0", _in_the_black),
        Objective("high-stakes",
                  "have an expedition with 2 or more handshakes that scores above 0",
                  _high_stakes),
        Objective("specialist", "have one expedition scoring 40 or more", _specialist),
        Objective("summit", "have an expedition holding its 8, 9 and 10", _summit),
        Objective("base-camp", "have an expedition holding its 2, 3 and 4", _base_camp),
        Objective("straight", "have an expedition with five consecutive numbers", _straight),
        Objective("thrift", "discarded at most 3 cards this round", _thrift),
        Objective("minimalist", "started exactly 3 expeditions, each scoring above 0",
                  _minimalist),
        Objective("rivalry", "outscore your opponent in at least 3 colours", _rivalry),
        Objective("investor", "played 3 or more handshakes in total", _investor),
    )
}
"""Every objective by id, in the order of docs/rules.md §5.3."""
