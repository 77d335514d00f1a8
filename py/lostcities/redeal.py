"""Draws made elsewhere, put into a state the engine drew itself: job offers, a round's deal,
an endgame mixup. The fair protocol shuffles without a seed, so a state it played can only be
rebuilt by the engine (a recorded online match replayed) with its draws put back in; each
function checks that what it puts in could have been drawn there (the same cards, jobs or
mixups), and leaves the rest of the state to the engine. `dealt_match` and `step_dealt` play a
whole match so, from its draws (`Dealt`: a `Deal` per round, the offers) and its moves."""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass, replace

from .cards import Card
from .engine import apply, new_match
from .jobs import JOB_OFFER_SIZE, JOBS
from .mixups import MIXUPS
from .moves import Move
from .objectives import OBJECTIVES, OBJECTIVES_PER_PLAYER
from .options import Options
from .state import LogEntry, State

Pair = tuple[tuple[str, ...], tuple[str, ...]]


def _pair(items: Sequence[Sequence[str]], size: int, known: Container[str], what: str) -> Pair:
    if len(items) != 2 or any(len(side) != size for side in items):
        raise ValueError(f"{what}: two lists of {size} expected")
    flat = [*items[0], *items[1]]
    if any(not isinstance(i, str) or i not in known for i in flat):
        raise ValueError(f"{what}: an unknown one")
    if len(set(flat)) != len(flat):
        raise ValueError(f"{what}: one given twice")
    return tuple(items[0]), tuple(items[1])


def with_offers(state: State, offers: Sequence[Sequence[str]]) -> State:
    """A new match with Jobs, its offers replaced by `offers` (each player's two jobs, four
    different ones); ValueError if the state is not waiting for the first pick or the
    offers could not have been drawn."""
    if state.phase != "jobs" or any(state.jobs):
        raise ValueError("job offers are put in before either job is picked")
    return replace(state, job_offers=_pair(offers, JOB_OFFER_SIZE, JOBS, "job offers"))


def with_deal(state: State, hands: Sequence[Sequence[Card]], deck: Sequence[Card],
              objectives: Sequence[Sequence[str]] = ((), ())) -> State:
    """A round just dealt, with another deal of the same cards: `hands` (sorted here), the
    `deck` (top last) and, with Objectives, each player's objectives; ValueError if the
    state is not a fresh deal or the cards are not the ones it dealt, in the same counts."""
    if state.phase != "play" or any(any(side) for side in state.expeditions) or any(
            state.discards):
        raise ValueError("a deal is put in before anything is played")
    if len(hands) != 2 or [len(h) for h in hands] != [len(h) for h in state.hands]:
        raise ValueError("the hands are not the sizes dealt")
    given = [*hands[0], *hands[1], *deck]
    if any(isinstance(c, bool) or not isinstance(c, int) for c in given) or Counter(
            given) != Counter([*state.hands[0], *state.hands[1], *state.deck]):
        raise ValueError("the deal is not the round's cards")
    size = OBJECTIVES_PER_PLAYER if state.options.objectives else 0
    dealt = _pair(objectives, size, OBJECTIVES, "objectives")
    return replace(state, hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
                          deck=tuple(deck), objectives=dealt)


def with_mixup(state: State, mixup: str) -> State:
    """The state in which the engine just turned up its endgame mixup, with `mixup` turned up
    instead; ValueError if no mixup was just turned up or `mixup` is not one."""
    if mixup not in MIXUPS:
        raise ValueError(f"not a mixup: {mixup!r}")
    if state.mixup is None or not state.log or state.log[-1].type != "mixup":
        raise ValueError("no mixup was just turned up")
    return replace(state, mixup=mixup, log=state.log[:-1] + (LogEntry(None, "mixup", mixup),))


@dataclass(frozen=True)
class Deal:
    """A round's deal: both hands, the deck (top last) and each player's objectives."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    deck: tuple[Card, ...]
    objectives: Pair = ((), ())

    @classmethod
    def of(cls, state: State) -> Deal:
        """The deal of a state just dealt."""
        return cls(state.hands, state.deck, state.objectives)


@dataclass(frozen=True)
class Dealt:
    """A match's draws made elsewhere: every round's deal, and the job offers (with Jobs)."""

    deals: tuple[Deal, ...]
    offers: Pair | None = None


def dealt_match(options: Options, names: tuple[str, str], first_player: int,
                dealt: Dealt) -> State:
    """A new match with draws made elsewhere: the job offers (with Jobs, whose round 1 is
    dealt once both have picked: see `step_dealt`), else round 1's deal; ValueError if they
    are missing or could not have been drawn."""
    state = new_match(options, seed=0, first_player=first_player, names=names)
    if options.jobs:
        if dealt.offers is None:
            raise ValueError("a match with Jobs needs its job offers")
        return with_offers(state, dealt.offers)
    return _dealt(state, dealt)


def _dealt(state: State, dealt: Dealt) -> State:
    if state.round > len(dealt.deals):
        raise ValueError(f"round {state.round} has no deal")
    deal = dealt.deals[state.round - 1]
    return with_deal(state, deal.hands, deal.deck, deal.objectives)


def step_dealt(state: State, move: Move, dealt: Dealt, mixup: str | None) -> State:
    """``apply(state, move)`` with the draws made elsewhere put in: round r's deal
    (``dealt.deals[r - 1]``) when the move deals it, `mixup` when it turns the mixup up;
    IllegalMove as `apply`, ValueError if a draw is missing or could not have been drawn."""
    after = apply(state, move)
    if after.phase == "play" and (state.phase == "jobs" or after.round != state.round):
        return _dealt(after, dealt)
    if state.mixup is None and after.mixup is not None:
        if mixup is None:
            raise ValueError("the mixup turned up is not known")
        return with_mixup(after, mixup)
    return after
