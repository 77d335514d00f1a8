"""Small HTML building blocks shared by the screens: escaping, attributes, cards and buttons.

Everything that comes from a view or a player (names!) goes through `esc` or `attrs`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from webui.cards import card_face, card_name, parse_card
from webui.symbols import icon


_SPECIAL = re.compile("[&<>\"']")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})
"""What html.escape(quote=True) writes; not imported from `html`, whose entity table costs the
page's first boot about 70 ms to compile (regions.unescape undoes exactly this)."""


def esc(value: object) -> str:
    """Text escaped for HTML content and attribute values."""
    text = str(value)
    return text.translate(_ESCAPES) if _SPECIAL.search(text) else text


def attrs(**values: object) -> str:
    """HTML attributes from keywords (``data_card`` -> ``data-card``).

    None and False leave the attribute out; True writes it bare (``disabled``). ``disabled``
    always comes last, so that enabling or disabling a control in the page keeps the order of
    its attributes (regions.py then sets it in place instead of replacing the element).
    """
    parts = []
    for key, value in values.items():
        name = key.rstrip("_").replace("_", "-")
        if value is None or value is False or name == "disabled":
            continue
        parts.append(f" {name}" if value is True else f' {name}="{esc(value)}"')
    if values.get("disabled"):
        parts.append(" disabled")
    return "".join(parts)


def el(tag: str, inner: str = "", **attributes: object) -> str:
    """An element: ``<tag attrs>inner</tag>``; `inner` must already be HTML (escaped)."""
    return f"<{tag}{attrs(**attributes)}>{inner}</{tag}>"


@lru_cache(maxsize=512)
def card_inner(code: str, size: str = "") -> str:
    """The face of a card: corner symbol, big number or handshake, watermark symbol.

    A `size` of ``strip`` (an expedition's band) has no watermark, ``chip`` (a breakdown's)
    only the number or handshake: app.css hides the rest there, so it is not made at all."""
    colour, number = parse_card(code)
    corner = "" if size == "chip" else icon(colour, "sym corner")
    if number is None:
        tag = "" if size == "chip" else '<span class="hs-tag" aria-hidden="true">×</span>'
        return f'{corner}{icon("H", "sym hs")}{tag}'
    mark = "" if size in ("strip", "chip") else icon(colour, "sym mark")
    return f'{corner}<span class="num" aria-hidden="true">{card_face(code)}</span>{mark}'



@lru_cache(maxsize=1024)
def card_span(code: str, lang: str, size: str = "", fresh: bool = False) -> str:
    """A non-interactive card (on an expedition, a pile top, a breakdown)."""
    colour, number = parse_card(code)
    flags = (size, "handshake" if number is None else "", "fresh" if fresh else "")
    classes = " ".join(["card", f"c-{colour}", *(f for f in flags if f)])
    return el("span", card_inner(code, size), class_=classes, data_card=code, role="img",
              aria_label=card_name(lang, code))


def button(action: str, label: str, *, disabled: bool = False, css: str = "btn",
           aria_label: str | None = None, describedby: str | None = None,
           **data: object) -> str:
    """A real ``<button>`` with ``data-action`` (and extra ``data-*``), disabled when illegal."""
    extra = {f"data_{k}": v for k, v in data.items()}
    return el("button", label, type="button", class_=css, data_action=action,
              disabled=disabled, aria_label=aria_label, aria_describedby=describedby, **extra)
