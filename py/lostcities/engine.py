"""The rules: starting a match, the legal moves, why a move is refused, and applying one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .cards import (
    COLOUR_NAMES, COLOURS, Card, canonical, card_name, card_text, colour_index, colour_of,
    full_deck, is_handshake, parse_card,
)
from .dealing import deal_objectives, deal_round, draw_mixup, job_offers
from .errors import IllegalMove, Refusal
from .jobs import JOBS
from .mixups import MIXUP_TRIGGER_DECK
from .moves import (
    Airlift, Discard, Draw, Move, NextRound, PickJob, Play, Radio, Sabotage, Undo, move_type,
)
from .options import Options
from .rng import below, rng_for
from .roundscore import score_round
from .rulebook import follows, highest
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


def _refuse(code: str, message: str, **data: Any) -> Refusal:
    return Refusal(code, data, message)


def _colour_problem(state: State, colour: str) -> Refusal | None:
    if colour in state.colours:
        return None
    return _refuse("no-such-colour", f"There is no {_colour_name(colour)} in this match",
                   colour=colour)


def _in_hand(state: State, player: int, text: str) -> Card | None:
    """The card ``text`` from the player's hand, or ``None`` if they don't hold it."""
    target = parse_card(text)
    for card in state.hands[player]:
        if canonical(card) == target:
            return card
    return None


def _hand_problem(state: State, player: int, text: str) -> Refusal | None:
    target = parse_card(text)
    problem = _colour_problem(state, colour_of(target))
    if problem is None and _in_hand(state, player, text) is None:
        problem = _refuse("card-not-in-hand", f"You don't hold the {card_name(target)}",
                          card=card_text(target))
    return problem


def play_problem(state: State, player: int, card: Card) -> Refusal | None:
    """Why ``card`` can't go onto the player's expedition now, or ``None`` if it can."""
    top = highest(state.expeditions[player][colour_index(card)])
    if state.airlift_active or follows(card, top):
        return None
    colour = colour_of(card)
    name = _colour_name(colour)
    if is_handshake(card):
        return _refuse("handshake-after-number",
                       f"A {name} handshake can't follow {name} numbers", colour=colour)
    return _refuse("below-top", f"{card_name(card)} can't follow {name} {top}",
                   card=card_text(card), colour=colour, top=top)


def draw_problem(state: State, source: str) -> Refusal | None:
    """Why the player to act can't draw from ``source`` (whatever the phase), or ``None``."""
    if source == "deck":
        return None if state.deck else _refuse("deck-empty", "The deck is empty")
    problem = _colour_problem(state, source)
    if problem is not None:
        return problem
    name = _colour_name(source)
    if state.locked_pile() == source:
        return _refuse("pile-locked",
                       f"You can't draw from the {name} pile: you just discarded onto it",
                       colour=source)
    if state.shut_pile() == source:
        return _refuse("pile-shut", f"You can't draw from the {name} pile: it was sabotaged",
                       colour=source)
    if not state.discards[state.colours.index(source)]:
        return _refuse("pile-empty", f"The {name} pile is empty", colour=source)
    return None


def _skill_problem(state: State, skill: str) -> Refusal | None:
    if not state.options.skills:
        return _refuse("skills-off", "Skills are off in this match")
    if state.phase == "draw":
        return _refuse("skill-too-late", "Skills are used before your play or discard",
                       skill=skill)
    if state.phase != "play":
        return _phase_problem(state, "play")
    name = SKILLS[skill].name
    if skill in state.skills_used:
        return _refuse("skill-used", f"You already used {name} this turn", skill=skill)
    player = state.to_act
    assert player is not None
    have, cost = state.charges[player], SKILLS[skill].cost
    if have < cost:
        return _refuse("no-charge",
                       f"{name} needs {cost} charge{'s' if cost > 1 else ''}; you have {have}",
                       skill=skill, cost=cost, charges=have)
    return None


_PHASE_MESSAGES = {
    "jobs": "First pick your job",
    "play": "First play or discard a card",
    "draw": "Now draw a card (or undo your play)",
    "round-end": "The round is over: start the next round",
    "match-end": "The match is over",
}


def _phase_problem(state: State, wanted: str) -> Refusal | None:
    if state.phase == wanted:
        return None
    return _refuse("wrong-phase", _PHASE_MESSAGES[state.phase], phase=state.phase)


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
        highs = [highest(e) for e in state.expeditions[player]]
        airlift = state.airlift_active
        seen = -1
        for card in state.hands[player]:
            key = canonical(card)
            if key == seen:
                continue
            seen = key
            text = card_text(card)
            if airlift or follows(card, highs[colour_index(card)]):
                moves.append(Play(text))
            moves.append(Discard(text))
        return tuple(moves)
    if phase == "draw":
        draws: list[Move] = [Undo()] if state.undo is not None else []
        draws.extend(Draw(source) for source in ("deck", *state.colours)
                     if draw_problem(state, source) is None)
        return tuple(draws)
    if phase == "jobs":
        assert player is not None
        return tuple(PickJob(j) for j in state.job_offers[player])
    if phase == "round-end":
        return (NextRound(),)
    return ()


