"""What every bot shares: the interface, job picks and the moves no thinking is needed for."""

from __future__ import annotations

import random
from typing import Any, Protocol

MoveJson = dict[str, str]

JOB_PREFERENCE = ("surveyor", "quartermaster", "chronicler", "collector", "financier", "scout")
"""Jobs from most to least useful to a bot: a cheaper expedition pays every round."""


class Bot(Protocol):
    """A computer player. ``choose`` sees only the bot's own view and returns a legal move."""

    name: str

    def choose(self, view: dict[str, Any], rng: random.Random) -> MoveJson:
        """The move (canonical JSON) for the player whose view this is; it must be to act."""
        ...


def check_to_act(view: dict[str, Any]) -> None:
    """Raise ``ValueError`` unless the view's player may act now."""
    if not view.get("legal_moves"):
        raise ValueError("this player has nothing to do now")


def routine_move(view: dict[str, Any]) -> MoveJson | None:
    """The move outside of the card play: a job pick, the next round, or a forced move."""
    check_to_act(view)
    legal: list[MoveJson] = view["legal_moves"]
    phase = view["phase"]
    if phase == "jobs":
        offered = [m["job"] for m in legal]
        return {"type": "pick-job", "job": min(offered, key=JOB_PREFERENCE.index)}
    if phase not in ("play", "draw"):
        return legal[0]
    playable = [m for m in legal if m["type"] != "undo"]
    if len(playable) == 1:
        return playable[0]
    return None
