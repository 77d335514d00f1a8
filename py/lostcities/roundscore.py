"""Scoring a round for both players: expeditions, objectives and the total."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .objectives import OBJECTIVE_POINTS, OBJECTIVES, ObjectiveContext
from .scoring import ExpeditionScore, ScoringRules, score_cards
from .state import State


@dataclass(frozen=True)
class ObjectiveResult:
    """One revealed objective and whether it was achieved."""

    id: str
    achieved: bool

    @property
    def points(self) -> int:
        """``OBJECTIVE_POINTS`` if achieved, else 0."""
        return OBJECTIVE_POINTS if self.achieved else 0


@dataclass(frozen=True)
class PlayerRoundScore:
    """A player's round: each expedition's breakdown (per colour in play) and objectives."""

    colours: tuple[str, ...]
    expeditions: tuple[ExpeditionScore, ...]
    objectives: tuple[ObjectiveResult, ...]

    @property
    def expedition_total(self) -> int:
        """The sum of the expedition scores."""
        return sum(e.score for e in self.expeditions)

    @property
    def total(self) -> int:
        """The round score: expeditions plus achieved objectives."""
        return self.expedition_total + sum(o.points for o in self.objectives)

    def to_json(self) -> dict[str, Any]:
        """The breakdown as in the view."""
        return {
            "expeditions": {c: e.to_json() for c, e in zip(self.colours, self.expeditions)},
            "objectives": [
                {"id": o.id, "achieved": o.achieved, "points": o.points} for o in self.objectives
            ],
            "total": self.total,
        }


def expedition_scores(state: State, player: int) -> tuple[ExpeditionScore, ...]:
    """The player's expedition scores now, under their current scoring rules."""
    rules = state.rules_for(player)
    return tuple(score_cards(e, rules) for e in state.expeditions[player])


def score_players(
    colours: tuple[str, ...],
    expeditions: Sequence[Sequence[Sequence[Card]]],
    rules: Sequence[ScoringRules],
    objectives: Sequence[Sequence[str]],
    discard_counts: Sequence[int],
) -> tuple[PlayerRoundScore, PlayerRoundScore]:
    """Both players' round scores from the raw pieces (per player: expeditions per colour,
    scoring rules, objective ids, cards discarded this round)."""
    exps = [tuple(tuple(e) for e in expeditions[p]) for p in (0, 1)]
    scores = [tuple(score_cards(e, rules[p]) for e in exps[p]) for p in (0, 1)]
    out = []
    for p in (0, 1):
        ctx = ObjectiveContext(exps[p], scores[p], scores[1 - p], discard_counts[p])
        results = tuple(ObjectiveResult(o, OBJECTIVES[o].achieved(ctx)) for o in objectives[p])
        out.append(PlayerRoundScore(colours, scores[p], results))
    return out[0], out[1]


def score_round(state: State) -> tuple[PlayerRoundScore, PlayerRoundScore]:
    """Both players' round scores as the round stands (objectives evaluated now)."""
    return score_players(state.colours, state.expeditions,
                         (state.rules_for(0), state.rules_for(1)), state.objectives,
                         state.discard_counts)
