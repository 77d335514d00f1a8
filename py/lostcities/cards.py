"""Cards, colours and their text notation (docs/rules.md §1).

A card is a small int id: ``colour_index * 12 + slot`` where slots 0–2 are the three
handshakes of the colour and slots 3–11 the numbers 2–10. Ids sort exactly as a hand is shown:
by colour (``Y B W G R P``), handshakes first, then numbers ascending. The three handshakes of a
colour share the text ``RH`` but stay distinct ids, so card conservation can be checked.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("Y", "B", "W", "G", "R", "P")
COLOUR_NAMES: dict[str, str] = {
    "Y": "yellow", "B": "blue", "W": "white", "G": "green", "R": "red", "P": "purple",
}
CARDS_PER_COLOUR = 12
HANDSHAKES_PER_COLOUR = 3
NUMBERS: tuple[int, ...] = tuple(range(2, CARDS_PER_COLOUR - HANDSHAKES_PER_COLOUR + 2))
"""The numbers of a colour, 2 to 10 (slots 3 to 11)."""

Card = int
"""A card id (see the module docstring)."""


def colours_for(sixth_colour: bool) -> tuple[str, ...]:
    """The colours in play: five, or six with the sixth colour option."""
    return COLOURS if sixth_colour else COLOURS[:5]


def full_deck(sixth_colour: bool) -> tuple[Card, ...]:
    """All 60 (or 72) card ids of a match, in canonical order."""
    return tuple(range(CARDS_PER_COLOUR * len(colours_for(sixth_colour))))


def colour_index(card: Card) -> int:
    """The index into ``COLOURS`` of the card's colour."""
    return card // CARDS_PER_COLOUR


def colour_of(card: Card) -> str:
    """The colour letter of a card."""
    return COLOURS[card // CARDS_PER_COLOUR]


def value_of(card: Card) -> int:
    """The card's number (2–10), or 0 for a handshake."""
    slot = card % CARDS_PER_COLOUR
    return 0 if slot < HANDSHAKES_PER_COLOUR else slot - 1


def is_handshake(card: Card) -> bool:
    """True for a handshake (wager) card."""
    return card % CARDS_PER_COLOUR < HANDSHAKES_PER_COLOUR


def card_text(card: Card) -> str:
    """The text notation: ``R7``, ``R10``, ``RH``."""
    value = value_of(card)
    return COLOURS[card // CARDS_PER_COLOUR] + ("H" if value == 0 else str(value))


def card_name(card: Card) -> str:
    """A player-readable name: ``red 7``, ``red handshake``."""
    value = value_of(card)
    colour = COLOUR_NAMES[colour_of(card)]
    return f"{colour} handshake" if value == 0 else f"{colour} {value}"


def canonical(card: Card) -> Card:
    """The first id with the same text (all handshakes of a colour map to one id)."""
    return card - card % CARDS_PER_COLOUR if is_handshake(card) else card


_TEXT_TO_CANONICAL: dict[str, Card] = {
    card_text(c): canonical(c) for c in range(CARDS_PER_COLOUR * len(COLOURS))
}
CARD_TEXTS: frozenset[str] = frozenset(_TEXT_TO_CANONICAL)


def parse_card(text: str) -> Card:
    """The canonical id of a card text such as ``R7`` or ``RH``; ``ValueError`` if malformed."""
    if not isinstance(text, str):
        raise ValueError(f"a card must be text like 'R7' or 'RH', not {text!r}")
    card = _TEXT_TO_CANONICAL.get(text)
    if card is None:
        raise ValueError(
            f"{text!r} is not a card: write a colour letter (Y B W G R P) and a number 2-10 "
            "or H, like 'R7' or 'RH'"
        )
    return card
