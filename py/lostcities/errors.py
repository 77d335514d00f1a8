"""The engine's error types, and the refusals that explain an illegal move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

REFUSAL_CODES: dict[str, tuple[str, ...]] = {
    "not-a-move": (),
    "not-your-turn": ("to_act",),
    "wrong-phase": ("phase",),
    "no-such-colour": ("colour",),
    "card-not-in-hand": ("card",),
    "below-top": ("card", "colour", "top"),
    "handshake-after-number": ("colour",),
    "deck-empty": (),
    "pile-empty": ("colour",),
    "pile-locked": ("colour",),
    "pile-shut": ("colour",),
    "skills-off": (),
    "skill-too-late": ("skill",),
    "skill-used": ("skill",),
    "no-charge": ("skill", "cost", "charges"),
    "job-not-offered": ("job",),
    "nothing-to-undo": (),
}
"""Every reason the engine gives for refusing a move: code -> the keys of its data.

``wrong-phase`` carries the current phase (``jobs``, ``play``, ``draw``, ``round-end`` or
``match-end``); ``below-top`` the card, its colour and the highest number already on that
expedition; ``no-charge`` the skill, its cost and the charges the player has. Colours are
letters (``R``), cards card texts (``R7``), skills and jobs their ids.
"""


@dataclass(frozen=True, eq=True)
class Refusal:
    """Why a move is refused: a stable ``code`` (one of ``REFUSAL_CODES``), its JSON-ready
    ``data`` and an English ``message`` for logs and the command line."""

    code: str
    data: dict[str, Any]
    message: str

    def __post_init__(self) -> None:
        keys = REFUSAL_CODES.get(self.code)
        if keys is None or set(self.data) != set(keys):
            raise ValueError(f"not a refusal: {self.code!r} with {sorted(self.data)}")

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "data": {...}}``, as views and clients carry it."""
        return {"code": self.code, "data": dict(self.data)}


class IllegalMove(ValueError):
    """A move the rules forbid now. The state is unchanged.

    ``str(exc)`` is the English message; ``code`` and ``data`` say why in machine-readable
    form (see ``REFUSAL_CODES``), for a client to put in its own words.
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal

    @property
    def code(self) -> str:
        """The refusal's stable code, e.g. ``below-top``."""
        return self.refusal.code

    @property
    def data(self) -> dict[str, Any]:
        """The refusal's JSON-ready data, e.g. ``{"card": "R4", "colour": "R", "top": 7}``."""
        return dict(self.refusal.data)


class CorruptSave(ValueError):
    """A saved state that is corrupt, foreign or of another format version."""
