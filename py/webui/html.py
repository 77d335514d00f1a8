"""Small HTML building blocks shared by the screens: escaping, attributes, cards and buttons.

Everything that comes from a view or a player (names!) goes through `esc` or `attrs`.
"""

from __future__ import annotations

from html import escape

from webui.cards import card_face, card_name, parse_card
from webui.symbols import icon


def esc(value: object) -> str:
    """Text escaped for HTML content and attribute values."""
    return escape(str(value), quote=True)


def attrs(**values: object) -> str:
    """HTML attributes from keywords (``data_card`` -> ``data-card``).

    None and False leave the attribute out; True writes it bare (``disabled``).
    """
    parts = []
    for key, value in values.items():
        name = key.rstrip("_").replace("_", "-")
        if value is None or value is False:
            continue
        parts.append(f" {name}" if value is True else f' {name}="{esc(value)}"')
    return "".join(parts)


def el(tag: str, inner: str = "", **attributes: object) -> str:
    """An element: ``<tag attrs>inner</tag>``; `inner` must already be HTML (escaped)."""
    return f"<{tag}{attrs(**attributes)}>{inner}</{tag}>"


def card_inner(code: str) -> str:
    """The face of a card: corner symbol, big number or handshake, watermark symbol."""
    colour, number = parse_card(code)
    if number is None:
        return (
            f'{icon(colour, "sym corner")}{icon("H", "sym hs")}'
            f'<span class="hs-tag" aria-hidden="true">×</span>'
        )
    return (
        f'{icon(colour, "sym corner")}<span class="num" aria-hidden="true">'
        f'{card_face(code)}</span>{icon(colour, "sym mark")}'
    )


def card_span(code: str, lang: str, size: str = "", fresh: bool = False) -> str:
    """A non-interactive card (on an expedition, a pile top, a breakdown)."""
    colour, number = parse_card(code)
    flags = (size, "handshake" if number is None else "", "fresh" if fresh else "")
    classes = " ".join(["card", f"c-{colour}", *(f for f in flags if f)])
    return el("span", card_inner(code), class_=classes, data_card=code, role="img",
              aria_label=card_name(lang, code))


def button(action: str, label: str, *, disabled: bool = False, css: str = "btn",
           aria_label: str | None = None, describedby: str | None = None,
           **data: object) -> str:
    """A real ``<button>`` with ``data-action`` (and extra ``data-*``), disabled when illegal."""
    extra = {f"data_{k}": v for k, v in data.items()}
    return el("button", label, type="button", class_=css, data_action=action,
              disabled=disabled, aria_label=aria_label, aria_describedby=describedby, **extra)
