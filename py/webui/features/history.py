"""The record of a finished match, how a match is recorded, and the history document.

A `MatchRecord` says who played whom (mode, computer level, names, which seat is this device's
player), with what options and jobs, each round's scores and both players' expeditions, the
winner, and, when this device knows the seed, what a replay needs (`Replay`: seed, first
player and every move, in a compact text form: `move_token`); an online match, dealt by the
fair protocol without a seed, keeps instead the draws its page learnt at each round's audit
(`Replay.dealt`: the ``deals`` and ``offers`` of its JSON). Options, names and jobs are
those of the record; `webui.features.replay` replays it with `lostcities.new_match` and `apply`.

An online match the player ended because the other page fell silent is recorded as abandoned
by the opponent (``abandoned``: the opponent's seat): the rounds played to their end (fewer
than the match's), jobs not revealed yet as null, no replay, and the player who stayed as its
winner (result ``abandoned``, counted as a win). A record without ``abandoned`` is a finished
match, as every record written before this outcome existed.

A `MatchLog` collects a match as it is played, from the views the page renders: at each
round end the view's log holds every move of the round (an undone play has left it), the
expeditions and the round scores. `MatchLog.record` makes the record at match end.

The history document kept on the device and exported to a file is
``{"app": "lostcities-history", "version": 1, "records": [...]}``. `load` validates every
record; a bad one is set aside (its JSON text is returned to be kept elsewhere), never fatal.
A record's ``id`` is a hash of what it says about the match (date and replay left out), so
the same match recorded twice, or imported twice, is kept once.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, NamedTuple

from lostcities import (
    JOBS, MIXUPS, OBJECTIVES, Deal, Dealt, Options, ScoringRules, move_from_json, move_to_json,
    player_rules, winner_of,
)
from lostcities.cards import colours_for, full_deck
from lostcities.names import MAX_NAME_CHARS, clean_name
from lostcities.objectives import OBJECTIVE_POINTS
from lostcities.options import MAX_ROUNDS
from lostcities.protocol import ProtocolError, decode_json
from lostcities.scoring import ExpeditionScore, parse_expedition, score_values

APP: Final = "lostcities-history"
VERSION: Final = 1
MODES: Final = ("pass-and-play", "computer", "online")
LEVELS: Final = ("easy", "medium", "hard")
MAX_BYTES: Final = 16_000_000
"""Largest history text read (a 3-round record is about 2 KB)."""
MAX_DEPTH: Final = 12
MAX_MOVES: Final = 6_000
"""Most moves a record replays (random play takes about 170 a round; 5 rounds at most)."""
MAX_SCORE: Final = 10_000
"""Bound on a round score's size (real ones stay within a few hundred)."""
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z")
_ID = re.compile(r"[0-9a-f]{32}")

Expeditions = tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]
"""Per player, the started expeditions as (colour, card texts), in colour order."""


def _fail(message: str) -> ValueError:
    return ValueError(f"bad match record: {message}")


def _int(value: object, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"{what} must be a whole number from {low} to {high}")
    return value


