"""The hint: what the strong bot would play from this view, with a short reason."""

from __future__ import annotations

import random
from typing import Any

from ..cards import COLOUR_NAMES, parse_card, value_of
from ..jobs import JOBS
from .base import MoveJson
from .strong import StrongBot


def _name(card: str) -> str:
    colour = COLOUR_NAMES[card[0]]
    return f"{colour} handshake" if card[1:] == "H" else f"{colour} {card[1:]}"


def _numbers(cards: list[str]) -> list[int]:
    return [value_of(parse_card(c)) for c in cards if c[1:] != "H"]


def _opponent_can_use(view: dict[str, Any], card: str) -> bool:
    theirs: list[str] = view["expeditions"][1 - view["player"]][card[0]]
    nums = _numbers(theirs)
    if card[1:] == "H":
        return not nums
    return not nums or value_of(parse_card(card)) > max(nums)


def explain(view: dict[str, Any], move: MoveJson) -> str:
    """A one-sentence reason for ``move`` in the position of ``view`` (English)."""
    kind = move["type"]
    me = view["player"]
    hand: list[str] = view["hand"]
    if kind == "pick-job":
        job = JOBS[move["job"]]
        return f"{job.name}: {job.effect}."
    if kind == "next-round":
        return "Start the next round."
    if kind in ("play", "discard"):
        card = move["card"]
        colour = card[0]
        cname = COLOUR_NAMES[colour]
        mine: list[str] = view["expeditions"][me][colour]
        same = [c for c in hand if c[0] == colour]
        worth = sum(_numbers(same))
        if kind == "play":
            if card[1:] == "H":
                return (f"Raises the stake on {cname}: you hold {len(same)} {cname} cards "
                        f"worth {worth}.")
            if not mine:
                return (f"Starts the {cname} expedition: you hold {len(same)} {cname} cards "
                        f"worth {worth}.")
            if view.get("airlift_active"):
                return f"Airlift lays the {_name(card)} that could not go on otherwise."
            return f"Continues your {cname} expedition with the {_name(card)}."
        if _opponent_can_use(view, card):
            return (f"Discards the {_name(card)}: of your cards it is the one you need least "
                    "and it helps your opponent least.")
        return f"Discards the {_name(card)}: neither you nor your opponent can use it."
    if kind == "draw":
        source = move["source"]
        if source == "deck":
            return "Draws from the deck: no discard is worth taking."
        top = view["discards"][source]["top"]
        mine = view["expeditions"][me][source]
        if top and (not _numbers(mine) or value_of(parse_card(top)) > max(_numbers(mine))) \
                and (mine or any(c[0] == source for c in hand)):
            return f"Takes the {_name(top)}: it fits your {COLOUR_NAMES[source]} expedition."
        if top and _opponent_can_use(view, top):
            return f"Takes the {_name(top)} before your opponent can."
        return "Takes a discard to keep the deck, and the round, going longer."
    if kind == "radio":
        return "Radio shows you the top two cards of the deck before you choose."
    if kind == "airlift":
        return "Airlift lets you lay a card below your expedition's top this turn."
    if kind == "sabotage":
        return (f"Sabotage shuts the {COLOUR_NAMES[move['colour']]} pile to your opponent "
                "next turn.")
    return "The only sensible move."


def hint(view: dict[str, Any], playouts: int | None = None, seed: int = 0) -> tuple[
        MoveJson, str]:
    """The strong bot's move for this view and a short English reason.

    Deterministic for a given view, ``playouts`` and ``seed``. ``ValueError`` if the view's
    player cannot act now.
    """
    bot = StrongBot() if playouts is None else StrongBot(playouts)
    move = bot.choose(view, random.Random(seed))
    return move, explain(view, move)
