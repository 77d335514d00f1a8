"""Reading the legal moves of a view, and wording the engine's refusals.

The UI offers only what `view["legal_moves"]` lists, and explains a card or pile it does not
offer with the engine's own reason, `view["refusals"]` (a code and its data, architecture.md),
put into the player's language here. Nothing here works out legality itself.
"""

from __future__ import annotations

from typing import Any

from webui.text.cards import card_name, colour_name
from webui.text.i18n import t

View = dict[str, Any]
Move = dict[str, Any]


def legal(view: View) -> list[Move]:
    """The legal moves of this view (empty when this player may not act)."""
    moves = view.get("legal_moves") or []
    return [m for m in moves if isinstance(m, dict)]


def is_legal(view: View, move: Move) -> bool:
    """Whether exactly `move` is among the legal moves of the view."""
    return move in legal(view)


def has_type(view: View, move_type: str) -> bool:
    """Whether any legal move has the given type."""
    return any(m.get("type") == move_type for m in legal(view))


def refusal_key(refusal: dict[str, Any]) -> str:
    """The catalogue key of a refusal: ``refusal.<code>``, and for ``wrong-phase`` the phase
    too (``refusal.wrong-phase.draw``)."""
    code = refusal["code"]
    if code == "wrong-phase":
        return f"refusal.{code}.{refusal['data']['phase']}"
    return f"refusal.{code}"


def refusal_text(lang: str, refusal: dict[str, Any]) -> str:
    """A refusal (``{"code", "data"}``, as the engine gives it) in the player's words.

    Colours are worded as for a feminine noun (la pila, la expedición), the ``top`` of
    ``below-top`` as the card it is.
    """
    data = refusal.get("data") or {}
    values: dict[str, object] = {}
    for name, value in data.items():
        if name == "colour":
            values[name] = colour_name(lang, value, True)
        elif name == "card":
            values[name] = card_name(lang, value)
        elif name == "top":
            values[name] = card_name(lang, f"{data['colour']}{value}")
        elif name == "skill":
            values[name] = t(lang, f"skill.{value}")
        elif name == "job":
            values[name] = t(lang, f"job.{value}")
        else:
            values[name] = value
    return t(lang, refusal_key(refusal), **values)


def _refusal(view: View, kind: str, key: str) -> dict[str, Any] | None:
    found = ((view.get("refusals") or {}).get(kind) or {}).get(key)
    return found if isinstance(found, dict) else None


def play_block_reason(view: View, card: str, lang: str) -> str | None:
    """Why playing `card` is not offered now, in the player's words (the engine's reason);
    None if it is offered or the view gives no reason."""
    refusal = _refusal(view, "play", card)
    return None if refusal is None else refusal_text(lang, refusal)


def draw_block_reason(view: View, source: str, lang: str) -> str | None:
    """Why drawing from `source` (``"deck"`` or a colour) is refused at this turn's draw step,
    in the player's words (the engine's reason); None if the view gives none."""
    refusal = _refusal(view, "draw", source)
    return None if refusal is None else refusal_text(lang, refusal)
