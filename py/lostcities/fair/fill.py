"""Engine states with hidden cards: what a peer runs the engine on.

Each peer runs the ordinary engine on a state in which every card it may not know is a
*hidden id*, ``HIDDEN + position`` (a position of the round's masked deck), and every secret
objective or offered job is a placeholder ``"?position"``. The rules never look inside a card
they do not need (the opponent's hand and the deck are only counted and moved), so the engine
runs unchanged; the protocol puts a card in (``fill_cards``) the moment its keys open it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..cards import Card, canonical, parse_card
from ..state import LogEntry, State

HIDDEN = 1000
"""Hidden ids are ``HIDDEN + position``: above every card id, so they sort after them."""


def hidden(pos: int) -> Card:
    """The hidden id of a deck position."""
    return HIDDEN + pos


def is_hidden(card: Card) -> bool:
    """Whether ``card`` is a hidden id."""
    return card >= HIDDEN


def placeholder(pos: int) -> str:
    """The placeholder of a secret objective or offered job at ``pos``."""
    return f"?{pos}"


def is_placeholder(item: str | None) -> bool:
    """Whether ``item`` is a placeholder."""
    return isinstance(item, str) and item.startswith("?")


def _cards(cards: tuple[Card, ...], table: Mapping[Card, Card]) -> tuple[Card, ...]:
    return tuple(table.get(c, c) for c in cards)


def fill_cards(state: State, cards: Mapping[int, Card]) -> State:
    """``state`` with each hidden position in ``cards`` (position -> card id) replaced by its
    card, everywhere: hands (kept sorted), deck, log and the state kept for undo."""
    table = {hidden(pos): card for pos, card in cards.items()}
    log = tuple(
        e if e.card is None or e.card not in table else LogEntry(
            e.player, e.type, e.detail, table[e.card])
        for e in state.log)
    return replace(
        state,
        hands=(tuple(sorted(_cards(state.hands[0], table))),
               tuple(sorted(_cards(state.hands[1], table)))),
        deck=_cards(state.deck, table),
        log=log,
        undo=None if state.undo is None else fill_cards(state.undo, cards),
    )


def _items(items: tuple[str, ...], table: Mapping[str, str]) -> tuple[str, ...]:
    return tuple(table.get(i, i) for i in items)


def fill_objectives(state: State, objectives: Mapping[int, str]) -> State:
    """``state`` with the placeholder objectives in ``objectives`` (position -> id) filled."""
    table = {placeholder(pos): o for pos, o in objectives.items()}
    mine, theirs = state.objectives
    return replace(state, objectives=(_items(mine, table), _items(theirs, table)),
                   undo=None if state.undo is None else fill_objectives(state.undo, objectives))


def fill_offers(state: State, jobs: Mapping[int, str]) -> State:
    """``state`` with the placeholder jobs offered in ``jobs`` (position -> id) filled."""
    table = {placeholder(pos): j for pos, j in jobs.items()}
    first, second = state.job_offers
    return replace(state, job_offers=(_items(first, table), _items(second, table)))


def card_played(hand: tuple[Card, ...], text: str) -> Card | None:
    """The card of ``hand`` that playing or discarding ``text`` takes, as the engine takes it:
    the first (lowest id) with that text; ``None`` if no known card of the hand has it."""
    target = parse_card(text)
    for card in hand:
        if not is_hidden(card) and canonical(card) == target:
            return card
    return None
