"""Cards as the UI sees them: text codes (``R7``, ``RH``), sorting and accessible names.

The codes are the engine's (lostcities.cards, docs/architecture.md "Cards"): parsed there.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from lostcities.cards import colour_of, value_of
from lostcities.cards import parse_card as card_id
from webui.text.i18n import t


def parse_card(code: str) -> tuple[str, int | None]:
    """Split a card code into (colour letter, number); the number is None for a handshake.

    Raises ValueError on anything that is not a card code.
    """
    card = card_id(code)
    return colour_of(card), value_of(card) or None


def card_sort_key(code: str) -> int:
    """Sort key: colour in canonical order, then handshakes, then numbers ascending (the
    engine's card ids sort so)."""
    return card_id(code)


def sort_hand(codes: Iterable[str]) -> list[str]:
    """The cards sorted by colour and number (handshakes first in each colour)."""
    return sorted(codes, key=card_sort_key)


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

