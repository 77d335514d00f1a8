"""Playing a whole match between two bots through the public engine API."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine import apply, new_match
from ..moves import move_from_json
from ..options import Options
from ..views import view
from .base import Bot


@dataclass(frozen=True)
class MatchResult:
    """The outcome of one bot match: totals per seat, the winner (0, 1 or None for a draw)
    and the number of moves made."""

    totals: tuple[int, int]
    winner: int | None
    moves: int


def play_match(
    bots: tuple[Bot, Bot], options: Options, seed: int, first_player: int = 0
) -> MatchResult:
    """Play a match, each bot choosing from its own view. Deterministic in ``seed``."""
    state = new_match(options, seed=seed, first_player=first_player)
    rngs = (random.Random(f"{seed}/0"), random.Random(f"{seed}/1"))
    moves = 0
    while state.phase != "match-end":
        seat = state.to_act if state.to_act is not None else 0
        move = bots[seat].choose(view(state, seat), rngs[seat])
        state = apply(state, move_from_json(move))
        moves += 1
    a, b = state.totals
    return MatchResult((a, b), 0 if a > b else 1 if b > a else None, moves)
