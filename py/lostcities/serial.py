"""Saving and loading a whole state as JSON, with a format version and thorough validation."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cards import COLOURS, Card, card_text, colours_for, full_deck, parse_card
from .engine import DEFAULT_NAMES
from .errors import CorruptSave
from .jobs import JOB_OFFER_SIZE, JOBS
from .mixups import MIXUPS
from .names import clean_name
from .objectives import OBJECTIVES, OBJECTIVES_PER_PLAYER
from .options import Options
from .protocol import MAX_SEED
from .skills import SKILLS
from .state import PHASES, LogEntry, State

STATE_FORMAT = "lostcities-state"
STATE_VERSION = 2
"""Version 2 keeps one shut pile per player (``shut_piles``); version 1 kept one ``sabotage``
as ``[victim, colour]`` and still loads, converted."""
_LOG_TYPES = ("pick-job", "radio", "airlift", "sabotage", "play", "discard", "draw", "mixup")
_MAX_ROUND_SCORE = 10_000
"""Bound on a round's score either way (real ones stay within a few hundred)."""
_MAX_COUNT = 1_000_000
"""Bound on a player's charges and discards in a round (a card discarded may be drawn back
and discarded again, so a round has no fixed length, but not a million turns)."""
_KEYS = (
    "format", "version", "options", "seed", "names", "first_player", "round", "phase", "to_act",
    "hands", "deck", "discards", "expeditions", "round_scores", "charges", "discard_counts",
    "skills_used", "airlift_active", "discarded_onto", "shut_piles", "job_offers", "jobs",
    "objectives", "mixup", "log", "undo",
)


def save_text(card: Card) -> str:
    """A card in save notation: its text, and for a handshake its copy (``RH1``..``RH3``)."""
    text = card_text(card)
    return f"{text}{card % 12 + 1}" if text[1] == "H" else text


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [save_text(c) for c in cards]


def _log_to_json(e: LogEntry) -> dict[str, Any]:
    return {"player": e.player, "type": e.type, "detail": e.detail,
            "card": None if e.card is None else save_text(e.card)}


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state (hidden cards included) as JSON-ready data, for saves and the host."""
    colours = state.colours
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "options": state.options.to_json(),
        "seed": state.seed,
        "names": list(state.names),
        "first_player": state.first_player,
        "round": state.round,
        "phase": state.phase,
        "to_act": state.to_act,
        "hands": [_texts(h) for h in state.hands],
        "deck": _texts(state.deck),
        "discards": {c: _texts(p) for c, p in zip(colours, state.discards)},
        "expeditions": [{c: _texts(e) for c, e in zip(colours, exps)}
                        for exps in state.expeditions],
        "round_scores": [list(r) for r in state.round_scores],
        "charges": list(state.charges),
        "discard_counts": list(state.discard_counts),
        "skills_used": list(state.skills_used),
        "airlift_active": state.airlift_active,
        "discarded_onto": state.discarded_onto,
        "shut_piles": list(state.shut_piles),
        "job_offers": [list(o) for o in state.job_offers],
        "jobs": list(state.jobs),
        "objectives": [list(o) for o in state.objectives],
        "mixup": state.mixup,
        "log": [_log_to_json(e) for e in state.log],
        "undo": None if state.undo is None else state_to_json(state.undo),
    }


# ---------------------------------------------------------------- loading


def _fail(message: str) -> CorruptSave:
    return CorruptSave(f"This saved game can't be loaded: {message}")


def _int(value: object, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{what} must be a whole number")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _fail(f"{what} is out of range ({value})")
    return value


def _pair(value: object, what: str, lo: int, hi: int) -> tuple[int, int]:
    items = _list(value, what, 2)
    return (_int(items[0], what, lo, hi), _int(items[1], what, lo, hi))


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(f"{what} must be true or false")
    return value


def _list(value: object, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(f"{what} must be a list")
    if length is not None and len(value) != length:
        raise _fail(f"{what} must have {length} entries")
    return value


def _str(value: object, what: str, allowed: Any) -> str:
    """One of the texts in `allowed` (null refused)."""
    if not isinstance(value, str) or value not in allowed:
        raise _fail(f"{what} has an unknown value {value!r}")
    return value


def _opt_str(value: object, what: str, allowed: Any) -> str | None:
    """One of the texts in `allowed`, or None."""
    return None if value is None else _str(value, what, allowed)


def _strs(value: object, what: str, allowed: Any) -> tuple[str, ...]:
    """A list of texts each in `allowed` (no nulls)."""
    return tuple(_str(item, what, allowed) for item in _list(value, what))


def _names(value: object) -> tuple[str, str]:
    """The two names, cleaned as every name is (names.py); one left empty by the cleaning
    (only hidden characters) becomes that player's default name."""
    names = _list(value, "names", 2)
    if not all(isinstance(n, str) for n in names):
        raise _fail("names must be text")
    return (clean_name(names[0]) or DEFAULT_NAMES[0], clean_name(names[1]) or DEFAULT_NAMES[1])


