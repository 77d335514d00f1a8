"""The random bot: any legal move (never an undo), uniformly."""

from __future__ import annotations

import random
from typing import Any

from .base import MoveJson, check_to_act


class RandomBot:
    """Picks uniformly among the legal moves of its view (job picks included)."""

    name = "random"

    def choose(self, view: dict[str, Any], rng: random.Random) -> MoveJson:
        """A uniformly random legal move other than ``undo``."""
        check_to_act(view)
        moves = [m for m in view["legal_moves"] if m["type"] != "undo"]
        return dict(rng.choice(moves))
