"""``check_view(obj)``: is this exactly the shape of a ``view(state, player)`` (architecture.md)?

A view that a program receives (the command-line protocol's host sends each player its own) is
a stranger's data. Before anything reads it, it is checked against the schema that
`lostcities.view` produces: the exact keys, the type and range of every value, card codes and
colours of the match, ids from the registries (jobs, skills, objectives, mixups), names
(bounded text without control characters), list lengths, and the counts that must add up
(every card of the match is in a hand, the deck, a pile or an expedition; the totals are the
sums of the round scores). `ViewError` says where and what.
Pure: no I/O, no imports beyond the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from typing import Any, Final

from .cards import CARD_TEXTS, CARDS_PER_COLOUR, HANDSHAKES_PER_COLOUR, colours_for
from .errors import REFUSAL_CODES
from .jobs import JOB_OFFER_SIZE, JOBS
from .mixups import MIXUPS
from .moves import move_from_json
from .names import MAX_NAME_CHARS, clean_name
from .objectives import OBJECTIVES, OBJECTIVES_PER_PLAYER
from .options import MAX_ROUNDS, MIN_ROUNDS, Options
from .skills import RADIO_PEEK, SKILLS
from .state import BASE_HAND_SIZE, PHASES
from .views import VIEW_FORMAT

MAX_HAND: Final = max([BASE_HAND_SIZE, *(job.hand_size for job in JOBS.values())])
"""The most cards a hand holds (the Quartermaster's 9)."""
MAX_POINTS: Final = 10_000
"""A bound on any score, total or breakdown figure (real ones stay within a few hundred)."""
MAX_CHARGES: Final = 1_000
MAX_LOG: Final = 10_000
"""A bound on the log of a round (a round where both players draw from the piles has no end;
the host's message size limit keeps a real one far below this)."""
MAX_LEGAL_MOVES: Final = 64
"""More than any position offers (two moves per card in hand, every draw and skill)."""
SCORED: Final = ("round-end", "match-end")

_VIEW_KEYS: Final = frozenset((
    "format", "player", "names", "options", "colours", "round", "starting_player", "phase",
    "to_act", "hand", "hand_counts", "deck_count", "deck_peek", "discards", "expeditions",
    "scores", "round_scores", "totals", "charges", "skills_used", "airlift_active",
    "locked_pile", "shut_pile", "shut_piles", "jobs", "job_offer", "objectives", "mixup",
    "breakdown", "winner", "log", "legal_moves", "refusals",
))
_OPTION_KEYS: Final = frozenset(Options().to_json())
_EXPEDITION_KEYS: Final = frozenset(("cards", "sum", "cost", "multiplier", "bonus", "score"))
_PILE_KEYS: Final = frozenset(("top", "size"))
_BREAKDOWN_KEYS: Final = frozenset(("expeditions", "objectives", "total"))
_OBJECTIVE_KEYS: Final = frozenset(("id", "achieved", "points"))
_REFUSAL_KEYS: Final = frozenset(("code", "data"))
_REFUSAL_DATA: Final = {code: frozenset(keys) for code, keys in REFUSAL_CODES.items()}
_REFUSAL_LISTS: Final = frozenset(("play", "draw"))
_LOG_FIELDS: Final[dict[str, frozenset[str]]] = {
    kind: frozenset(("player", "type", *fields)) for kind, fields in (
        ("pick-job", ("job",)), ("radio", ()), ("airlift", ()), ("sabotage", ("colour",)),
        ("play", ("card",)), ("discard", ("card",)), ("draw", ("source", "card")),
        ("mixup", ("mixup",)),
    )
}
_PHASES: Final = frozenset(PHASES)


class ViewError(ValueError):
    """A view that is not what `lostcities.view` makes; the message names the field."""


def _show(value: object) -> str:
    """A short description of a refused value (never long, whatever the value)."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 30 else repr(value[:27]) + "..."
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return "a very large number"
    if isinstance(value, (bool, int, float)) or value is None:
        return repr(value)
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object of {len(value)} fields"
    return f"a {type(value).__name__}"


def _fail(path: str, problem: str, value: object) -> ViewError:
    return ViewError(f"{path} {problem}, not {_show(value)}")


def _int(value: object, path: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:  # bool is not a number here
        raise _fail(path, f"must be a whole number from {low} to {high}", value)
    return value


def _one_of(value: object, path: str, allowed: Collection[str], what: str) -> str:
    if type(value) is not str or value not in allowed:
        raise _fail(path, f"must be {what}", value)
    return value


def _or_none(check: Callable[[object, str], Any]) -> Callable[[object, str], Any]:
    return lambda value, path: None if value is None else check(value, path)


def _seat(value: object, path: str) -> int:
    return _int(value, path, 0, 1)


def _list(value: object, path: str, low: int, high: int) -> list[Any]:
    if type(value) is not list:
        raise _fail(path, "must be a list", value)
    if not low <= len(value) <= high:
        size = f"{low} items" if low == high else f"{low} to {high} items"
        raise ViewError(f"{path} must hold {size}, not {len(value)}")
    return value


def _dict(value: object, path: str, keys: frozenset[str]) -> dict[str, Any]:
    if type(value) is not dict:
        raise _fail(path, "must be an object", value)
    if value.keys() != keys:
        extra = sorted(str(k)[:20] for k in value.keys() - keys)
        missing = sorted(keys - value.keys())
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unexpected {', '.join(extra)}"] if extra else [])
        raise ViewError(f"{path} has the wrong fields: {'; '.join(parts)}")
    return value


def _name(value: object, path: str) -> str:
    if type(value) is not str or not value.strip() or len(value) > MAX_NAME_CHARS:
        raise _fail(path, f"must be a name of 1 to {MAX_NAME_CHARS} characters", value)
    if clean_name(value) != value:
        raise _fail(path, "must be a clean name (no control or invisible characters, no "
                          "spaces at the ends or twice)", value)
    return value


_MATCH_SETS: Final = {
    six: (colours_for(six), frozenset(colours_for(six)),
          frozenset(t for t in CARD_TEXTS if t[0] in colours_for(six)))
    for six in (False, True)
}
"""Per sixth-colour option: the colours in play, as a tuple and a set, and their card codes."""


class _Checker:
    """One view's check: the colours of its match, known once the options are read."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        options = _dict(view["options"], "options", _OPTION_KEYS)
        try:
            self.options = Options.from_json(options)
        except ValueError as exc:
            raise ViewError(f"options: {exc}") from None
        self.colours, self.colour_set, self.card_set = _MATCH_SETS[self.options.sixth_colour]

    def colour(self, value: object, path: str) -> str:
        what = f"a colour of this match ({' '.join(self.colours)})"
        return _one_of(value, path, self.colour_set, what)

    def card(self, value: object, path: str, colour: str | None = None) -> str:
        if type(value) is not str or value not in self.card_set:
            raise _fail(path, "must be a card of this match (like R7 or RH)", value)
        if colour is not None and value[0] != colour:
            raise _fail(path, f"must be a card of colour {colour}", value)
        return value

    def cards(self, value: object, path: str, high: int, colour: str | None = None) -> list[str]:
        items = _list(value, path, 0, high)
        known = self.card_set
        if colour is None:
            if all([type(x) is str and x in known for x in items]):
                return items
        elif all([type(x) is str and x in known and x[0] == colour for x in items]):
            return items
        for i, card in enumerate(items):
            self.card(card, f"{path}[{i}]", colour)
        return items  # not reached: one of the cards is refused above

    def per_colour(self, value: object, path: str) -> dict[str, Any]:
        return _dict(value, path, self.colour_set)


def _points(value: object, path: str, low: int = -MAX_POINTS) -> int:
    return _int(value, path, low, MAX_POINTS)


def _check_cards(c: _Checker, v: dict[str, Any]) -> None:
    """Hand, deck, piles and expeditions: codes, colours, sizes, and that all cards add up."""
    deck_size = CARDS_PER_COLOUR * len(c.colours)
    me = v["player"]
    hand = c.cards(v["hand"], "hand", MAX_HAND)
    counts = _list(v["hand_counts"], "hand_counts", 2, 2)
    for p in (0, 1):
        _int(counts[p], f"hand_counts[{p}]", 0, MAX_HAND)
    if counts[me] != len(hand):
        raise ViewError(f"hand_counts[{me}] must be the size of the hand ({len(hand)}), "
                        f"not {counts[me]}")
    deck = _int(v["deck_count"], "deck_count", 0, deck_size)
    peek = c.cards(v["deck_peek"], "deck_peek", min(RADIO_PEEK, deck))
    piles = c.per_colour(v["discards"], "discards")
    shown: list[str] = [*hand, *peek]
    placed = sum(counts) + deck
    for colour in c.colours:
        path = f"discards.{colour}"
        pile = _dict(piles[colour], path, _PILE_KEYS)
        size = _int(pile["size"], f"{path}.size", 0, CARDS_PER_COLOUR)
        if (pile["top"] is None) != (size == 0):
            raise ViewError(f"{path}: a pile has a top card exactly when it is not empty")
        if pile["top"] is not None:
            shown.append(c.card(pile["top"], f"{path}.top", colour))
        placed += size
    expeditions = _list(v["expeditions"], "expeditions", 2, 2)
    for p in (0, 1):
        mine = c.per_colour(expeditions[p], f"expeditions[{p}]")
        for colour in c.colours:
            cards = c.cards(mine[colour], f"expeditions[{p}].{colour}", CARDS_PER_COLOUR, colour)
            shown.extend(cards)
            placed += len(cards)
    if placed != deck_size:
        raise ViewError(f"the hands, deck, piles and expeditions hold {placed} cards, "
                        f"not the {deck_size} of the match")
    numbers = [card for card in shown if card[1] != "H"]
    if len(set(numbers)) != len(numbers):
        twice = next(card for card in numbers if numbers.count(card) > 1)
        raise ViewError(f"card {twice} is shown more than once (the match has one)")
    handshakes = Counter(card for card in shown if card[1] == "H")
    for card, seen in handshakes.items():
        if seen > HANDSHAKES_PER_COLOUR:
            raise ViewError(f"card {card} is shown {seen} times "
                            f"(the match has {HANDSHAKES_PER_COLOUR})")


def _check_scores(c: _Checker, v: dict[str, Any]) -> None:
    """Running scores, round scores, totals, breakdown and winner."""
    scores = _list(v["scores"], "scores", 2, 2)
    for p in (0, 1):
        entry = _dict(scores[p], f"scores[{p}]", c.colour_set | {"total"})
        parts = [_points(entry[colour], f"scores[{p}].{colour}") for colour in c.colours]
        if _points(entry["total"], f"scores[{p}].total") != sum(parts):
            raise ViewError(f"scores[{p}].total must be the sum of the expeditions' scores")
    scored = v["phase"] in SCORED
    played = v["round"] if scored else v["round"] - 1
    rounds = _list(v["round_scores"], "round_scores", played, played)
    for i, pair in enumerate(rounds):
        for p, value in enumerate(_list(pair, f"round_scores[{i}]", 2, 2)):
            _points(value, f"round_scores[{i}][{p}]")
    totals = _list(v["totals"], "totals", 2, 2)
    for p in (0, 1):
        _int(totals[p], f"totals[{p}]", -MAX_POINTS * MAX_ROUNDS, MAX_POINTS * MAX_ROUNDS)
        if totals[p] != sum(pair[p] for pair in rounds):
            raise ViewError(f"totals[{p}] must be the sum of the round scores")
    breakdown = v["breakdown"]
    if breakdown is None:
        if scored:
            raise ViewError("breakdown must be there once the round is scored")
    elif not scored:
        raise _fail("breakdown", "must be null before the round is scored", breakdown)
    else:
        for p, data in enumerate(_list(breakdown, "breakdown", 2, 2)):
            _check_breakdown(c, data, f"breakdown[{p}]")
    winner = v["winner"]
    if v["phase"] != "match-end":
        if winner is not None:
            raise _fail("winner", "must be null before the match ends", winner)
    else:
        wanted: object = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else "draw"
        if winner != wanted or type(winner) is not type(wanted):
            raise _fail("winner", f"must be {wanted!r} for these totals", winner)


def _check_breakdown(c: _Checker, value: object, path: str) -> None:
    data = _dict(value, path, _BREAKDOWN_KEYS)
    exps = c.per_colour(data["expeditions"], f"{path}.expeditions")
    for colour in c.colours:
        where = f"{path}.expeditions.{colour}"
        row = _dict(exps[colour], where, _EXPEDITION_KEYS)
        _int(row["cards"], f"{where}.cards", 0, CARDS_PER_COLOUR)
        for key in ("sum", "cost", "multiplier", "bonus"):
            _points(row[key], f"{where}.{key}", 0)
        _points(row["score"], f"{where}.score")
    objectives = _list(data["objectives"], f"{path}.objectives", 0, OBJECTIVES_PER_PLAYER)
    for i, item in enumerate(objectives):
        where = f"{path}.objectives[{i}]"
        entry = _dict(item, where, _OBJECTIVE_KEYS)
        _one_of(entry["id"], f"{where}.id", OBJECTIVES, "an objective id")
        if not isinstance(entry["achieved"], bool):
            raise _fail(f"{where}.achieved", "must be true or false", entry["achieved"])
        _points(entry["points"], f"{where}.points")
    _points(data["total"], f"{path}.total")


def _ids(value: object, path: str, registry: Collection[str], high: int, what: str) -> None:
    items = _list(value, path, 0, high)
    for i, item in enumerate(items):
        _one_of(item, f"{path}[{i}]", registry, what)
    if len(set(items)) != len(items):
        raise ViewError(f"{path} must not repeat an id")


def _check_options_state(c: _Checker, v: dict[str, Any]) -> None:
    """Charges, skills, piles shut or locked, jobs, objectives and the mixup."""
    for p, value in enumerate(_list(v["charges"], "charges", 2, 2)):
        _int(value, f"charges[{p}]", 0, MAX_CHARGES)
    _ids(v["skills_used"], "skills_used", SKILLS, len(SKILLS), "a skill id")
    if not isinstance(v["airlift_active"], bool):
        raise _fail("airlift_active", "must be true or false", v["airlift_active"])
    colour_or_none = _or_none(c.colour)
    colour_or_none(v["locked_pile"], "locked_pile")
    colour_or_none(v["shut_pile"], "shut_pile")
    for p, value in enumerate(_list(v["shut_piles"], "shut_piles", 2, 2)):
        colour_or_none(value, f"shut_piles[{p}]")
    for p, job in enumerate(_list(v["jobs"], "jobs", 2, 2)):
        if job is not None:
            _one_of(job, f"jobs[{p}]", JOBS, "a job id or null")
    offer = v["job_offer"]
    _ids(offer, "job_offer", JOBS, JOB_OFFER_SIZE if v["phase"] == "jobs" else 0, "a job id")
    for p, mine in enumerate(_list(v["objectives"], "objectives", 2, 2)):
        if mine is not None:
            _ids(mine, f"objectives[{p}]", OBJECTIVES, OBJECTIVES_PER_PLAYER, "an objective id")
    if v["objectives"][v["player"]] is None:
        raise ViewError("objectives: the player's own objectives must be shown")
    if v["mixup"] is not None:
        _one_of(v["mixup"], "mixup", MIXUPS, "a mixup id or null")


def _log_entry_ok(c: _Checker, item: object) -> bool:
    """Whether a log entry is well formed (the common case, checked without building paths)."""
    if type(item) is not dict:
        return False
    kind = item.get("type")
    if type(kind) is not str or item.keys() != _LOG_FIELDS.get(kind):
        return False
    player = item["player"]
    if kind == "mixup":
        return player is None and type(item["mixup"]) is str and item["mixup"] in MIXUPS
    if type(player) is not int or player not in (0, 1):
        return False
    card = item.get("card")
    if card is not None and (type(card) is not str or card not in c.card_set):
        return False
    if kind == "pick-job":
        job = item["job"]
        return job is None or (type(job) is str and job in JOBS)
    if kind == "sabotage" or (kind == "draw" and item["source"] != "deck"):
        colour = item["colour" if kind == "sabotage" else "source"]
        return type(colour) is str and colour in c.colour_set
    return True


def _check_log(c: _Checker, value: object) -> None:
    for i, item in enumerate(_list(value, "log", 0, MAX_LOG)):
        if _log_entry_ok(c, item):
            continue
        path = f"log[{i}]"
        if not isinstance(item, dict):
            raise _fail(path, "must be an object", item)
        kind = _one_of(item.get("type"), f"{path}.type", _LOG_FIELDS, "a log event type")
        entry = _dict(item, path, _LOG_FIELDS[kind])
        if kind == "mixup":
            if entry["player"] is not None:
                raise _fail(f"{path}.player", "must be null for a mixup", entry["player"])
            _one_of(entry["mixup"], f"{path}.mixup", MIXUPS, "a mixup id")
        else:
            _seat(entry["player"], f"{path}.player")
        if kind == "pick-job" and entry["job"] is not None:
            _one_of(entry["job"], f"{path}.job", JOBS, "a job id or null")
        elif kind == "sabotage":
            c.colour(entry["colour"], f"{path}.colour")
        elif kind == "draw" and entry["source"] != "deck":
            c.colour(entry["source"], f"{path}.source")
        if entry.get("card") is not None:
            c.card(entry["card"], f"{path}.card")
        raise ViewError(f"{path} is not a well-formed log entry")


def _check_legal_moves(c: _Checker, value: object) -> None:
    for i, item in enumerate(_list(value, "legal_moves", 0, MAX_LEGAL_MOVES)):
        path = f"legal_moves[{i}]"
        try:
            move_from_json(item)
        except ValueError as exc:
            raise ViewError(f"{path}: {exc}") from None
        if "card" in item:
            c.card(item["card"], f"{path}.card")
        for key in ("colour", "source"):
            if key in item and item[key] != "deck":
                c.colour(item[key], f"{path}.{key}")


def _check_refusals(c: _Checker, v: dict[str, Any]) -> None:
    """Why each unavailable play (a card of the hand) and draw (deck or colour) is refused."""
    value = _dict(v["refusals"], "refusals", _REFUSAL_LISTS)
    data_checks: dict[str, Callable[[object, str], Any]] = {
        "to_act": _seat, "phase": lambda x, p: _one_of(x, p, _PHASES, "a phase"),
        "colour": c.colour, "card": c.card, "top": lambda x, p: _int(x, p, 2, 10),
        "skill": lambda x, p: _one_of(x, p, SKILLS, "a skill id"),
        "cost": lambda x, p: _int(x, p, 0, MAX_CHARGES),
        "charges": lambda x, p: _int(x, p, 0, MAX_CHARGES),
        "job": lambda x, p: _one_of(x, p, JOBS, "a job id"),
    }
    allowed = {"play": set(v["hand"]), "draw": {"deck", *c.colours}}
    for kind in ("play", "draw"):
        items = value[kind]
        if not isinstance(items, dict):
            raise _fail(f"refusals.{kind}", "must be an object", items)
        for key, refusal in items.items():
            if key not in allowed[kind]:
                what = "a card of the hand" if kind == "play" else "deck or a colour"
                raise _fail(f"refusals.{kind}", f"may only name {what}", key)
            path = f"refusals.{kind}.{key}"
            entry = _dict(refusal, path, _REFUSAL_KEYS)
            code = _one_of(entry["code"], f"{path}.code", REFUSAL_CODES, "a refusal code")
            data = _dict(entry["data"], f"{path}.data", _REFUSAL_DATA[code])
            for name, item in data.items():
                data_checks[name](item, f"{path}.data.{name}")


def check_view(obj: object) -> None:
    """Raise `ViewError` unless `obj` has exactly the shape of a ``lostcities.view(...)``.

    Checks every field: keys (none missing, none extra), types, ranges, card codes and
    colours of the match, registry ids, names, list lengths, and the sums that must agree.
    """
    v = _dict(obj, "view", _VIEW_KEYS)
    if v["format"] != VIEW_FORMAT or type(v["format"]) is not int:
        raise _fail("format", f"must be {VIEW_FORMAT}", v["format"])
    _seat(v["player"], "player")
    for p, name in enumerate(_list(v["names"], "names", 2, 2)):
        _name(name, f"names[{p}]")
    c = _Checker(v)
    if v["colours"] != list(c.colours):
        raise _fail("colours", f"must be {list(c.colours)} for these options", v["colours"])
    _int(v["round"], "round", MIN_ROUNDS, c.options.rounds)
    _seat(v["starting_player"], "starting_player")
    phase = _one_of(v["phase"], "phase", _PHASES, "a phase")
    if phase in SCORED:
        if v["to_act"] is not None:
            raise _fail("to_act", "must be null once the round is scored", v["to_act"])
    else:
        _seat(v["to_act"], "to_act")
    _check_cards(c, v)
    _check_scores(c, v)
    _check_options_state(c, v)
    _check_log(c, v["log"])
    _check_legal_moves(c, v["legal_moves"])
    _check_refusals(c, v)


def check_match_end(view: object, winner: object, totals: object) -> None:
    """Raise `ViewError` unless a ``match-end`` message's view, winner and totals agree."""
    check_view(view)
    assert isinstance(view, dict)
    if view["phase"] != "match-end":
        raise _fail("phase", "must be match-end in a match-end message", view["phase"])
    if winner != view["winner"] or type(winner) is not type(view["winner"]):
        raise _fail("winner", f"must be the view's ({view['winner']!r})", winner)
    if totals != view["totals"]:
        raise _fail("totals", f"must be the view's ({view['totals']!r})", totals)
