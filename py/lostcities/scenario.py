"""Building a position by hand, for tests (engine and UI) and tutorials.

``position(...)`` takes cards in text notation, fills in whatever is not given (hands up to
their size, the deck with every card left over) and returns a ``State`` validated exactly like a
saved game: an impossible position raises ``CorruptSave`` (a ``ValueError``) saying why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .cards import (
    Card, colour_index, colours_for, full_deck, is_handshake, parse_card,
)
from .jobs import JOBS
from .objectives import OBJECTIVES
from .options import Options
from .rng import rng_for, shuffled
from .serial import STATE_FORMAT, STATE_VERSION, save_text, state_from_json
from .state import State

Cards = Sequence[str]


def position(
    options: Options = Options(rounds=1),
    *,
    hands: Sequence[Cards] = ((), ()),
    expeditions: Sequence[Mapping[str, Cards]] = ({}, {}),
    discards: Mapping[str, Cards] = {},
    deck_top: Cards = (),
    deck_size: int | None = None,
    phase: str = "play",
    to_act: int | None = 0,
    round: int = 1,
    first_player: int = 0,
    round_scores: Sequence[tuple[int, int]] = (),
    charges: tuple[int, int] = (0, 0),
    discard_counts: tuple[int, int] = (0, 0),
    skills_used: Sequence[str] = (),
    airlift_active: bool = False,
    discarded_onto: str | None = None,
    shut_piles: tuple[str | None, str | None] = (None, None),
    jobs: tuple[str | None, str | None] = (None, None),
    objectives: tuple[Sequence[str], Sequence[str]] | None = None,
    mixup: str | None = None,
    seed: int = 0,
    names: tuple[str, str] = ("Player 1", "Player 2"),
) -> State:
    """A constructed position.

    Hands are filled up to their size (``phase="draw"``: the player to act holds one fewer) with
    leftover cards in a seeded order; ``deck_top`` lists the deck's top cards, top first; the
    deck holds every other card, or ``deck_size`` cards with the surplus buried at the bottom of
    the discard piles of their colours. Discard piles and expeditions list cards bottom first.
    With Jobs on, each player's offer is their job plus an unpicked one. With Objectives on and
    ``objectives`` not given, each player gets two distinct ones.
    """
    colours = colours_for(options.sixth_colour)
    left = Counter(full_deck(options.sixth_colour))

    def take(texts: Cards) -> list[Card]:
        out = []
        for text in texts:
            card = parse_card(text)
            copies = range(3) if is_handshake(card) else range(1)
            copy = next((card + k for k in copies if left[card + k]), None)
            if copy is None:
                raise ValueError(f"{text} is used more times than the deck holds")
            left[copy] -= 1
            out.append(copy)
        return out

    exps = [{c: take(e.get(c, ())) for c in colours} for e in expeditions]
    piles = {c: take(discards.get(c, ())) for c in colours}
    top = take(deck_top)
    held = [take(h) for h in hands]
    pool = shuffled(rng_for(seed, "scenario"), sorted(left.elements()))
    job_hand = [JOBS[j].hand_size if j else 8 for j in jobs]
    for p in (0, 1):
        want = 0 if phase == "jobs" else job_hand[p] - (
            1 if phase == "draw" and p == to_act else 0)
        while len(held[p]) < want and pool:
            held[p].append(pool.pop())
    deck = pool
    if deck_size is not None:
        keep = deck_size - len(top)
        if not 0 <= keep <= len(deck):
            raise ValueError(f"a deck of {deck_size} cards can't hold the cards given")
        for card in deck[:len(deck) - keep]:
            piles[colours[colour_index(card)]].insert(0, card)
        deck = deck[len(deck) - keep:]
    deck = deck + top[::-1]

    offers: list[list[str]] = [[], []]
    if options.jobs:
        spare = [j for j in JOBS if j not in jobs]
        for p in (0, 1):
            job = jobs[p]
            offers[p] = [job, spare.pop(0)] if job else [spare.pop(0), spare.pop(0)]
    if objectives is None:
        objectives = (list(OBJECTIVES)[:2], list(OBJECTIVES)[2:4]) if (
            options.objectives and phase != "jobs") else ((), ())

    data = {
        "format": STATE_FORMAT, "version": STATE_VERSION, "options": options.to_json(),
        "seed": seed, "names": list(names), "first_player": first_player, "round": round,
        "phase": phase, "to_act": to_act,
        "hands": [[save_text(c) for c in h] for h in held],
        "deck": [save_text(c) for c in deck],
        "discards": {c: [save_text(x) for x in piles[c]] for c in colours},
        "expeditions": [{c: [save_text(x) for x in e[c]] for c in colours} for e in exps],
        "round_scores": [list(r) for r in round_scores],
        "charges": list(charges), "discard_counts": list(discard_counts),
        "skills_used": list(skills_used), "airlift_active": airlift_active,
        "discarded_onto": discarded_onto,
        "shut_piles": list(shut_piles),
        "job_offers": offers, "jobs": list(jobs),
        "objectives": [list(o) for o in objectives], "mixup": mixup, "log": [], "undo": None,
    }
    return state_from_json(data)
