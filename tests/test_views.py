"""view(state, player): the contract's keys, and only what docs/rules.md §6 lets a player see."""

from lostcities import (
    Discard, Draw, Options, Play, apply, legal_moves, move_to_json, new_match, view,
)
from lostcities.scenario import position

VIEW_KEYS = {
    "format", "player", "names", "options", "colours", "round", "starting_player", "phase",
    "to_act", "hand", "hand_counts", "deck_count", "deck_peek", "discards", "expeditions",
    "scores", "round_scores", "totals", "charges", "skills_used", "airlift_active",
    "locked_pile", "shut_pile", "shut_piles", "jobs", "job_offer", "objectives", "mixup",
    "breakdown", "winner", "log", "legal_moves", "refusals",
}


def test_view_has_exactly_the_contract_keys() -> None:
    s = new_match(Options(), seed=1, names=("Ana", "Ben"))
    v = view(s, 1)
    assert set(v) == VIEW_KEYS and v["format"] == 1 and v["player"] == 1
    assert v["names"] == ["Ana", "Ben"] and v["round"] == 1 and v["starting_player"] == 0
    assert v["discards"]["Y"] == {"top": None, "size": 0}
    assert v["scores"][0] == {"Y": 0, "B": 0, "W": 0, "G": 0, "R": 0, "total": 0}


def test_hand_is_sorted_by_colour_then_handshakes_then_numbers() -> None:
    s = position(hands=(["R7", "YH", "B3", "Y3", "RH", "Y10", "B2", "R2"], []))
    assert view(s, 0)["hand"] == ["YH", "Y3", "Y10", "B2", "B3", "RH", "R2", "R7"]


def test_opponent_hand_and_deck_are_counts_only() -> None:
    s = new_match(Options(), seed=5)
    v0, v1 = view(s, 0), view(s, 1)
    theirs = set(v1["hand"])
    shown0 = str({k: v0[k] for k in VIEW_KEYS - {"hand", "legal_moves"}})
    assert not any(f"'{c}'" in shown0 for c in theirs)
    assert v0["hand_counts"] == [8, 8] and v1["legal_moves"] == []
    assert v0["legal_moves"] and all(m.get("card") in v0["hand"] for m in v0["legal_moves"])


def test_a_deck_draw_shows_the_card_only_to_the_drawer() -> None:
    s = position(hands=(["Y2"], []), deck_top=["B9"], discards={"W": ["W4"]})
    s = apply(apply(s, Play("Y2")), Draw("deck"))
    assert view(s, 0)["log"][-1] == {"player": 0, "type": "draw", "source": "deck", "card": "B9"}
    assert view(s, 1)["log"][-1] == {"player": 0, "type": "draw", "source": "deck", "card": None}
    assert view(s, 1)["log"][0] == {"player": 0, "type": "play", "card": "Y2"}
    s = apply(apply(s, Discard(view(s, 1)["hand"][0])), Draw("W"))
    assert view(s, 0)["log"][-1] == {"player": 1, "type": "draw", "source": "W", "card": "W4"}


def test_legal_moves_in_the_view_match_the_engine() -> None:
    s = new_match(Options(skills=True), seed=3)
    for _ in range(30):
        p = s.to_act
        assert view(s, p)["legal_moves"] == [move_to_json(m) for m in legal_moves(s)]
        assert view(s, 1 - p)["legal_moves"] == []
        s = apply(s, legal_moves(s)[-1])
