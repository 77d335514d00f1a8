"""A save is checked field by field against its type before anything uses it.

Saves that loaded but then failed at render (null jobs, objectives or skills, a log entry
whose detail does not fit its type) are refused with CorruptSave (a ValueError), which the
page sets aside with a notice; and whatever a tampered save holds, it is either refused or
renders.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sessionkit import session_render_doc

from lostcities import CorruptSave, Discard, Options, apply, legal_moves, new_match, state_from_json
from webui.kernel.regions import diff, parse
from webui.match.seats.computer import BotMatch
from webui.match.seats.local import LocalMatch
from webui.match.session import Session

ALL_ON = Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
                 mixups=True)


def _played(seed: int, until: Callable[[Any], bool], options: Options = ALL_ON) -> Any:
    """The first state of a random match (`seed`) that satisfies `until`."""
    rng = random.Random(seed)
    state = new_match(options, seed=seed)
    while not until(state):
        state = apply(state, rng.choice(legal_moves(state)))
    return state


def _midgame_save() -> dict[str, Any]:
    """A pass-and-play save in the draw phase of round 1: jobs picked, objectives dealt,
    skills used, an undo snapshot and a log of every kind of entry but the mixup."""
    state = _played(11, lambda s: s.phase == "play" and len(s.log) > 30 and s.skills_used)
    state = apply(state, next(m for m in legal_moves(state) if isinstance(m, Discard)))
    assert state.phase == "draw" and state.undo is not None
    assert None not in state.jobs and all(state.objectives)
    return json.loads(Session(LocalMatch(state)).save_text())


SAVE = _midgame_save()


def _state(save: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = save["match"]["state"]
    return state


def _log_index(kind: str) -> Callable[[dict[str, Any]], int]:
    def find(save: dict[str, Any]) -> int:
        return next(i for i, e in enumerate(_state(save)["log"]) if e["type"] == kind)
    return find


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    """Set the state's field at `path`."""
    def change(save: dict[str, Any]) -> None:
        parent: Any = _state(save)
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = copy.deepcopy(value)
    return change


