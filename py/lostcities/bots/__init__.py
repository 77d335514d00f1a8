"""Computer opponents. Every bot sees only its own view and answers with a legal move's JSON.

``make_bot(name)`` builds one by name (``BOT_NAMES``); ``LEVELS`` maps the app's levels to
bots; ``hint(view)`` gives the strong bot's move with a short reason.
"""

from __future__ import annotations

from .base import Bot, MoveJson
from .heuristic import HeuristicBot
from .hint import hint
from .random_bot import RandomBot
from .strong import DEFAULT_PLAYOUTS, StrongBot

BOT_NAMES = ("random", "heuristic", "strong")
"""The bots ``make_bot`` knows."""

LEVELS: dict[str, tuple[str, int | None]] = {
    "easy": ("random", None),
    "medium": ("heuristic", None),
    "hard": ("strong", DEFAULT_PLAYOUTS),
}
"""App level -> (bot name, playout budget)."""


def make_bot(name: str, playouts: int | None = None) -> Bot:
    """A bot by name; ``playouts`` sets the strong bot's budget. ``ValueError`` if unknown."""
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return HeuristicBot()
    if name == "strong":
        return StrongBot(playouts or DEFAULT_PLAYOUTS)
    raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOT_NAMES)}")


__all__ = [
    "BOT_NAMES", "Bot", "HeuristicBot", "LEVELS", "MoveJson", "RandomBot", "StrongBot",
    "hint", "make_bot",
]
