"""The heuristic bot: plays like a careful human (see ``policy``), from its view only."""

from __future__ import annotations

import random
from typing import Any

from .base import MoveJson, routine_move
from .knowledge import Knowledge
from .policy import CAREFUL, Style, choose_draw, choose_play, choose_skill
from ..fast import DRAW_PHASE, action_json


class HeuristicBot:
    """Rules of thumb, no search: deterministic, and instant."""

    name = "heuristic"

    def __init__(self, style: Style = CAREFUL) -> None:
        self.style = style

    def choose(self, view: dict[str, Any], rng: random.Random) -> MoveJson:
        """The policy's move for this view (``rng`` is not needed)."""
        routine = routine_move(view)
        if routine is not None:
            return routine
        know = Knowledge.from_view(view)
        sim = know.world(None)
        me = know.me
        if know.phase == DRAW_PHASE:
            peek = know.deck_peek[-1] if know.deck_peek else -1
            return action_json(choose_draw(sim, me, peek, style=self.style))
        if know.skills_on:
            skill = choose_skill(sim, me, bool(know.deck_peek))
            if skill is not None:
                return action_json(skill)
        return action_json(choose_play(sim, me, style=self.style))
