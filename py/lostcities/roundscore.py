"""Scoring a round for both players: expeditions, objectives and the total."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .objectives import OBJECTIVE_POINTS, OBJECTIVES, ObjectiveContext
from .scoring import ExpeditionScore, score_cards
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


def score_round(state: State) -> tuple[PlayerRoundScore, PlayerRoundScore]:
    """Both players' round scores as the round stands (objectives evaluated now)."""
    scores = (expedition_scores(state, 0), expedition_scores(state, 1))
    out = []
    for p in (0, 1):
        ctx = ObjectiveContext(
            expeditions=state.expeditions[p],
            scores=scores[p],
            opponent_scores=scores[1 - p],
            discards=state.discard_counts[p],
        )
        results = tuple(
            ObjectiveResult(o, OBJECTIVES[o].achieved(ctx)) for o in state.objectives[p]
        )
        out.append(PlayerRoundScore(state.colours, scores[p], results))
    return out[0], out[1]