def _parse_save_text(text: object, what: str) -> tuple[Card, range]:
    """A card's canonical id and the handshake copies it may be (``RH2``: copy 1; ``RH``: any)."""
    if isinstance(text, str) and len(text) == 3 and text[1] == "H" and text[2] in "123":
        copy = int(text[2]) - 1
        text = text[:2]
        copies = range(copy, copy + 1)
    else:
        copies = range(3)
    if not isinstance(text, str):
        raise _fail(f"{what}: {text!r} is not a card")
    try:
        card = parse_card(text)
    except ValueError as exc:
        raise _fail(f"{what}: {exc}") from None
    return card, copies if text[1] == "H" else range(1)


class _Cards:
    """Turns card texts into distinct ids, handing out each handshake copy once."""

    def __init__(self, sixth_colour: bool) -> None:
        self.free = Counter(full_deck(sixth_colour))
        self.colours = colours_for(sixth_colour)

    def take(self, texts: object, what: str) -> tuple[Card, ...]:
        out = []
        for text in _list(texts, what):
            card, copies = _parse_save_text(text, what)
            for copy in copies:
                if self.free[card + copy]:
                    self.free[card + copy] -= 1
                    out.append(card + copy)
                    break
            else:
                raise _fail(f"{what}: card {text} is duplicated or not in this match")
        return tuple(out)

    def per_colour(self, data: object, what: str) -> tuple[tuple[Card, ...], ...]:
        if not isinstance(data, dict) or set(data) != set(self.colours):
            raise _fail(f"{what} must have exactly the colours {' '.join(self.colours)}")
        piles = tuple(self.take(data[c], f"{what} {c}") for c in self.colours)
        for colour, pile in zip(self.colours, piles):
            if any(COLOURS[card // 12] != colour for card in pile):
                raise _fail(f"{what} {colour} holds a card of another colour")
        return piles


def _log_details(colours: tuple[str, ...]) -> dict[str, tuple[Any, bool]]:
    """Per log entry type: the details it may carry (None: none) and whether it names a card.
    A mixup is announced to both (no player); every other entry is a player's."""
    return {
        "pick-job": (JOBS, False), "radio": (None, False), "airlift": (None, False),
        "sabotage": (colours, False), "play": (None, True), "discard": (None, True),
        "draw": (("deck", *colours), True), "mixup": (MIXUPS, False),
    }


def _log_from_json(data: object, sixth_colour: bool) -> tuple[LogEntry, ...]:
    cards = frozenset(full_deck(sixth_colour))
    kinds = _log_details(colours_for(sixth_colour))
    out = []
    for item in _list(data, "log"):
        if not isinstance(item, dict) or set(item) != {"player", "type", "detail", "card"}:
            raise _fail("a log entry is malformed")
        kind = _str(item["type"], "a log entry's type", _LOG_TYPES)
        details, has_card = kinds[kind]
        player = item["player"]
        if kind == "mixup":
            if player is not None:
                raise _fail("a mixup's log entry names a player")
        else:
            player = _int(player, "a log entry's player", 0, 1)
        detail = item["detail"]
        if details is None:
            if detail is not None:
                raise _fail(f"a {kind} log entry carries a detail")
        else:
            detail = _str(detail, f"a {kind} log entry's detail", details)
        card = None
        if has_card:
            base, copies = _parse_save_text(item["card"], "a log entry")
            card = base + copies[0]
            if card not in cards:
                raise _fail("a log entry names a card not in this match")
        elif item["card"] is not None:
            raise _fail(f"a {kind} log entry names a card")
        out.append(LogEntry(player, kind, detail, card))
    return tuple(out)


def state_from_json(data: object) -> State:
    """A state from ``state_to_json`` output; ``CorruptSave`` if it is corrupt, foreign or of
    another format version."""
    if not isinstance(data, dict):
        raise _fail("it is not a JSON object")
    if data.get("format") != STATE_FORMAT:
        raise _fail("it is not a Lost Cities saved game")
    if data.get("version") == 1:
        data = _from_version_1(data)
    if data.get("version") != STATE_VERSION:
        raise _fail(f"it has format version {data.get('version')!r}; this app reads versions "
                    f"1 to {STATE_VERSION}")
    missing = [k for k in _KEYS if k not in data]
    extra = sorted(str(k) for k in data if k not in _KEYS)
    if missing or extra:
        raise _fail(f"missing {missing} / unexpected {extra} fields")
    try:
        options = Options.from_json(data["options"])
    except (ValueError, TypeError) as exc:
        raise _fail(f"bad options: {exc}") from None
    state = _build(data, options)
    _check_consistency(state)
    return state


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 document in the version-2 shape: its ``sabotage`` (``[victim, colour]`` or
    null) becomes that victim's entry of ``shut_piles``."""
    if "sabotage" not in data:
        raise _fail("missing ['sabotage'] field")
    shut: list[Any] = [None, None]
    if data["sabotage"] is not None:
        victim, colour = _list(data["sabotage"], "sabotage", 2)
        shut[_int(victim, "sabotage victim", 0, 1)] = colour
    new = {k: v for k, v in data.items() if k != "sabotage"}
    new.update(version=STATE_VERSION, shut_piles=shut)
    return new


def _build(data: dict[str, Any], options: Options) -> State:
    cards = _Cards(options.sixth_colour)
    colours = cards.colours
    names = _names(data["names"])
    phase = _str(data["phase"], "phase", PHASES)
    to_act = data["to_act"]
    if to_act is not None:
        to_act = _int(to_act, "to_act", 0, 1)
    hands = tuple(cards.take(h, f"hand {i}")
                  for i, h in enumerate(_list(data["hands"], "hands", 2)))
    deck = cards.take(data["deck"], "deck")
    discards = cards.per_colour(data["discards"], "discards")
    exps = tuple(cards.per_colour(e, f"expeditions {i}")
                 for i, e in enumerate(_list(data["expeditions"], "expeditions", 2)))
    lost = sorted(card_text(c) for c, n in cards.free.items() for _ in range(n))
    if lost:
        raise _fail(f"cards are missing: {' '.join(lost)}")
    round_scores = tuple(
        _pair(r, "a round score", -_MAX_ROUND_SCORE, _MAX_ROUND_SCORE)
        for r in _list(data["round_scores"], "round_scores"))
    shut = [_opt_str(c, "a shut pile", colours)
            for c in _list(data["shut_piles"], "shut_piles", 2)]
    offers = tuple(_strs(o, "a job offer", JOBS)
                   for o in _list(data["job_offers"], "job_offers", 2))
    jobs = tuple(_opt_str(j, "a job", JOBS) for j in _list(data["jobs"], "jobs", 2))
    objectives = tuple(_strs(x, "an objective", OBJECTIVES)
                       for x in _list(data["objectives"], "objectives", 2))
    skills = _strs(data["skills_used"], "a used skill", SKILLS)
    undo = None
    if data["undo"] is not None:
        try:
            undo = state_from_json(data["undo"])
        except CorruptSave as exc:
            raise _fail(f"its undo snapshot: {str(exc).split(': ', 1)[1]}") from None
    return State(
        options=options,
        seed=_int(data["seed"], "seed", -MAX_SEED, MAX_SEED),
        names=names,
        first_player=_int(data["first_player"], "first_player", 0, 1),
        round=_int(data["round"], "round", 1, options.rounds),
        phase=phase,
        to_act=to_act,
        hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
        deck=deck,
        discards=discards,
        expeditions=(exps[0], exps[1]),
        round_scores=round_scores,
        charges=_pair(data["charges"], "charges", 0, _MAX_COUNT),
        discard_counts=_pair(data["discard_counts"], "discard_counts", 0, _MAX_COUNT),
        skills_used=skills,
        airlift_active=_bool(data["airlift_active"], "airlift_active"),
        discarded_onto=_opt_str(data["discarded_onto"], "discarded_onto", colours),
        shut_piles=(shut[0], shut[1]),
        job_offers=(offers[0], offers[1]),
        jobs=(jobs[0], jobs[1]),
        objectives=(objectives[0], objectives[1]),
        mixup=_opt_str(data["mixup"], "mixup", MIXUPS),
        log=_log_from_json(data["log"], options.sixth_colour),
        undo=undo,
    )


def _check_consistency(s: State) -> None:
    """Phase, turn and option invariants that every reachable state satisfies."""
    o = s.options
    acting = s.phase in ("jobs", "play", "draw")
    if acting != (s.to_act is not None):
        raise _fail(f"phase {s.phase} does not fit to_act {s.to_act}")
    if s.phase == "jobs":
        if not o.jobs or s.round != 1 or any(s.hands) or None not in s.jobs:
            raise _fail("the jobs phase does not fit the rest of the game")
        if s.jobs[1] is not None or (s.jobs[0] is None) != (s.to_act == 0):
            raise _fail("the job picks do not fit the player to act")
    elif o.jobs and None in s.jobs:
        raise _fail("a player has no job")
    if not o.jobs and (any(s.jobs) or any(s.job_offers)):
        raise _fail("jobs are present but the option is off")
    if o.jobs:
        for p in (0, 1):
            if len(s.job_offers[p]) != JOB_OFFER_SIZE or (
                    s.jobs[p] is not None and s.jobs[p] not in s.job_offers[p]):
                raise _fail("the job offers are inconsistent")
        if len(set(s.job_offers[0] + s.job_offers[1])) != 2 * JOB_OFFER_SIZE:
            raise _fail("the job offers repeat a job")
    scored = len(s.round_scores)
    if s.phase in ("round-end", "match-end"):
        if scored != s.round or s.deck:
            raise _fail("a finished round must be scored and its deck empty")
        if (s.phase == "match-end") != (s.round == o.rounds):
            raise _fail("the match ends after its last round only")
    elif scored != s.round - 1:
        raise _fail("the round scores do not fit the round number")
    if s.phase in ("play", "draw"):
        if not s.deck:
            raise _fail("the deck is empty in the middle of a round")
        for p in (0, 1):
            want = s.hand_size(p) - (1 if s.phase == "draw" and p == s.to_act else 0)
            if len(s.hands[p]) != want:
                raise _fail(f"player {p} holds {len(s.hands[p])} cards, not {want}")
    if s.phase != "draw" and (s.undo is not None or s.discarded_onto is not None):
        raise _fail("an undo or a locked pile outside the draw phase")
    u = s.undo
    if u is not None and (
        u.phase != "play" or u.undo is not None or u.to_act != s.to_act or u.deck != s.deck
        or u.round != s.round or u.options != s.options or u.seed != s.seed
    ):
        raise _fail("the undo snapshot does not fit the game")
    if s.phase != "play" and s.airlift_active:
        raise _fail("airlift is active outside the play phase")
    shut = s.shut_piles
    if not o.skills and (any(s.charges) or s.skills_used or s.airlift_active or any(shut)):
        raise _fail("skills are in use but the option is off")
    if any(shut) and s.phase not in ("play", "draw"):
        raise _fail("a pile is shut outside the turns of a round")
    if s.to_act is not None and shut[1 - s.to_act] and "sabotage" not in s.skills_used:
        raise _fail("a pile is shut for the next turn but nobody sabotaged it this turn")
    if len(set(s.skills_used)) != len(s.skills_used):
        raise _fail("a skill is used twice in one turn")
    if o.objectives and s.phase != "jobs":
        for p in (0, 1):
            if len(s.objectives[p]) != OBJECTIVES_PER_PLAYER:
                raise _fail("each player must hold two objectives")
        if len(set(s.objectives[0] + s.objectives[1])) != 2 * OBJECTIVES_PER_PLAYER:
            raise _fail("objectives are duplicated")
    elif any(s.objectives):
        raise _fail("objectives are present but the option is off")
    if s.mixup is not None and (not o.mixups or s.round != o.rounds):
        raise _fail("a mixup outside the final round of a match with mixups")
