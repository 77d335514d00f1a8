"""The core API: a match starts, moves apply, illegal moves are refused, JSON round-trips."""

import json

import pytest

from lostcities import (
    CorruptSave, Draw, IllegalMove, Options, Play, apply, is_legal, legal_moves, move_from_json,
    move_to_json, move_type, new_match, state_from_json, state_to_json, view,
)


def test_new_match_deals_eight_each_and_44_remain() -> None:
    s = new_match(Options(), seed=1)
    assert s.phase == "play" and s.to_act == 0
    v = view(s, 0)
    assert v["hand_counts"] == [8, 8] and v["deck_count"] == 44 and len(v["hand"]) == 8


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    assert view(new_match(seed=5), 0)["hand"] == view(new_match(seed=5), 0)["hand"]
    assert view(new_match(seed=5), 0)["hand"] != view(new_match(seed=6), 0)["hand"]


def test_illegal_move_leaves_state_unchanged() -> None:
    s = new_match(seed=3)
    before = state_to_json(s)
    with pytest.raises(IllegalMove):
        apply(s, Draw("deck"))
    assert state_to_json(s) == before


def test_move_json_round_trip() -> None:
    for m in legal_moves(new_match(seed=2)):
        assert move_from_json(json.loads(json.dumps(move_to_json(m)))) == m
    assert move_to_json(Play("R7")) == {"type": "play", "card": "R7"}


def test_is_legal_and_move_type_agree_with_legal_moves() -> None:
    s = new_match(seed=2)
    legal = legal_moves(s)
    assert all(is_legal(s, m) for m in legal)
    assert not is_legal(s, Draw("deck"))
    assert {move_type(m) for m in legal} == {"play", "discard"}


@pytest.mark.parametrize("bad", [
    [], {"type": "fly"}, {"type": "play"}, {"type": "play", "card": "R1"},
    {"type": "play", "card": "R7", "x": 1}, {"type": "draw", "source": "Q"},
])
def test_bad_move_json_is_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        move_from_json(bad)


def test_state_json_round_trip_and_version() -> None:
    s = new_match(seed=9)
    s = apply(s, legal_moves(s)[-1])
    data = json.loads(json.dumps(state_to_json(s)))
    assert state_from_json(data) == s
    with pytest.raises(CorruptSave, match="version"):
        state_from_json({**data, "version": 99})
    with pytest.raises(CorruptSave):
        state_from_json({"hello": "world"})
