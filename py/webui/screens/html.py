"""Small HTML building blocks shared by the screens: cards and buttons, on top of
webui.kernel.markup.

The markup helpers (`esc`, `html`, `el`, `attrs`, ...) escape every value they are given unless
it is `Markup` already; they are re-exported here for the screens.
"""

from __future__ import annotations

from functools import lru_cache

from webui.kernel.markup import EMPTY, Markup, attrs, el, esc, html, join, region, void
from webui.kernel.symbols import icon
from webui.text.cards import card_face, card_name, parse_card

__all__ = ["EMPTY", "Markup", "attrs", "button", "card_inner", "card_span", "confirm", "el", "esc",
           "html", "icon", "join", "region", "void"]

_HS_TAG = el("span", "×", class_="hs-tag", aria_hidden="true")


@lru_cache(maxsize=512)
def card_inner(code: str, size: str = "") -> Markup:
    """The face of a card: corner symbol, big number or handshake, watermark symbol.

    A `size` of ``strip`` (an expedition's band) has no watermark, ``chip`` (a breakdown's)
    only the number or handshake: app.css hides the rest there, so it is not made at all."""
    colour, number = parse_card(code)
    corner = EMPTY if size == "chip" else icon(colour, "sym corner")
    if number is None:
        return join((corner, icon("H", "sym hs"), EMPTY if size == "chip" else _HS_TAG))
    mark = EMPTY if size in ("strip", "chip") else icon(colour, "sym mark")
    return join((corner, el("span", card_face(code), class_="num", aria_hidden="true"), mark))


@lru_cache(maxsize=1024)
def card_span(code: str, lang: str, size: str = "", fresh: bool = False) -> Markup:
    """A non-interactive card (on an expedition, a pile top, a breakdown)."""
    colour, number = parse_card(code)
    flags = (size, "handshake" if number is None else "", "fresh" if fresh else "")
    classes = " ".join(["card", f"c-{colour}", *(f for f in flags if f)])
    return el("span", card_inner(code, size), class_=classes, data_card=code, role="img",
              aria_label=card_name(lang, code))


def button(action: str, label: object, *, disabled: bool = False, css: str = "btn",
           aria_label: str | None = None, describedby: str | None = None,
           **data: object) -> Markup:
    """A real ``<button>`` with ``data-action`` (and extra ``data-*``), disabled when illegal;
    `label` is text (escaped) or `Markup`."""
    extra = {f"data_{k}": v for k, v in data.items()}
    return el("button", label, type="button", class_=css, data_action=action,
              disabled=disabled, aria_label=aria_label, aria_describedby=describedby, **extra)


def confirm(question_id: str, question: str, yes: tuple[str, str], no: tuple[str, str]) -> Markup:
    """A question asked in the page (an ``alertdialog``): the answers are `yes` and `no`, each
    an (action, label) pair; `yes` is the dangerous one."""
    return el("div", el("p", question, id=question_id),
              button(yes[0], yes[1], css="btn danger"), button(no[0], no[1], css="btn primary"),
              class_="notice confirm", role="alertdialog", aria_labelledby=question_id)
