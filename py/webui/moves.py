"""Reading the legal moves of a view, and explaining why a move is not offered.

The UI offers only what `view["legal_moves"]` lists; everything here reads the view only.
"""

from __future__ import annotations

from typing import Any

from webui.cards import card_name, highest_number, parse_card
from webui.i18n import t

View = dict[str, Any]
Move = dict[str, Any]


def legal(view: View) -> list[Move]:
    """The legal moves of this view (empty when this player may not act)."""
    moves = view.get("legal_moves") or []
    return [m for m in moves if isinstance(m, dict)]


_last: list[tuple[View, frozenset[tuple[tuple[str, Any], ...]]]] = []


def _legal_keys(view: View) -> frozenset[tuple[tuple[str, Any], ...]]:
    """The legal moves as hashable keys, kept for the last view asked about (a render asks
    about one view many times; views are not changed once made)."""
    if not _last or _last[0][0] is not view:
        keys = frozenset(tuple(sorted(m.items())) for m in legal(view))
        _last[:] = [(view, keys)]
    return _last[0][1]


def is_legal(view: View, move: Move) -> bool:
    """Whether exactly `move` is among the legal moves of the view."""
    return tuple(sorted(move.items())) in _legal_keys(view)


def has_type(view: View, move_type: str) -> bool:
    """Whether any legal move has the given type."""
    return any(m.get("type") == move_type for m in legal(view))


def play_block_reason(view: View, card: str | None, lang: str) -> str | None:
    """Why playing `card` is not offered now, in the player's words; None if it is legal."""
    if card is None:
        return t(lang, "why.pick") if view.get("phase") == "play" else None
    if is_legal(view, {"type": "play", "card": card}):
        return None
    if view.get("phase") == "draw":
        return t(lang, "why.draw")
    colour, number = parse_card(card)
    me = view.get("player", 0)
    expedition = view.get("expeditions", [{}, {}])[me].get(colour, [])
    top = highest_number(expedition)
    if top is not None and number is None:
        return t(lang, "why.handshake")
    if top is not None and number is not None and number <= top:
        return t(
            lang,
            "why.follow",
            card=card_name(lang, card),
            top=card_name(lang, f"{colour}{top}"),
        )
    return t(lang, "why.illegal")


def draw_block_reason(view: View, source: str, lang: str) -> str | None:
    """Why drawing from `source` (``"deck"`` or a colour) is not offered; None if it is."""
    if is_legal(view, {"type": "draw", "source": source}):
        return None
    if source != "deck":
        if view.get("locked_pile") == source:
            return t(lang, "pile.locked")
        if view.get("shut_pile") == source:
            return t(lang, "pile.shut")
        pile = view.get("discards", {}).get(source) or {}
        if not pile.get("size"):
            return t(lang, "zone.pile.empty")
    if view.get("phase") == "play":
        return t(lang, "why.playfirst")
    return None
