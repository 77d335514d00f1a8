"""Seeded games whose results must be identical natively and in Pyodide (a JSON line)."""

import json
import random
import sys

from lostcities import Options, Undo, apply, legal_moves, new_match, state_to_json, view
from fastmatch import FastMatch


def play(options, seed, policy):
    """A whole match of seeded random moves (never undo); the final state."""
    rng = random.Random(policy)
    state = new_match(options, seed=seed)
    while state.phase != "match-end":
        state = apply(state, rng.choice([m for m in legal_moves(state)
                                         if not isinstance(m, Undo)]))
    return state


def results() -> dict:
    """Everything the seeded games produce, JSON-ready."""
    every = Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
                    mixups=True)
    fast = FastMatch.new(Options(rounds=3), 5)
    fast.playout(random.Random(3))
    return {
        "python": sys.version.split()[0],
        "deal": view(new_match(seed=42), 0)["hand"],
        "base": state_to_json(play(Options(), 42, 7)),
        "every": state_to_json(play(every, 42, 7)),
        "fast": [list(r) for r in fast.round_scores],
    }


json.dumps(results())  # the value Pyodide's runPython returns