def _set_log(kind: str, field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Set `field` of the log's first entry of type `kind`."""
    def change(save: dict[str, Any]) -> None:
        _state(save)["log"][_log_index(kind)(save)][field] = copy.deepcopy(value)
    return change


WRONG_TYPES = {
    "null jobs list": _set(("jobs",), None),
    "a null job while jobs are on": _set(("jobs", 0), None),
    "null objectives list": _set(("objectives",), None),
    "null objectives": _set(("objectives",), [[None, None], [None, None]]),
    "a null objective": _set(("objectives", 0, 1), None),
    "null skills used": _set(("skills_used",), None),
    "a null skill used": _set(("skills_used",), [None]),
    "a null job offer": _set(("job_offers", 1, 0), None),
    "a string for the seed": _set(("seed",), "11"),
    "a string for the round": _set(("round",), "1"),
    "a float for the round": _set(("round",), 1.0),
    "a string for first_player": _set(("first_player",), "0"),
    "a string for a charge": _set(("charges",), ["1", 0]),
    "a string for a discard count": _set(("discard_counts",), [0, "2"]),
    "a seed beyond 64 bits": _set(("seed",), 2**64),
    "a huge charge": _set(("charges",), [10**9, 0]),
    "a negative discard count": _set(("discard_counts",), [-1, 0]),
    "a string for a round score": _set(("round_scores",), [["10", 5]]),
    "a round score out of range": _set(("round_scores",), [[10**6, 5]]),
    "a non-card in a hand": _set(("hands", 0, 0), "X9"),
    "a number in a hand": _set(("hands", 0, 0), 7),
    "a null in a hand": _set(("hands", 0, 0), None),
    "a list for a card": _set(("deck", 0), ["R7"]),
    "a null phase": _set(("phase",), None),
    "a null name": _set(("names", 0), None),
    "a number for a name": _set(("names", 1), 3),
    "a string for airlift": _set(("airlift_active",), "false"),
    "a number for the locked pile": _set(("discarded_onto",), 5),
    "a null shut piles list": _set(("shut_piles",), None),
    "a draw logged from a job": _set_log("draw", "detail", "thrift"),
    "a draw logged from a card": _set_log("draw", "detail", "RH"),
    "a draw logged without its card": _set_log("draw", "card", None),
    "a sabotage of no colour": _set_log("pick-job", "type", "sabotage"),
    "a job pick of a colour": _set_log("pick-job", "detail", "R"),
    "a play logged with a detail": _set_log("play", "detail", "R"),
    "a play logged without a player": _set_log("play", "player", None),
    "a player's entry as a mixup": _set_log("play", "type", "mixup"),
    "a null log entry type": _set_log("play", "type", None),
    "a string for a log player": _set_log("play", "player", "0"),
}


@pytest.mark.parametrize("name", list(WRONG_TYPES))
def test_a_save_with_a_wrong_typed_field_is_refused(name: str) -> None:
    save = copy.deepcopy(SAVE)
    WRONG_TYPES[name](save)
    with pytest.raises(CorruptSave, match="This saved game can't be loaded: "):
        state_from_json(_state(save))
    with pytest.raises(ValueError, match="This saved game can't be loaded: "):
        Session.from_save_text(json.dumps(save))


@pytest.mark.parametrize("selected", ["0", "X9", "", "R1"])
def test_a_save_whose_selected_card_is_not_a_card_is_refused(selected: str) -> None:
    save = copy.deepcopy(SAVE)
    save["ui"]["selected"] = selected
    with pytest.raises(ValueError, match="not a card"):
        Session.from_save_text(json.dumps(save))


def test_the_untouched_save_loads() -> None:
    """The cases above change one field of a save that loads."""
    session = Session.from_save_text(json.dumps(SAVE))
    assert session.view()["phase"] == "draw"


# ---- fuzz: refused, or loads and renders ----------------------------------------------------


def _bases() -> list[dict[str, Any]]:
    """Real saves at every phase: jobs, play, draw (with undo), round end, match end (with a
    mixup), pass-and-play and against the computer."""
    jobs = new_match(ALL_ON, seed=3)
    play = _played(4, lambda s: s.phase == "play" and len(s.log) > 12)
    round_end = _played(5, lambda s: s.phase == "round-end")
    match_end = _played(6, lambda s: s.phase == "match-end" and s.mixup is not None)
    saves = [Session(LocalMatch(s)) for s in (jobs, play, round_end, match_end)]
    bot = BotMatch.new(ALL_ON, 7, 0, ("Ana", "Bot"), "easy")
    saves.append(Session(bot))
    return [SAVE] + [json.loads(s.save_text()) for s in saves]


BASES = _bases()
VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 2, 99, 2**70, 1.5, "", "0", "R", "X", "R7", "RH", "RH2", "P10",
    "deck", "thrift", "surveyor", "radio", "play", "draw", "mixup", "golden-tens", "\x02",
    "\x04k\x03", "<b>x</b>", [], {}, [0], ["R7"], [None], [None, None], [[None]], {"a": 1},
]


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if prefix:
        yield prefix
    children = data.items() if isinstance(data, dict) else (
        enumerate(data) if isinstance(data, list) else ())
    for key, value in children:
        yield from _paths(value, prefix + (key,))


def _render_or_refuse(save: dict[str, Any]) -> None:
    """Load `save`; if it loads, every screen it shows renders and parses into regions."""
    try:
        session = Session.from_save_text(json.dumps(save))
    except ValueError:
        return
    shown = None
    for lang in ("en", "es"):
        _, doc = session_render_doc(session, lang)
        tree = parse(doc)
        diff(shown, tree)
        shown = tree
    if session.ui.handoff:
        session.handle("ready", {})
        parse(session_render_doc(session, "en")[1])


@settings(max_examples=300, deadline=None)
@given(base=st.integers(0, len(BASES) - 1),
       edits=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(VALUES)),
                      min_size=1, max_size=3))
@example(base=0, edits=[(-1, "RH")])  # the first draw's detail: not a colour
@example(base=0, edits=[(-2, "\x02")])  # a name: a region marker before
@example(base=0, edits=[(-3, [None])])  # skills used
@example(base=0, edits=[(-4, "0")])  # the card picked in the hand
def test_a_tampered_save_is_refused_or_renders(base: int, edits: list[tuple[int, Any]]) -> None:
    save = copy.deepcopy(BASES[base])
    for where, value in edits:
        if where < 0:  # a chosen field (the examples)
            path: tuple[Any, ...] = {
                -1: ("match", "state", "log", _log_index("draw")(save), "detail"),
                -2: ("match", "state", "names", 0),
                -3: ("match", "state", "skills_used"),
                -4: ("ui", "selected"),
            }[where]
        else:
            paths = list(_paths(save))
            path = paths[where % len(paths)]
        parent: Any = save
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = copy.deepcopy(value)
    _render_or_refuse(save)
