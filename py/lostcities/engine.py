"""The rules: starting a match, the legal moves, and applying a move (RULES.md §2–5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .cards import (
    COLOUR_NAMES, COLOURS, Card, canonical, card_name, card_text, colour_index, colour_of,
    full_deck, is_handshake, parse_card, value_of,
)
from .dealing import deal_objectives, deal_round, draw_mixup, job_offers
from .errors import IllegalMove
from .jobs import JOBS
from .mixups import MIXUP_TRIGGER_DECK
from .moves import (
    Airlift, Discard, Draw, Move, NextRound, PickJob, Play, Radio, Sabotage, Undo,
)
from .options import Options
from .rng import below, rng_for
from .roundscore import score_round
from .skills import SKILLS
from .state import LogEntry, State

DEFAULT_NAMES = ("Player 1", "Player 2")
T = TypeVar("T")


def _replace(state: State, **changes: Any) -> State:
    """A copy of ``state`` with some fields changed (``dataclasses.replace`` without the
    per-field re-initialisation, which dominated the cost of ``apply``)."""
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def new_match(
    options: Options = Options(),
    seed: int = 0,
    first_player: int | None = 0,
    names: tuple[str, str] = DEFAULT_NAMES,
) -> State:
    """A new match. ``first_player`` starts round 1 (``None``: chosen from the seed).

    With Jobs on, the match opens in phase ``jobs``; otherwise round 1 is dealt at once.
    Raises ``ValueError`` on bad arguments.
    """
    if not isinstance(options, Options):
        raise ValueError("options must be an Options value")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    if first_player is None:
        first_player = below(rng_for(seed, "first-player"), 2)
    if first_player not in (0, 1) or isinstance(first_player, bool):
        raise ValueError(f"first_player must be 0, 1 or None, not {first_player!r}")
    if (
        not isinstance(names, (tuple, list)) or len(names) != 2
        or not all(isinstance(n, str) for n in names)
    ):
        raise ValueError("names must be two strings")
    n_colours = 6 if options.sixth_colour else 5
    state = State(
        options=options, seed=seed, names=(names[0], names[1]), first_player=first_player,
        round=1, phase="jobs", to_act=0, hands=((), ()), deck=full_deck(options.sixth_colour),
        discards=((),) * n_colours, expeditions=(((),) * n_colours, ((),) * n_colours),
    )
    if options.jobs:
        return _replace(state, job_offers=job_offers(seed))
    return _deal(state)


def _deal(state: State) -> State:
    """Shuffle and deal the current round; the round's starting player acts."""
    starter = state.starting_player
    hand0, hand1, deck = deal_round(state.seed, state.round, state.options.sixth_colour,
                                    starter, (state.hand_size(0), state.hand_size(1)))
    objectives: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    if state.options.objectives:
        objectives = deal_objectives(state.seed, state.round)
    n = len(state.colours)
    return _replace(
        state, phase="play", to_act=starter,
        hands=(tuple(hand0), tuple(hand1)), deck=tuple(deck),
        discards=((),) * n, expeditions=(((),) * n, ((),) * n),
        charges=(0, 0), discard_counts=(0, 0), skills_used=(), airlift_active=False,
        discarded_onto=None, shut_piles=(None, None), objectives=objectives, mixup=None,
        log=state.log if state.round == 1 else (), undo=None,
    )


# ---------------------------------------------------------------- checks


def _colour_name(colour: str) -> str:
    return COLOUR_NAMES[colour]


def _find_in_hand(state: State, player: int, text: str) -> Card:
    target = parse_card(text)
    _check_colour_in_play(state, colour_of(target))
    for card in state.hands[player]:
        if canonical(card) == target:
            return card
    raise IllegalMove(f"You don't hold the {card_name(target)}")


def _check_colour_in_play(state: State, colour: str) -> None:
    if colour not in state.colours:
        raise IllegalMove(f"There is no {_colour_name(colour)} in this match")


def _highest(expedition: tuple[Card, ...]) -> int:
    """The highest number in an expedition, 0 if it holds none."""
    return max((value_of(c) for c in expedition), default=0)


def play_problem(state: State, player: int, card: Card) -> str | None:
    """Why ``card`` can't go onto the player's expedition now, or ``None`` if it can."""
    if state.airlift_active:
        return None
    colour = colour_of(card)
    numbers = [value_of(c) for c in state.expeditions[player][colour_index(card)]
               if not is_handshake(c)]
    if not numbers:
        return None
    if is_handshake(card):
        return f"A {_colour_name(colour)} handshake can't follow {_colour_name(colour)} numbers"
    top = max(numbers)
    if value_of(card) <= top:
        return f"{card_name(card)} can't follow {_colour_name(colour)} {top}"
    return None