def is_legal(state: State, move: Move) -> bool:
    """True if ``apply(state, move)`` would succeed."""
    return why_illegal(state, move) is None


# ---------------------------------------------------------------- why not


def _check_pick_job(state: State, move: Any) -> Refusal | None:
    problem = _phase_problem(state, "jobs")
    if problem is None and move.job not in state.job_offers[state.to_act or 0]:
        problem = _refuse("job-not-offered", f"{JOBS[move.job].name} was not offered to you",
                          job=move.job)
    return problem


def _check_skill(state: State, move: Any) -> Refusal | None:
    problem = _skill_problem(state, move_type(move))
    if problem is None and isinstance(move, Sabotage):
        problem = _colour_problem(state, move.colour)
    return problem


def _check_discard(state: State, move: Any) -> Refusal | None:
    return _phase_problem(state, "play") or _hand_problem(state, state.to_act or 0, move.card)


def _check_play(state: State, move: Any) -> Refusal | None:
    problem = _check_discard(state, move)
    if problem is None:
        player = state.to_act
        card = _in_hand(state, player or 0, move.card)
        assert player is not None and card is not None
        problem = play_problem(state, player, card)
    return problem


def _check_undo(state: State, move: Any) -> Refusal | None:
    if state.phase != "draw" or state.undo is None:
        return _refuse("nothing-to-undo", "There is nothing to undo")
    return None


def _check_draw(state: State, move: Any) -> Refusal | None:
    return _phase_problem(state, "draw") or draw_problem(state, move.source)


def _check_next_round(state: State, move: Any) -> Refusal | None:
    return _phase_problem(state, "round-end")


_CHECKS: dict[type[Any], Callable[[State, Any], Refusal | None]] = {
    PickJob: _check_pick_job, Radio: _check_skill, Airlift: _check_skill,
    Sabotage: _check_skill, Play: _check_play, Discard: _check_discard, Undo: _check_undo,
    Draw: _check_draw, NextRound: _check_next_round,
}


def why_illegal(state: State, move: object, player: int | None = None) -> Refusal | None:
    """Why ``apply(state, move)`` would raise ``IllegalMove`` (its refusal), or ``None`` if the
    move is legal. Nothing is applied.

    With ``player`` given, a move by anyone but the player to act is refused with
    ``not-your-turn`` first (at round end anyone may act).
    """
    check = _CHECKS.get(type(move))
    if check is None:
        return _refuse("not-a-move", f"{move!r} is not a move")
    if player is not None and state.to_act is not None and player != state.to_act:
        return _refuse("not-your-turn", f"It is {state.names[state.to_act]}'s turn",
                       to_act=state.to_act)
    return check(state, move)


def refusals(state: State, player: int) -> dict[str, dict[str, dict[str, Any]]]:
    """Why each unavailable play and draw is refused, for ``player`` when they are to act.

    ``play`` maps each card of the hand that can't be played now (phase ``play``) to its
    refusal's JSON; ``draw`` maps each source (``deck`` or a colour) that can't be drawn from at
    this turn's draw step, as far as it is known now (phases ``play`` and ``draw``). Refusals
    for being in the wrong phase are left out: the phase says those.
    """
    plays: dict[str, dict[str, Any]] = {}
    draws: dict[str, dict[str, Any]] = {}
    if state.to_act == player and state.phase in ("play", "draw"):
        if state.phase == "play":
            for card in state.hands[player]:
                problem = play_problem(state, player, card)
                if problem is not None:
                    plays[card_text(card)] = problem.to_json()
        for source in ("deck",) + state.colours:
            problem = draw_problem(state, source)
            if problem is not None:
                draws[source] = problem.to_json()
    return {"play": plays, "draw": draws}


# ---------------------------------------------------------------- apply


def apply(state: State, move: Move) -> State:
    """The state after ``move`` by the player to act.

    Raises ``IllegalMove`` (with the reason ``why_illegal`` gives); ``state`` never changes.
    """
    problem = why_illegal(state, move)
    if problem is not None:
        raise IllegalMove(problem)
    return _HANDLERS[type(move)](state, move)


def _pick_job(state: State, move: Any) -> State:
    player = state.to_act
    assert player is not None
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
    return _skill(state, "radio")


def _airlift(state: State, move: Any) -> State:
    return _replace(_skill(state, "airlift"), airlift_active=True)


def _sabotage(state: State, move: Any) -> State:
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
    player = state.to_act
    card = _in_hand(state, player or 0, move.card)
    assert player is not None and card is not None
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
    player = state.to_act
    card = _in_hand(state, player or 0, move.card)
    assert player is not None and card is not None
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
    assert state.undo is not None
    return state.undo


def _draw(state: State, move: Any) -> State:
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
    return _deal(_replace(state, round=state.round + 1))


_HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    PickJob: _pick_job, Radio: _radio, Airlift: _airlift, Sabotage: _sabotage, Play: _play,
    Discard: _discard, Undo: _undo, Draw: _draw, NextRound: _next_round,
}
