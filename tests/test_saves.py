"""Options validation, and saved states: round trips and refusal of corrupt or foreign ones."""

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lostcities import (
    CorruptSave, Discard, Draw, Options, Play, Sabotage, Undo, apply, legal_moves, new_match,
    state_from_json, state_to_json, view,
)
from lostcities.scenario import position

ALL_ON = Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
                 mixups=True)


@pytest.mark.parametrize("kwargs", [
    {"rounds": 0}, {"rounds": 6}, {"rounds": "3"}, {"rounds": True}, {"rounds": 3.0},
    {"jobs": 1}, {"skills": "yes"}, {"mixups": None},
])
def test_bad_options_are_refused(kwargs: dict) -> None:
    with pytest.raises(ValueError, match="rounds|must be true or false"):
        Options(**kwargs)


def test_options_from_json() -> None:
    assert Options.from_json(ALL_ON.to_json()) == ALL_ON
    with pytest.raises(ValueError, match="unknown option"):
        Options.from_json({"rounds": 3, "turbo": True})


@pytest.mark.parametrize("kwargs", [{"seed": "x"}, {"first_player": 2}, {"names": ("a",)}])
def test_bad_new_match_arguments(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        new_match(Options(), **kwargs)


def _midgame() -> object:
    s = new_match(ALL_ON, seed=77)
    for _ in range(40):
        moves = legal_moves(s)
        s = apply(s, moves[len(moves) // 2])
    s = apply(s, next(m for m in legal_moves(s) if isinstance(m, Discard)))
    assert s.phase == "draw" and s.undo is not None
    return s


def test_a_midgame_state_with_every_option_round_trips() -> None:
    s = _midgame()
    data = json.loads(json.dumps(state_to_json(s)))
    back = state_from_json(data)
    assert back == s and view(back, 0) == view(s, 0) and view(back, 1) == view(s, 1)
    assert legal_moves(back) == legal_moves(s)


def _broken(change) -> dict:
    data = json.loads(json.dumps(state_to_json(_midgame())))
    change(data)
    return data


def _set(key, value):
    def change(d):
        d[key] = value
    return change


def _move_card(src, dst):
    def change(d):
        card = src(d).pop()
        dst(d).append(card)
    return change


CORRUPTIONS = {
    "not an object": lambda d: d.clear(),
    "other format": _set("format", "chess"),
    "newer version": _set("version", 3),
    "shut pile of no colour": _set("shut_piles", ["X", None]),
    "shut piles not a pair": _set("shut_piles", [None]),
    "shut for the next turn with no sabotage": lambda d: d["shut_piles"].__setitem__(
        1 - d["to_act"], "Y"),
    "unknown field": _set("extra", 1),
    "missing field": lambda d: d.pop("deck"),
    "duplicated card": lambda d: d["deck"].append(d["deck"][0]),
    "lost card": lambda d: d["deck"].pop(),
    "unknown card": lambda d: d["deck"].__setitem__(0, "X9"),
    "card as number": lambda d: d["deck"].__setitem__(0, 7),
    "wrong pile colour": _move_card(lambda d: d["deck"], lambda d: d["discards"]["Y"]
                                    if d["deck"][-1][0] != "Y" else d["discards"]["B"]),
    "hand too big": _move_card(lambda d: d["deck"], lambda d: d["hands"][0]),
    "bad phase": _set("phase", "dancing"),
    "to_act while round over": _set("phase", "round-end"),
    "to_act out of range": _set("to_act", 2),
    "round out of range": _set("round", 9),
    "charges negative": _set("charges", [-1, 0]),
    "charges as text": _set("charges", ["1", 0]),
    "bool for int": _set("seed", True),
    "mixup outside final round": _set("mixup", "golden-tens"),
    "unknown objective": lambda d: d["objectives"][0].__setitem__(0, "win"),
    "duplicate objectives": lambda d: d["objectives"].__setitem__(1, list(d["objectives"][0])),
    "job not offered": lambda d: d["jobs"].__setitem__(0, d["job_offers"][1][0]),
    "skills twice": _set("skills_used", ["radio", "radio"]),
    "broken undo": lambda d: d["undo"].__setitem__("phase", "draw"),
    "bad options": lambda d: d["options"].__setitem__("rounds", 8),
    "bad log": _set("log", [{"player": 0}]),
    "names not text": _set("names", [1, 2]),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_corrupt_saves_are_refused_with_a_clear_message(name: str) -> None:
    data = _broken(CORRUPTIONS[name])
    with pytest.raises(CorruptSave, match="This saved game can't be loaded: "):
        state_from_json(data)


@pytest.mark.parametrize("doc", [None, [], "state", 3, {"format": "lostcities-state"}])
def test_foreign_documents_are_refused(doc: object) -> None:
    with pytest.raises(CorruptSave):
        state_from_json(doc)


def test_plain_handshake_text_is_accepted_when_loading() -> None:
    s = position(hands=(["RH", "RH"], []))
    data = state_to_json(s)
    plain = copy.deepcopy(data)
    plain["hands"][0] = [c[:2] if c[1:2] == "H" else c for c in plain["hands"][0]]
    assert view(state_from_json(plain), 0)["hand"] == view(s, 0)["hand"]


VALUES = [None, True, 0, 1, -1, 99, 1.5, "", "R7", "RH", "RH2", "P10", "deck", "jobs", "thrift",
          "surveyor", [], {}, [0], ["R7"], [None, None], {"a": 1}]


def _leaves(data, prefix=()):
    yield prefix
    children = data.items() if isinstance(data, dict) else (
        enumerate(data) if isinstance(data, list) else ())
    for key, value in children:
        yield from _leaves(value, prefix + (key,))


@settings(max_examples=60, deadline=None)
@given(game=st.integers(0, 30), edits=st.lists(st.tuples(st.integers(0, 10**6),
                                                       st.sampled_from(VALUES)), min_size=1,
                                             max_size=3))
def test_a_tampered_save_is_refused_or_still_a_playable_state(game: int, edits: list) -> None:
    rng = random.Random(game)
    state = new_match(ALL_ON, seed=game)
    for _ in range(rng.randrange(120)):
        state = apply(state, rng.choice(legal_moves(state)))
    data = json.loads(json.dumps(state_to_json(state)))
    for where, value in edits:
        paths = [p for p in _leaves(data) if p]
        path = paths[where % len(paths)]
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = copy.deepcopy(value)
    try:
        loaded = state_from_json(data)
    except CorruptSave:
        return
    for p in (0, 1):
        json.dumps(view(loaded, p))
    for move in legal_moves(loaded):
        apply(loaded, move)  # every listed move applies


V1_SAVE = Path(__file__).parent / "data" / "state-v1-sabotage.json"
"""A real version-1 save written by the engine before version 2 (one ``sabotage`` field): player
0 shut red against player 1, who has just discarded (phase draw, with an undo snapshot)."""


def test_a_version_1_save_loads_converted_to_one_shut_pile_per_player() -> None:
    data = json.loads(V1_SAVE.read_text())
    assert data["version"] == 1 and data["sabotage"] == [1, "R"]
    s = state_from_json(data)
    assert s.shut_piles == (None, "R") and s.undo is not None and s.undo.shut_piles == (None, "R")
    assert Draw("R") not in legal_moves(s)
    assert state_to_json(s)["version"] == 2 and state_from_json(state_to_json(s)) == s
    s = apply(s, Undo())
    s = apply(apply(s, Sabotage("G")), Discard("B3"))  # both shut piles now coexist
    assert s.shut_piles == ("G", "R") and Draw("R") not in legal_moves(s)
    s = apply(s, Draw("deck"))
    assert s.shut_piles == ("G", None) and Draw("G") not in legal_moves(apply(s, Play("Y3")))


def test_a_version_1_save_with_a_bad_sabotage_is_refused() -> None:
    data = json.loads(V1_SAVE.read_text())
    for bad in ([2, "R"], [1, "X"], "R", [1]):
        with pytest.raises(CorruptSave, match="This saved game can't be loaded: "):
            state_from_json({**data, "sabotage": bad})
    with pytest.raises(CorruptSave, match="sabotage"):
        state_from_json({k: v for k, v in data.items() if k != "sabotage"})