def draw_problem(state: State, source: str) -> str | None:
    """Why the player to act can't draw from ``source`` now, or ``None`` if they can."""
    if source == "deck":
        return None if state.deck else "The deck is empty"
    if source not in state.colours:
        return f"There is no {_colour_name(source)} in this match"
    name = _colour_name(source)
    if not state.discards[state.colours.index(source)]:
        return f"The {name} pile is empty"
    if state.locked_pile() == source:
        return f"You can't draw from the {name} pile: you just discarded onto it"
    if state.shut_pile() == source:
        return f"You can't draw from the {name} pile: it was sabotaged"
    return None


def _skill_problem(state: State, skill: str) -> str | None:
    if not state.options.skills:
        return "Skills are off in this match"
    if state.phase == "draw":
        return "Skills are used before your play or discard"
    if state.phase != "play":
        return _phase_problem(state, "play")
    name = SKILLS[skill].name
    if skill in state.skills_used:
        return f"You already used {name} this turn"
    player = state.to_act
    assert player is not None
    have, cost = state.charges[player], SKILLS[skill].cost
    if have < cost:
        return f"{name} needs {cost} charge{'s' if cost > 1 else ''}; you have {have}"
    return None


def _phase_problem(state: State, wanted: str) -> str | None:
    if state.phase == wanted:
        return None
    return {
        "jobs": "First pick your job",
        "play": "First play or discard a card",
        "draw": "Now draw a card (or undo your play)",
        "round-end": "The round is over: start the next round",
        "match-end": "The match is over",
    }[state.phase]


def _require(problem: str | None) -> None:
    if problem is not None:
        raise IllegalMove(problem)


