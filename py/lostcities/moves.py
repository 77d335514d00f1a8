"""Moves: small frozen values with one canonical JSON form (see docs/architecture.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from .cards import CARD_TEXTS, COLOURS
from .jobs import JOBS


def _check_card(card: object) -> None:
    if not isinstance(card, str) or card not in CARD_TEXTS:
        raise ValueError(
            f"{card!r} is not a card: write a colour letter (Y B W G R P) and a number 2-10 "
            "or H, like 'R7' or 'RH'"
        )


def _check_colour(colour: object) -> None:
    if not isinstance(colour, str) or colour not in COLOURS:
        raise ValueError(f"{colour!r} is not a colour: use one of Y B W G R P")


@dataclass(frozen=True)
class PickJob:
    """Pick one of the two jobs offered to you (phase ``jobs``)."""

    job: str

    def __post_init__(self) -> None:
        if not isinstance(self.job, str) or self.job not in JOBS:
            raise ValueError(f"{self.job!r} is not a job: use one of {', '.join(JOBS)}")


@dataclass(frozen=True)
class Radio:
    """Skill: privately see the top two cards of the deck."""


@dataclass(frozen=True)
class Airlift:
    """Skill: this turn's play ignores the ascending rule."""


@dataclass(frozen=True)
class Sabotage:
    """Skill: the opponent may not draw from this colour's pile on their next turn."""

    colour: str

    def __post_init__(self) -> None:
        _check_colour(self.colour)


@dataclass(frozen=True)
class Play:
    """Play a card (text such as ``R7`` or ``RH``) onto your expedition of its colour."""

    card: str

    def __post_init__(self) -> None:
        _check_card(self.card)


@dataclass(frozen=True)
class Discard:
    """Discard a card onto the discard pile of its colour."""

    card: str

    def __post_init__(self) -> None:
        _check_card(self.card)


@dataclass(frozen=True)
class Undo:
    """Take back this turn's play or discard (phase ``draw``)."""


@dataclass(frozen=True)
class Draw:
    """Draw from ``deck`` or from the top of a colour's discard pile (``R``)."""

    source: str

    def __post_init__(self) -> None:
        if self.source != "deck":
            if not isinstance(self.source, str) or self.source not in COLOURS:
                raise ValueError(
                    f"{self.source!r} is not a draw source: use 'deck' or a colour letter"
                )


@dataclass(frozen=True)
class NextRound:
    """Start the next round (phase ``round-end``)."""


Move = Union[PickJob, Radio, Airlift, Sabotage, Play, Discard, Undo, Draw, NextRound]
"""Any move."""

_TYPES: dict[str, tuple[type[Any], str | None]] = {
    "pick-job": (PickJob, "job"),
    "radio": (Radio, None),
    "airlift": (Airlift, None),
    "sabotage": (Sabotage, "colour"),
    "play": (Play, "card"),
    "discard": (Discard, "card"),
    "undo": (Undo, None),
    "draw": (Draw, "source"),
    "next-round": (NextRound, None),
}
_TYPE_OF: dict[type[Any], str] = {cls: name for name, (cls, _) in _TYPES.items()}


def move_type(move: Move) -> str:
    """The JSON ``type`` of a move, e.g. ``play``."""
    return _TYPE_OF[type(move)]


def move_to_json(move: Move) -> dict[str, str]:
    """The canonical JSON form of a move, e.g. ``{"type": "play", "card": "R7"}``."""
    name = _TYPE_OF.get(type(move))
    if name is None:
        raise ValueError(f"{move!r} is not a move")
    field = _TYPES[name][1]
    if field is None:
        return {"type": name}
    return {"type": name, field: getattr(move, field)}


def move_from_json(data: object) -> Move:
    """Parse a move's JSON form; ``ValueError`` with a clear message on anything malformed."""
    if not isinstance(data, dict):
        raise ValueError(f"a move must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        raise ValueError(f"unknown move type {kind!r}: use one of {', '.join(_TYPES)}")
    cls, field = _TYPES[kind]
    expected = {"type"} if field is None else {"type", field}
    if set(data) != expected:
        extra = sorted(str(k) for k in set(data) - expected)
        missing = sorted(expected - set(data))
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unexpected {', '.join(extra)}"] if extra else [])
        raise ValueError(f"bad '{kind}' move: {'; '.join(parts)}")
    move: Move = cls() if field is None else cls(data[field])
    return move