def _keys(data: object, required: set[str], what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(f"{what} must be an object")
    if set(data) != required:
        raise _fail(f"{what} must have exactly the keys {', '.join(sorted(required))}")
    return data


# ---------------------------------------------------------------- moves as tokens

_TOKEN_OF = {"radio": "r", "airlift": "a", "next-round": "n", "undo": "u"}
_TYPE_OF = {v: k for k, v in _TOKEN_OF.items()}
_PREFIX = {"play": ("p", "card"), "discard": ("d", "card"), "draw": ("k", "source"),
           "sabotage": ("s", "colour"), "pick-job": ("j", "job")}
_PREFIXED = {p: (kind, key) for kind, (p, key) in _PREFIX.items()}


def move_token(move: Mapping[str, Any]) -> str:
    """The compact text of a move JSON: ``pR7`` play, ``dR7`` discard, ``k`` draw from the
    deck, ``kR`` from a pile, ``sR`` sabotage, ``jsurveyor`` pick a job, ``r``, ``a``, ``n``,
    ``u``. ValueError if it is not a valid move."""
    canonical = move_to_json(move_from_json(dict(move)))
    kind = canonical["type"]
    if kind in _TOKEN_OF:
        return _TOKEN_OF[kind]
    prefix, key = _PREFIX[kind]
    value = str(canonical[key])
    return prefix if kind == "draw" and value == "deck" else prefix + value


def token_move(token: str) -> dict[str, Any]:
    """The move JSON of a token (`move_token`'s inverse); ValueError if it is not one."""
    if token in _TYPE_OF:
        return {"type": _TYPE_OF[token]}
    if token == "k":
        return {"type": "draw", "source": "deck"}
    if not token or token[0] not in _PREFIXED:
        raise _fail(f"{token!r} is not a move")
    kind, key = _PREFIXED[token[0]]
    move = {"type": kind, key: token[1:]}
    move_from_json(move)
    return move


# ---------------------------------------------------------------- the record


@dataclass(frozen=True)
class RoundResult:
    """One scored round: both players' scores, the mixup that held (if any), and both
    players' expeditions (None when the round's details were not seen)."""

    scores: tuple[int, int]
    mixup: str | None
    expeditions: Expeditions | None

    def to_json(self) -> dict[str, Any]:
        """The round as JSON (expeditions: per player, colour -> card texts)."""
        exps = None if self.expeditions is None else [
            {c: list(cards) for c, cards in side} for side in self.expeditions]
        return {"scores": list(self.scores), "mixup": self.mixup, "expeditions": exps}


def _dealt_json(dealt: Dealt) -> dict[str, Any]:
    """A match's draws as JSON (cards as the engine's numbers)."""
    return {"deals": [{"hands": [list(h) for h in d.hands], "deck": list(d.deck),
                       "objectives": [list(o) for o in d.objectives]} for d in dealt.deals],
            "offers": None if dealt.offers is None else [list(o) for o in dealt.offers]}


@dataclass(frozen=True)
class Replay:
    """What replaying a match needs besides its options and names: the seed, who started
    round 1 and every move (tokens); for an online match, the draws instead of the seed
    (`dealt`: the seed is then 0)."""

    seed: int
    first_player: int
    moves: tuple[str, ...]
    dealt: Dealt | None = None

    def move_list(self) -> list[dict[str, Any]]:
        """The moves as move JSON, in order."""
        return [token_move(t) for t in self.moves]

    def to_json(self) -> dict[str, Any]:
        """The replay data as JSON (moves: one text of tokens)."""
        doc = {"seed": self.seed, "first_player": self.first_player,
               "moves": " ".join(self.moves)}
        return doc if self.dealt is None else {**doc, **_dealt_json(self.dealt)}


@dataclass(frozen=True)
class MatchRecord:
    """A finished match as this device saw it (see the module's docstring)."""

    id: str
    date: str
    mode: str
    level: str | None
    me: int
    names: tuple[str, str]
    options: Options
    jobs: tuple[str | None, str | None]
    rounds: tuple[RoundResult, ...]
    winner: int | str
    replay: Replay | None
    abandoned: int | None = None
    """The seat that abandoned the match (the opponent's), or None: the match was finished."""

    @property
    def totals(self) -> tuple[int, int]:
        """Both players' match totals."""
        return (sum(r.scores[0] for r in self.rounds), sum(r.scores[1] for r in self.rounds))

    @property
    def opponent(self) -> str:
        """Who this device's player played: ``easy``, ``medium``, ``hard``, ``human``
        (pass-and-play) or ``online``."""
        if self.mode == "computer":
            return self.level or "easy"
        return "human" if self.mode == "pass-and-play" else "online"

    @property
    def result(self) -> str:
        """``won``, ``lost``, ``drawn``, or ``abandoned`` (by the opponent), from this device's
        player's side."""
        if self.abandoned is not None:
            return "abandoned"
        if self.winner == "draw":
            return "drawn"
        return "won" if self.winner == self.me else "lost"

    def rules_for(self, player: int, mixup: str | None) -> ScoringRules:
        """The player's scoring rules in a round with `mixup` (as the engine builds them)."""
        return player_rules(self.jobs[player], mixup)

    def expedition_scores(self, index: int) -> list[list[tuple[str, tuple[str, ...],
                                                             ExpeditionScore]]]:
        """Round `index`'s started expeditions with their breakdowns, per player ([] when
        the round's details are unknown)."""
        rnd = self.rounds[index]
        if rnd.expeditions is None:
            return [[], []]
        return [[(c, cards, score_values(parse_expedition(_bare(cards)),
                                         self.rules_for(p, rnd.mixup)))
                 for c, cards in rnd.expeditions[p]] for p in (0, 1)]

    def identity(self) -> dict[str, Any]:
        """What the id hashes: the record's JSON without id, date and replay (``abandoned``
        only when set, so a finished match's id is what it always was)."""
        identity = {"mode": self.mode, "level": self.level, "me": self.me,
                    "names": list(self.names), "options": self.options.to_json(),
                    "jobs": list(self.jobs), "rounds": [r.to_json() for r in self.rounds],
                    "winner": self.winner}
        if self.abandoned is not None:
            identity["abandoned"] = self.abandoned
        return identity

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (what `record_from_json` reads)."""
        return {"id": self.id, "date": self.date, **self.identity(),
                "replay": None if self.replay is None else self.replay.to_json()}


def _bare(cards: Iterable[str]) -> list[str]:
    """Card texts without their colour (``R7`` -> ``7``, ``RH`` -> ``H``)."""
    return [c[1:] for c in cards]


def record_id(identity: Mapping[str, Any]) -> str:
    """The id of a record: 32 hex digits of the SHA-256 of its identity's canonical JSON."""
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


def _check_date(date: object) -> str:
    if not isinstance(date, str) or not _DATE.fullmatch(date):
        raise _fail("date must be a UTC time like 2026-12-01T10:20:30Z")
    try:
        datetime.fromisoformat(date.replace("Z", "+00:00"))
    except ValueError:
        raise _fail(f"{date} is not a real date") from None
    return date


def _check_names(names: object) -> tuple[str, str]:
    if not isinstance(names, list) or len(names) != 2:
        raise _fail("names must be two names")
    for name in names:
        if (not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS
                or clean_name(name) != name):
            raise _fail(f"{name!r} is not a player's name")
    return (names[0], names[1])


def _check_jobs(jobs: object, options: Options,
                abandoned: bool = False) -> tuple[str | None, str | None]:
    if not isinstance(jobs, list) or len(jobs) != 2:
        raise _fail("jobs must be two entries")
    for job in jobs:
        if job is not None and (job not in JOBS or not options.jobs):
            raise _fail("each player has a job exactly when jobs are on")
        if job is None and options.jobs and not abandoned:
            raise _fail("each player has a job exactly when jobs are on")
    return (jobs[0], jobs[1])


def _check_side(side: object, colours: Sequence[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(side, dict) or not set(side) <= set(colours):
        raise _fail("an expedition's colour is not in play")
    out = []
    for colour in colours:
        cards = side.get(colour)
        if cards is None:
            continue
        if not isinstance(cards, list) or not cards or not all(
                isinstance(c, str) and c[:1] == colour for c in cards):
            raise _fail(f"the {colour} expedition must list cards of its colour")
        try:
            parse_expedition(_bare(cards))
        except ValueError as exc:
            raise _fail(f"the {colour} expedition: {exc}") from None
        out.append((colour, tuple(cards)))
    return tuple(out)


def _check_round(data: object, index: int, options: Options) -> RoundResult:
    rnd = _keys(data, {"scores", "mixup", "expeditions"}, f"round {index + 1}")
    scores = rnd["scores"]
    if not isinstance(scores, list) or len(scores) != 2:
        raise _fail("a round's scores must be two numbers")
    a, b = (_int(s, -MAX_SCORE, MAX_SCORE, "a round score") for s in scores)
    mixup = rnd["mixup"]
    if mixup is not None and (mixup not in MIXUPS or not options.mixups
                              or index != options.rounds - 1):
        raise _fail("a mixup holds only in the last round, with mixups on")
    exps = rnd["expeditions"]
    if exps is not None:
        if not isinstance(exps, list) or len(exps) != 2:
            raise _fail("a round's expeditions must be two players'")
        colours = colours_for(options.sixth_colour)
        sides = (_check_side(exps[0], colours), _check_side(exps[1], colours))
        for colour in colours:
            both = [c for side in sides for col, cards in side if col == colour for c in cards]
            try:
                parse_expedition(_bare(both))
            except ValueError:
                raise _fail(f"the {colour} cards of the two players overlap") from None
        return RoundResult((a, b), mixup, sides)
    return RoundResult((a, b), mixup, None)


def _check_scores(record: MatchRecord) -> None:
    """Each round score is its expeditions' scores plus whole objectives (when known)."""
    allowed = {0, OBJECTIVE_POINTS, 2 * OBJECTIVE_POINTS} if record.options.objectives else {0}
    for index, rnd in enumerate(record.rounds):
        if rnd.expeditions is None:
            continue
        for player, exps in enumerate(record.expedition_scores(index)):
            if rnd.scores[player] - sum(s.score for _, _, s in exps) not in allowed:
                raise _fail(f"round {index + 1}'s score does not add up")


def _texts(value: object, allowed: Container[str], most: int, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > most or not all(
            isinstance(v, str) and v in allowed for v in value):
        raise _fail(f"{what} must be a list of known names")
    return tuple(value)


def _card_list(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > len(full_deck(True)):
        raise _fail(f"{what} must be a list of cards")
    return tuple(_int(c, 0, len(full_deck(True)) - 1, "a card") for c in value)


def _pair_of(value: object, what: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise _fail(f"{what} must be two lists")
    return value


def _check_dealt(rep: dict[str, Any]) -> Dealt:
    deals = rep["deals"]
    if not isinstance(deals, list) or not 1 <= len(deals) <= MAX_ROUNDS:
        raise _fail("the deals must be a list of rounds")
    checked = []
    for item in deals:
        deal = _keys(item, {"hands", "deck", "objectives"}, "a deal")
        a, b = (_card_list(h, "a hand") for h in _pair_of(deal["hands"], "the hands"))
        o, p = (_texts(o, OBJECTIVES, 2, "objectives")
                for o in _pair_of(deal["objectives"], "the objectives"))
        checked.append(Deal((a, b), _card_list(deal["deck"], "the deck"), (o, p)))
    offers = None
    if rep["offers"] is not None:
        x, y = (_texts(o, JOBS, 2, "job offers") for o in _pair_of(rep["offers"], "offers"))
        offers = (x, y)
    return Dealt(tuple(checked), offers)


def _check_replay(data: object) -> Replay | None:
    if data is None:
        return None
    dealt = isinstance(data, dict) and "deals" in data
    rep = _keys(data, {"seed", "first_player", "moves", *(("deals", "offers") if dealt else ())},
                "replay")
    seed = _int(rep["seed"], 0, 2**53, "the seed")
    first = _int(rep["first_player"], 0, 1, "the first player")
    moves = rep["moves"]
    if not isinstance(moves, str):
        raise _fail("the moves must be a text of tokens")
    tokens = tuple(moves.split(" ")) if moves else ()
    if len(tokens) > MAX_MOVES:
        raise _fail("too many moves")
    for token in tokens:
        token_move(token)
    return Replay(seed, first, tokens, _check_dealt(rep) if dealt else None)


_RECORD_KEYS = {"id", "date", "mode", "level", "me", "names", "options", "jobs", "rounds",
                "winner", "replay"}


def _check_abandoned(doc: dict[str, Any]) -> int | None:
    """The seat that abandoned the match, if the record says one did: only the opponent of
    this device's player, only online."""
    if "abandoned" not in doc:
        return None
    seat = _int(doc["abandoned"], 0, 1, "the seat that abandoned")
    if doc["mode"] != "online" or seat == doc["me"]:
        raise _fail("only an online opponent's abandoning is recorded")
    return seat


def record_from_json(data: object) -> MatchRecord:
    """A record from its JSON; ValueError saying what is wrong (nothing half-read)."""
    keys = set(data) if isinstance(data, dict) else set()
    doc = _keys(data, _RECORD_KEYS | ({"abandoned"} & keys), "a record")
    if doc["mode"] not in MODES:
        raise _fail(f"mode must be one of {', '.join(MODES)}")
    level = doc["level"]
    if (level is None) == (doc["mode"] == "computer") or (level is not None
                                                         and level not in LEVELS):
        raise _fail("a computer level is given exactly for a match against the computer")
    try:
        options = Options.from_json(doc["options"])
    except (ValueError, TypeError) as exc:
        raise _fail(f"options: {exc}") from None
    me = _int(doc["me"], 0, 1, "me")
    abandoned = _check_abandoned(doc)
    rounds = doc["rounds"]
    if abandoned is None and (not isinstance(rounds, list) or len(rounds) != options.rounds):
        raise _fail("a finished match has all its rounds")
    if abandoned is not None and (not isinstance(rounds, list)
                                  or len(rounds) >= options.rounds):
        raise _fail("an abandoned match has fewer rounds than the match")
    record = MatchRecord(
        id=doc["id"] if isinstance(doc["id"], str) else "", date=_check_date(doc["date"]),
        mode=doc["mode"], level=level, me=me,
        names=_check_names(doc["names"]), options=options,
        jobs=_check_jobs(doc["jobs"], options, abandoned is not None),
        rounds=tuple(_check_round(r, i, options) for i, r in enumerate(rounds)),
        winner=doc["winner"], replay=_check_replay(doc["replay"]), abandoned=abandoned,
    )
    winner = winner_of(record.totals) if abandoned is None else 1 - abandoned
    if not any(record.winner == w and type(record.winner) is type(w) for w in (0, 1, "draw")
               ) or record.winner != winner:
        raise _fail("the winner is not the one with the higher total, or who stayed")
    if abandoned is not None and record.replay is not None:
        raise _fail("an abandoned match has no replay")
    _check_scores(record)
    if not _ID.fullmatch(record.id) or record.id != record_id(record.identity()):
        raise _fail("its id does not match its content")
    return record


def make_record(*, date: str, mode: str, level: str | None, me: int,
                names: Sequence[str], options: Options, jobs: Sequence[str | None],
                rounds: Sequence[RoundResult], replay: Replay | None,
                abandoned: int | None = None) -> MatchRecord:
    """A validated record with its id and winner worked out (`abandoned`: the seat that
    abandoned it); ValueError if inconsistent."""
    draft = MatchRecord("", date, mode, level, me, (names[0], names[1]), options,
                        (jobs[0], jobs[1]), tuple(rounds), "draw", replay, abandoned)
    winner = winner_of(draft.totals) if abandoned is None else 1 - abandoned
    data = {**draft.to_json(), "winner": winner}
    data["id"] = record_id({k: data[k] for k in draft.identity()})
    return record_from_json(data)


# ---------------------------------------------------------------- recording a match


def _log_moves(log: object) -> tuple[str, ...]:
    """The round's moves, as tokens, from a view's log (mixup news left out)."""
    if not isinstance(log, list):
        raise _fail("the view has no log")
    tokens = []
    for event in log:
        if not isinstance(event, dict):
            raise _fail("a log event is not an object")
        kind = event.get("type")
        if kind == "mixup":
            continue
        key = _PREFIX[kind][1] if kind in _PREFIX else None
        move = {"type": kind} if key is None else {"type": kind, key: event.get(key)}
        try:
            tokens.append(move_token(move))
        except ValueError:
            raise _fail(f"a log event is not a move: {event!r}") from None
    return tuple(tokens)


@dataclass(frozen=True)
class LoggedRound:
    """A round as the page saw it end: its moves (None if its log was incomplete) and
    its result."""

    moves: tuple[str, ...] | None
    result: RoundResult


class MatchLog:
    """The rounds of the current match, collected from the views at each round end.

    Call `observe(view)` with every view the page shows (cheap when nothing is new); keep
    `to_json()` with the match's save so that a reload loses nothing."""

    def __init__(self, rounds: Sequence[LoggedRound] = ()) -> None:
        self.rounds: list[LoggedRound] = list(rounds)

    def observe(self, view: Mapping[str, Any]) -> bool:
        """Take the round just scored from a round-end or match-end view, once; True if it
        was new. ValueError on a view that does not hold up (nothing changes)."""
        if view.get("phase") not in ("round-end", "match-end"):
            return False
        number = view.get("round")
        if not isinstance(number, int) or number <= len(self.rounds):
            return False
        options = Options.from_json(view.get("options"))
        index = number - 1
        scores = (view.get("round_scores") or [])[index:index + 1]
        if not scores:
            raise _fail("the view has no score for its round")
        exps = view.get("expeditions")
        if not isinstance(exps, list) or len(exps) != 2:
            raise _fail("the view has no expeditions")
        raw = {"scores": scores[0], "mixup": view.get("mixup"),
               "expeditions": [{c: cards for c, cards in side.items() if cards}
                               for side in exps]}
        result = _check_round(raw, index, options)
        moves = _log_moves(view.get("log"))
        while len(self.rounds) < index:  # rounds the page never saw end
            old = view["round_scores"][len(self.rounds)]
            self.rounds.append(LoggedRound(None, _check_round(
                {"scores": old, "mixup": None, "expeditions": None}, len(self.rounds),
                options)))
        self.rounds.append(LoggedRound(moves, result))
        return True

    def record(self, view: Mapping[str, Any], *, date: str, mode: str, level: str | None,
               me: int, seed: int | None, dealt: Dealt | None = None) -> MatchRecord:
        """The record of the match whose match-end `view` is given (observed here too);
        replayable when every round's moves were seen and the `seed` is known, or the
        draws (`dealt`, every round's: an online match)."""
        if view.get("phase") != "match-end":
            raise _fail("a match is recorded at its end")
        self.observe(view)
        options = Options.from_json(view.get("options"))
        replay = None
        if dealt is not None and (len(dealt.deals) != options.rounds
                                  or (options.jobs and dealt.offers is None)):
            dealt = None  # not every draw was learnt here: no replay
        if (seed is not None or dealt is not None) and all(
                r.moves is not None for r in self.rounds):
            moves: list[str] = []
            for i, rnd in enumerate(self.rounds):
                moves += (["n"] if i else []) + list(rnd.moves or ())
            start = _int(view.get("starting_player"), 0, 1, "the starting player")
            first = start if options.rounds % 2 == 1 else 1 - start
            replay = Replay(0 if seed is None else seed, first, tuple(moves), dealt)
        names = [clean_name(str(n)) or "?" for n in (view.get("names") or ["", ""])]
        jobs = view.get("jobs") if options.jobs else [None, None]
        return make_record(date=date, mode=mode, level=level, me=me, names=names,
                           options=options, jobs=list(jobs or [None, None]),
                           rounds=[r.result for r in self.rounds], replay=replay)

    def record_abandoned(self, view: Mapping[str, Any], *, date: str, me: int) -> MatchRecord:
        """The record of an online match the opponent abandoned, from the last `view` shown
        before the player ended it (its rounds scored so far observed too): no replay, the
        jobs only as far as both are revealed."""
        if view.get("phase") == "match-end":
            raise _fail("a finished match is recorded as finished")
        self.observe(view)
        options = Options.from_json(view.get("options"))
        names = [clean_name(str(n)) or "?" for n in (view.get("names") or ["", ""])]
        jobs = view.get("jobs") if options.jobs else None
        shown = list(jobs) if isinstance(jobs, list) and None not in jobs else [None, None]
        return make_record(date=date, mode="online", level=None, me=me, names=names,
                           options=options, jobs=shown,
                           rounds=[r.result for r in self.rounds], replay=None,
                           abandoned=1 - me)

    def to_json(self) -> list[dict[str, Any]]:
        """The log as JSON, for the match's save."""
        return [{"moves": None if r.moves is None else " ".join(r.moves),
                 "result": r.result.to_json()} for r in self.rounds]

    @classmethod
    def from_json(cls, data: object, options: Options) -> MatchLog:
        """A log from `to_json` for a match with `options`; ValueError if malformed."""
        if not isinstance(data, list) or len(data) > options.rounds:
            raise _fail("the match log must be a list of rounds")
        rounds = []
        for i, item in enumerate(data):
            entry = _keys(item, {"moves", "result"}, "a logged round")
            moves = entry["moves"]
            if moves is not None and not isinstance(moves, str):
                raise _fail("a logged round's moves must be text")
            tokens = None if moves is None else tuple(moves.split(" ")) if moves else ()
            for token in tokens or ():
                token_move(token)
            rounds.append(LoggedRound(tokens, _check_round(entry["result"], i, options)))
        return cls(rounds)


# ---------------------------------------------------------------- the history document


@dataclass(frozen=True)
class Notice:
    """What `load` or `import_text` has to tell the player: ``code`` is ``records-set-aside``
    (``count`` bad records) or ``history-set-aside`` (the whole document)."""

    code: str
    count: int


class Loaded(NamedTuple):
    """What `load` found: the good records (oldest first), the set-aside texts, a notice."""

    records: list[MatchRecord]
    set_aside: list[str]
    notice: Notice | None


def merge(records: Iterable[MatchRecord], more: Iterable[MatchRecord]) -> list[MatchRecord]:
    """Both lists as one, each record once (by id, the first kept), oldest first."""
    seen: dict[str, MatchRecord] = {}
    for record in (*records, *more):
        seen.setdefault(record.id, record)
    return sorted(seen.values(), key=lambda r: (r.date, r.id))


def dump(records: Iterable[MatchRecord]) -> str:
    """The history document's text (what is stored and exported)."""
    return json.dumps({"app": APP, "version": VERSION,
                       "records": [r.to_json() for r in merge(records, ())]},
                      separators=(",", ":"), ensure_ascii=False)


def _read(text: str) -> list[Any]:
    """The raw records of a history text; ValueError saying why the whole text is unusable."""
    try:
        doc = decode_json(text, MAX_BYTES, MAX_DEPTH)
    except ProtocolError as exc:
        raise ValueError(f"not a readable history: {exc.message}") from None
    if not isinstance(doc, dict) or doc.get("app") != APP:
        raise ValueError("not a Lost Cities history")
    if doc.get("version") != VERSION:
        raise ValueError(f"history version {doc.get('version')!r} is not supported")
    if set(doc) != {"app", "version", "records"} or not isinstance(doc["records"], list):
        raise ValueError("the history's records are missing")
    return doc["records"]


def _sort_out(raw: list[Any]) -> tuple[list[MatchRecord], list[str]]:
    good, bad = [], []
    for item in raw:
        try:
            good.append(record_from_json(item))
        except ValueError:
            bad.append(json.dumps(item, ensure_ascii=False))
    return merge(good, ()), bad


def load(text: str | None) -> Loaded:
    """The records of a stored history text (None or empty: no history yet). Bad records are
    set aside; an unreadable document is set aside whole. Never raises."""
    if not text:
        return Loaded([], [], None)
    try:
        raw = _read(text)
    except ValueError:
        return Loaded([], [text], Notice("history-set-aside", 1))
    good, bad = _sort_out(raw)
    return Loaded(good, bad, Notice("records-set-aside", len(bad)) if bad else None)


class Imported(NamedTuple):
    """The outcome of `import_text`: the merged records, how many were new, the set-aside
    texts of the file's bad records, and a notice when there were any."""

    records: list[MatchRecord]
    added: int
    set_aside: list[str]
    notice: Notice | None


def import_text(records: Sequence[MatchRecord], text: str) -> Imported:
    """Merge an exported file into `records` (by id: nothing twice). ValueError, with nothing
    changed, if the file is not a history of this app."""
    good, bad = _sort_out(_read(text))
    merged = merge(records, good)
    return Imported(merged, len(merged) - len(merge(records, ())), bad,
                    Notice("records-set-aside", len(bad)) if bad else None)


def export_name(date: str) -> str:
    """The exported file's name for a UTC date: ``lost-cities-history-2026-12-01.json``."""
    return "lost-cities-history-" + _check_date(date)[:10] + ".json"