# ---------------------------------------------------------------- legal moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every move the player to act may make, in a stable order.

    Phase ``draw`` includes ``Undo`` (take back this turn's play or discard); phase
    ``round-end`` offers ``NextRound``; ``match-end`` offers nothing.
    """
    phase = state.phase
    player = state.to_act
    if phase == "play":
        assert player is not None
        moves: list[Move] = []
        if state.options.skills:
            if _skill_problem(state, "radio") is None:
                moves.append(Radio())
            if _skill_problem(state, "airlift") is None:
                moves.append(Airlift())
            if _skill_problem(state, "sabotage") is None:
                moves.extend(Sabotage(c) for c in state.colours)
        highs = [_highest(e) for e in state.expeditions[player]]
        airlift = state.airlift_active
        seen = -1
        for card in state.hands[player]:
            key = canonical(card)
            if key == seen:
                continue
            seen = key
            text = card_text(card)
            v, high = value_of(card), highs[colour_index(card)]
            if airlift or (v > high if v else high == 0):
                moves.append(Play(text))
            moves.append(Discard(text))
        return tuple(moves)
    if phase == "draw":
        draws: list[Move] = [Undo()] if state.undo is not None else []
        draws.append(Draw("deck"))
        locked, shut = state.locked_pile(), state.shut_pile()
        for colour, pile in zip(state.colours, state.discards):
            if pile and colour != locked and colour != shut:
                draws.append(Draw(colour))
        return tuple(draws)
    if phase == "jobs":
        assert player is not None
        return tuple(PickJob(j) for j in state.job_offers[player])
    if phase == "round-end":
        return (NextRound(),)
    return ()


def is_legal(state: State, move: Move) -> bool:
    """True if ``apply(state, move)`` would succeed."""
    try:
        apply(state, move)
    except IllegalMove:
        return False
    return True


# ---------------------------------------------------------------- apply


def apply(state: State, move: Move) -> State:
    """The state after ``move`` by the player to act.

    Raises ``IllegalMove`` with a player-readable reason; ``state`` itself never changes.
    """
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise IllegalMove(f"{move!r} is not a move")
    return handler(state, move)


def _pick_job(state: State, move: Any) -> State:
    _require(_phase_problem(state, "jobs"))
    player = state.to_act
    assert player is not None
    if move.job not in state.job_offers[player]:
        raise IllegalMove(f"{JOBS[move.job].name} was not offered to you")
    jobs = list(state.jobs)
    jobs[player] = move.job
    entry = LogEntry(player, "pick-job", move.job)
    picked = _replace(state, jobs=(jobs[0], jobs[1]), log=state.log + (entry,))
    if player == 0:
        return _replace(picked, to_act=1)
    return _deal(picked)


def _skill(state: State, skill: str, detail: str | None = None) -> State:
    player = state.to_act
    assert player is not None
    charges = list(state.charges)
    charges[player] -= SKILLS[skill].cost
    return _replace(
        state, charges=(charges[0], charges[1]), skills_used=state.skills_used + (skill,),
        log=state.log + (LogEntry(player, skill, detail),),
    )


def _radio(state: State, move: Any) -> State:
    _require(_skill_problem(state, "radio"))
    return _skill(state, "radio")


def _airlift(state: State, move: Any) -> State:
    _require(_skill_problem(state, "airlift"))
    return _replace(_skill(state, "airlift"), airlift_active=True)


def _sabotage(state: State, move: Any) -> State:
    _require(_skill_problem(state, "sabotage"))
    _check_colour_in_play(state, move.colour)
    player = state.to_act
    assert player is not None
    return _replace(_skill(state, "sabotage", move.colour),
                    shut_piles=_with(state.shut_piles, 1 - player, move.colour))


def _remove(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _with(pair: tuple[T, T], player: int, value: T) -> tuple[T, T]:
    """``pair`` (one entry per player) with ``player``'s entry replaced by ``value``."""
    return (value, pair[1]) if player == 0 else (pair[0], value)


def _with_hand(state: State, player: int, hand: tuple[Card, ...]) -> tuple[
        tuple[Card, ...], tuple[Card, ...]]:
    return _with(state.hands, player, hand)


def _play(state: State, move: Any) -> State:
    _require(_phase_problem(state, "play"))
    player = state.to_act
    assert player is not None
    card = _find_in_hand(state, player, move.card)
    _require(play_problem(state, player, card))
    ci = colour_index(card)
    mine = list(state.expeditions[player])
    mine[ci] = mine[ci] + (card,)
    exps = (tuple(mine), state.expeditions[1]) if player == 0 else (
        state.expeditions[0], tuple(mine))
    return _replace(
        state, phase="draw", hands=_with_hand(state, player, _remove(state.hands[player], card)),
        expeditions=exps, airlift_active=False, undo=state,
        log=state.log + (LogEntry(player, "play", None, card),),
    )


def _discard(state: State, move: Any) -> State:
    _require(_phase_problem(state, "play"))
    player = state.to_act
    assert player is not None
    card = _find_in_hand(state, player, move.card)
    ci = colour_index(card)
    piles = list(state.discards)
    piles[ci] = piles[ci] + (card,)
    charges = list(state.charges)
    if state.options.skills:
        charges[player] += 1
    counts = list(state.discard_counts)
    counts[player] += 1
    return _replace(
        state, phase="draw", hands=_with_hand(state, player, _remove(state.hands[player], card)),
        discards=tuple(piles), charges=(charges[0], charges[1]),
        discard_counts=(counts[0], counts[1]), airlift_active=False,
        discarded_onto=COLOURS[ci], undo=state,
        log=state.log + (LogEntry(player, "discard", None, card),),
    )


def _undo(state: State, move: Any) -> State:
    if state.phase != "draw" or state.undo is None:
        raise IllegalMove("There is nothing to undo")
    return state.undo


def _draw(state: State, move: Any) -> State:
    _require(_phase_problem(state, "draw"))
    _require(draw_problem(state, move.source))
    player = state.to_act
    assert player is not None
    deck, piles = state.deck, state.discards
    if move.source == "deck":
        card, deck = deck[-1], deck[:-1]
    else:
        ci = state.colours.index(move.source)
        card = piles[ci][-1]
        piles = piles[:ci] + (piles[ci][:-1],) + piles[ci + 1:]
    hand = tuple(sorted(state.hands[player] + (card,)))
    log = state.log + (LogEntry(player, "draw", move.source, card),)
    after = _replace(
        state, phase="play", to_act=1 - player, hands=_with_hand(state, player, hand),
        deck=deck, discards=piles, skills_used=(), airlift_active=False, discarded_onto=None,
        shut_piles=_with(state.shut_piles, player, None), undo=None, log=log,
    )
    if not deck:
        return _end_round(after)
    if (
        state.options.mixups and state.round == state.options.rounds and state.mixup is None
        and len(deck) == MIXUP_TRIGGER_DECK
    ):
        mixup = draw_mixup(state.seed, state.round)
        after = _replace(after, mixup=mixup, log=log + (LogEntry(None, "mixup", mixup),))
    return after


def _end_round(state: State) -> State:
    p0, p1 = score_round(state)
    final = state.round == state.options.rounds
    return _replace(
        state, phase="match-end" if final else "round-end", to_act=None,
        round_scores=state.round_scores + ((p0.total, p1.total),),
        shut_piles=(None, None),
    )


def _next_round(state: State, move: Any) -> State:
    _require(_phase_problem(state, "round-end"))
    return _deal(_replace(state, round=state.round + 1))


_HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    PickJob: _pick_job, Radio: _radio, Airlift: _airlift, Sabotage: _sabotage, Play: _play,
    Discard: _discard, Undo: _undo, Draw: _draw, NextRound: _next_round,
}
