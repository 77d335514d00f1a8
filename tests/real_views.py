"""Real views for the tests: every view of random playouts, whatever the options.

`playout_views(options, seed)` plays one whole match with random legal moves (mostly deck draws,
so rounds end; an undo now and then) and yields both players' views of every position, from the
first deal to the match end, passing through every phase the options allow.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from lostcities import Draw, Options, Undo, apply, legal_moves, new_match, view

ALL_OPTIONS: tuple[Options, ...] = tuple(
    Options(rounds=2, sixth_colour=six, jobs=jobs, skills=skills, objectives=objectives,
            mixups=mixups)
    for six, jobs, skills, objectives, mixups in itertools.product((False, True), repeat=5)
)
"""Every combination of the five toggles (32), each over two rounds (so that every phase,
round end included, is seen)."""


def playout_views(options: Options, seed: int) -> Iterator[dict[str, Any]]:
    """Both players' views of every position of one random match (JSON-ready dicts)."""
    rng = random.Random(seed)
    state = new_match(options, seed=seed, names=("Ana", "Ben"), first_player=rng.randrange(2))
    while True:
        yield view(state, 0)
        yield view(state, 1)
        if state.phase == "match-end":
            return
        moves = legal_moves(state)
        if state.phase == "draw" and rng.random() < 0.85:
            move = Undo() if Undo() in moves and rng.random() < 0.05 else Draw("deck")
        else:
            move = rng.choice(moves)
        state = apply(state, move)
