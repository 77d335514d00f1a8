"""Cards as the UI sees them: text codes (``R7``, ``RH``), sorting and accessible names."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from webui.i18n import t

COLOUR_ORDER = "YBWGRP"
"""Canonical colour order (architecture.md): yellow, blue, white, green, red, purple."""


def parse_card(code: str) -> tuple[str, int | None]:
    """Split a card code into (colour letter, number); the number is None for a handshake.

    Raises ValueError on anything that is not a card code.
    """
    if not isinstance(code, str):
        raise ValueError(f"not a card: {code!r}")
    return _parse_card(code)


@lru_cache(maxsize=256)
def _parse_card(code: str) -> tuple[str, int | None]:
    if len(code) < 2 or code[0] not in COLOUR_ORDER:
        raise ValueError(f"not a card: {code!r}")
    rest = code[1:]
    if rest == "H":
        return code[0], None
    if rest.isdigit() and 2 <= int(rest) <= 10 and str(int(rest)) == rest:
        return code[0], int(rest)
    raise ValueError(f"not a card: {code!r}")


def card_sort_key(code: str) -> tuple[int, int]:
    """Sort key: colour in canonical order, then handshakes, then numbers ascending."""
    colour, number = parse_card(code)
    return COLOUR_ORDER.index(colour), 0 if number is None else number


def sort_hand(cards: Iterable[str]) -> list[str]:
    """The cards sorted by colour and number (handshakes first in each colour)."""
    return sorted(cards, key=card_sort_key)


def colour_name(lang: str, colour: str, feminine: bool = False) -> str:
    """The lower-case colour word; `feminine` for Spanish nouns such as pila or expedición."""
    return t(lang, f"colour.f.{colour}" if feminine else f"colour.{colour}")


@lru_cache(maxsize=512)
def card_name(lang: str, code: str) -> str:
    """The accessible name of a card: ``"Red 7"``, ``"Rojo 7"``, ``"Red handshake"``."""
    colour, number = parse_card(code)
    word = colour_name(lang, colour)
    if number is None:
        text = t(lang, "card.handshake", colour=word)
    else:
        text = t(lang, "card.number", colour=word, number=number)
    return text[:1].upper() + text[1:]


def card_face(code: str) -> str:
    """What the face shows large: the number, or ``""`` for a handshake (drawn as a symbol)."""
    number = parse_card(code)[1]
    return "" if number is None else str(number)


def highest_number(cards: Iterable[str]) -> int | None:
    """The highest number among `cards`, or None when there is none (only handshakes)."""
    numbers = [n for n in (parse_card(c)[1] for c in cards) if n is not None]
    return max(numbers) if numbers else None
