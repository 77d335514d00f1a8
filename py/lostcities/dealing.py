"""Every random draw of a match, derived from the seed (shared by the engine and fast path)."""

from __future__ import annotations

from .cards import Card, full_deck
from .jobs import JOB_OFFER_SIZE, JOBS, JOBS_DRAWN
from .mixups import MIXUPS
from .objectives import OBJECTIVES, OBJECTIVES_PER_PLAYER
from .rng import rng_for, shuffled


def deal_round(
    seed: int, round_number: int, sixth_colour: bool, starter: int, sizes: tuple[int, int]
) -> tuple[list[Card], list[Card], list[Card]]:
    """Shuffle the round's deck and deal alternately, starting with the player who does not
    start, until each hand has its size. Returns (hand 0 sorted, hand 1 sorted, deck top last)."""
    deck = shuffled(rng_for(seed, round_number, "deck"), full_deck(sixth_colour))
    hands: tuple[list[Card], list[Card]] = ([], [])
    if sizes[0] == sizes[1]:
        top = deck[:-2 * sizes[0] - 1:-1]  # the top cards, top first
        del deck[-2 * sizes[0]:]
        hands[1 - starter].extend(top[0::2])
        hands[starter].extend(top[1::2])
    else:
        player = 1 - starter
        while len(hands[0]) < sizes[0] or len(hands[1]) < sizes[1]:
            if len(hands[player]) < sizes[player]:
                hands[player].append(deck.pop())
            player = 1 - player
    return sorted(hands[0]), sorted(hands[1]), deck


def job_offers(seed: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The two jobs privately offered to each player (four different ones)."""
    drawn = shuffled(rng_for(seed, "jobs"), list(JOBS))[:JOBS_DRAWN]
    return tuple(drawn[:JOB_OFFER_SIZE]), tuple(drawn[JOB_OFFER_SIZE:2 * JOB_OFFER_SIZE])


def deal_objectives(seed: int, round_number: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each player's two secret objectives for a round (no objective dealt twice)."""
    drawn = shuffled(rng_for(seed, round_number, "objectives"), list(OBJECTIVES))
    k = OBJECTIVES_PER_PLAYER
    return tuple(drawn[:k]), tuple(drawn[k:2 * k])


def draw_mixup(seed: int, round_number: int) -> str:
    """The endgame mixup turned up in the given (final) round."""
    return shuffled(rng_for(seed, round_number, "mixup"), list(MIXUPS))[0]
