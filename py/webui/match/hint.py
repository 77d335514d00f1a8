"""The hint button: what the Hard bot would play from the player's own view, and why.

`hint_steps(view)` is the Hard bot's thinking as stepwise work (the controller runs it in
slices);
`reason(view, move)` says in a few words why, through the catalogue (English and Spanish);
`render_hint(view, hint, lang)` is the button and, once found, the suggestion.
"""

from __future__ import annotations

import json
import random
from typing import Any

from lostcities import may_follow
from lostcities.cards import parse_card as card_id
from webui.match.seats import Steps
from webui.match.thinking import HARD_TIME_LIMIT, level_bot, think_steps
from webui.screens.html import EMPTY, Markup, button, el
from webui.text.cards import card_name, colour_name, parse_card
from webui.text.i18n import t

View = dict[str, Any]
Move = dict[str, Any]

HINT_LEVEL = "hard"
HINT_PHASES = ("play", "draw")


def hint_steps(view: View, seed: int = 0, time_limit: float | None = HARD_TIME_LIMIT) -> Steps:
    """The Hard bot's move for this view (stepwise); ValueError if its player can't act."""
    return think_steps(level_bot(HINT_LEVEL, time_limit), view, random.Random(seed))


def can_hint(view: View) -> bool:
    """Whether the view's player is to act in a turn (play or draw) and may ask for a hint."""
    return (view.get("phase") in HINT_PHASES and view.get("to_act") == view.get("player")
            and bool(view.get("legal_moves")))


def _numbers(cards: list[str]) -> list[int]:
    return [n for n in (parse_card(c)[1] for c in cards) if n is not None]


def _fits(cards: list[str], card: str) -> bool:
    """Whether `card` could still go onto an expedition holding `cards` (the engine's rule)."""
    return may_follow([card_id(c) for c in cards], card_id(card))


def describe(view: View, move: Move, lang: str) -> str:
    """The move in words (``Play Red 7``, ``Draw from the deck, 12 left``)."""
    kind = move.get("type")
    if kind in ("play", "discard"):
        return t(lang, f"action.{kind}.card", card=card_name(lang, move["card"]))
    if kind == "draw":
        source = move["source"]
        if source == "deck":
            return t(lang, "action.draw.deck", count=view.get("deck_count", 0))
        top = view["discards"][source]["top"]
        return t(lang, "action.draw.pile.top", card=card_name(lang, top),
                 colour=colour_name(lang, source, True))
    if kind == "sabotage":
        return t(lang, "skill.sabotage.pile", colour=colour_name(lang, move["colour"], True))
    if kind in ("radio", "airlift"):
        return t(lang, "hint.move.skill", skill=t(lang, f"skill.{kind}"))
    if kind == "pick-job":
        return t(lang, "hint.move.job", job=t(lang, f"job.{move['job']}"))
    return t(lang, "why.illegal")


def reason(view: View, move: Move, lang: str) -> str:
    """A short reason for `move` in the position of `view`."""
    kind = move.get("type")
    me = view["player"]
    mine: dict[str, list[str]] = view["expeditions"][me]
    theirs: dict[str, list[str]] = view["expeditions"][1 - me]
    hand: list[str] = view.get("hand") or []
    if kind in ("play", "discard"):
        card = move["card"]
        colour = card[0]
        same = [c for c in hand if c[0] == colour]
        values = {"colour": colour_name(lang, colour, True), "count": len(same),
                  "worth": sum(_numbers(same))}
        if kind == "play":
            if view.get("airlift_active") and not _fits(mine[colour], card):
                return t(lang, "skill.airlift.active")
            if parse_card(card)[1] is None:
                return t(lang, "hint.why.handshake", **values)
            return t(lang, "hint.why.continue" if mine[colour] else "hint.why.start", **values)
        if _fits(theirs[colour], card):
            return t(lang, "hint.why.discard-least")
        return t(lang, "hint.why.discard-safe")
    if kind == "draw":
        source = move["source"]
        if source == "deck":
            return t(lang, "hint.why.deck")
        top = view["discards"][source]["top"]
        if _fits(mine[source], top) and (mine[source] or any(c[0] == source for c in hand)):
            return t(lang, "hint.why.pile-fits", colour=colour_name(lang, source, True))
        if _fits(theirs[source], top):
            return t(lang, "hint.why.pile-deny")
        return t(lang, "hint.why.pile-stall")
    if kind in ("radio", "airlift", "sabotage"):
        return t(lang, f"skill.{kind}.hint")
    if kind == "pick-job":
        return t(lang, f"job.{move['job']}.hint")
    return ""


def render_hint(view: View, hint: dict[str, Any] | None, lang: str) -> Markup:
    """The hint button and the suggestion: `hint` is ``{"view", "move"}`` (``move`` None
    while the bot thinks) or None. The button stays in place through the turns (disabled
    when the view's player can't ask now), so nothing jumps; empty outside the turns."""
    if view.get("phase") not in HINT_PHASES:
        return EMPTY
    current = hint if hint is not None and hint.get("view") == view else None
    thinking = current is not None and current.get("move") is None
    label = t(lang, "hint.thinking" if thinking else "hint.button")
    html = button("hint", label, disabled=thinking or not can_hint(view),
                  css="btn small ghost hint-btn", aria_label=t(lang, "hint.label"))
    move = current.get("move") if current is not None else None
    if move is not None:
        html += el(
            "p", el("b", t(lang, "hint.says")), " ",
            el("span", describe(view, move, lang), class_="hint-move"), " ",
            el("span", reason(view, move, lang), class_="hint-reason"),
            class_="hint-box", data_hint=json.dumps(move, sort_keys=True), role="status",
        )
    return el("div", html, class_="hint", aria_busy="true" if thinking else None)
