"""docs/rules.md §2 and §4 as scenario tests from constructed positions."""

import pytest

from lostcities import (
    Discard, Draw, IllegalMove, NextRound, Options, Play, apply, legal_moves, new_match, view,
)
from lostcities.scenario import position


def hand(state, player=0):
    return view(state, player)["hand"]


def test_deal_eight_each_rest_face_down() -> None:
    s = new_match(Options(), seed=11)
    v = view(s, 1)
    assert v["hand_counts"] == [8, 8] and v["deck_count"] == 44 and v["phase"] == "play"
    assert v["colours"] == ["Y", "B", "W", "G", "R"]


def test_numbers_must_strictly_ascend_but_need_not_be_consecutive() -> None:
    s = position(hands=(["R4", "R9"], []), expeditions=({"R": ["R2", "R7"]}, {}))
    with pytest.raises(IllegalMove, match="red 4 can't follow red 7"):
        apply(s, Play("R4"))
    assert Play("R4") not in legal_moves(s) and Discard("R4") in legal_moves(s)
    after = apply(s, Play("R9"))
    assert view(after, 0)["expeditions"][0]["R"] == ["R2", "R7", "R9"]
    assert after.phase == "draw"


def test_handshakes_only_before_any_number_and_several_allowed() -> None:
    s = position(hands=(["BH", "BH", "B3"], []))
    s = apply(apply(s, Play("BH")), Draw("deck"))
    s = apply(apply(s, Discard(hand(s, 1)[0])), Draw("deck"))
    s = apply(apply(s, Play("BH")), Draw("deck"))
    s = apply(apply(s, Discard(hand(s, 1)[0])), Draw("deck"))
    s = apply(apply(s, Play("B3")), Draw("deck"))
    assert view(s, 0)["expeditions"][0]["B"] == ["BH", "BH", "B3"]
    late = position(hands=(["BH"], []), expeditions=({"B": ["B3"]}, {}))
    with pytest.raises(IllegalMove, match="blue handshake can't follow blue numbers"):
        apply(late, Play("BH"))


def test_cannot_draw_from_the_pile_just_discarded_onto() -> None:
    s = position(hands=(["G5"], ["Y9"]), discards={"G": ["G2"], "W": ["W3"]})
    s = apply(s, Discard("G5"))
    assert view(s, 0)["locked_pile"] == "G"
    with pytest.raises(IllegalMove,
                       match="You can't draw from the green pile: you just discarded onto it"):
        apply(s, Draw("G"))
    assert Draw("G") not in legal_moves(s)
    assert Draw("W") in legal_moves(s) and Draw("deck") in legal_moves(s)
    s = apply(s, Draw("W"))
    assert "W3" in hand(s, 0) and view(s, 0)["discards"]["W"] == {"top": None, "size": 0}
    # the lock is only for this turn: the opponent may take the green 5
    s = apply(s, Discard("Y9"))
    assert Draw("G") in legal_moves(s) and Draw("Y") not in legal_moves(s)
    s = apply(s, Draw("G"))
    assert "G5" in hand(s, 1)


def test_draw_from_empty_pile_and_deck_top_card() -> None:
    s = apply(position(hands=(["Y2"], []), deck_top=["B9"]), Play("Y2"))
    with pytest.raises(IllegalMove, match="The red pile is empty"):
        apply(s, Draw("R"))
    s = apply(s, Draw("deck"))
    assert "B9" in hand(s, 0) and s.to_act == 1 and s.phase == "play"


def test_the_round_ends_the_instant_the_last_card_is_drawn() -> None:
    s = position(Options(rounds=3), hands=(["R10"], ["Y5"]),
                 expeditions=({"R": ["RH", "R6"]}, {"Y": ["Y4"]}), deck_size=2,
                 discards={"B": ["B2"]})
    s = apply(apply(s, Play("R10")), Draw("B"))      # a pile draw does not shorten the deck
    assert s.phase == "play" and view(s, 0)["deck_count"] == 2
    s = apply(apply(s, Play("Y5")), Draw("deck"))
    assert s.phase == "play" and view(s, 0)["deck_count"] == 1
    s = apply(s, Discard(hand(s, 0)[0]))
    s = apply(s, Draw("deck"))
    v = view(s, 0)
    assert v["phase"] == "round-end" and v["to_act"] is None and v["deck_count"] == 0
    # cards left in hand do not count: red (16-20)*2 = -8, yellow 9-20 = -11
    assert v["round_scores"] == [[-8, -11]] and v["totals"] == [-8, -11]
    assert v["breakdown"][0]["expeditions"]["R"] == {
        "cards": 3, "sum": 16, "cost": 20, "multiplier": 2, "bonus": 0, "score": -8}
    assert v["legal_moves"] == [{"type": "next-round"}]
    assert legal_moves(s) == (NextRound(),)


def test_final_round_goes_straight_to_match_end() -> None:
    s = position(Options(rounds=1), hands=([], []), expeditions=({"R": ["R9", "R10"]}, {}),
                 phase="draw", deck_size=1)
    s = apply(s, Draw("deck"))
    v = view(s, 1)
    assert s.phase == "match-end" and legal_moves(s) == () and v["winner"] == 1
    assert v["breakdown"][0]["total"] == -1 and v["legal_moves"] == []
    with pytest.raises(IllegalMove, match="The match is over"):
        apply(s, NextRound())


def test_six_colours() -> None:
    s = new_match(Options(sixth_colour=True), seed=4)
    v = view(s, 0)
    assert v["colours"] == ["Y", "B", "W", "G", "R", "P"] and v["deck_count"] == 56
    s = position(Options(sixth_colour=True), hands=(["P2", "PH"], []))
    s = apply(apply(s, Play("PH")), Draw("deck"))
    assert view(s, 0)["expeditions"][0]["P"] == ["PH"]
    assert view(s, 0)["scores"][0]["P"] == -40
    five = position(Options())
    with pytest.raises(IllegalMove, match="There is no purple in this match"):
        apply(five, Play("P2"))


def test_starting_player_alternates_and_match_totals_add_up() -> None:
    s = position(Options(rounds=3), phase="round-end", to_act=None, deck_size=0,
                 round_scores=[(30, 10)], first_player=1)
    assert view(s, 0)["starting_player"] == 1
    s = apply(s, NextRound())
    assert s.round == 2 and s.starting_player == 0 and s.to_act == 0
    assert view(s, 1)["hand_counts"] == [8, 8] and view(s, 1)["deck_count"] == 44
    assert view(s, 1)["round_scores"] == [[30, 10]] and view(s, 1)["expeditions"][0]["R"] == []
    s = position(Options(rounds=3), round=2, phase="round-end", to_act=None, deck_size=0,
                 round_scores=[(30, 10), (0, 5)], first_player=1)
    s = apply(s, NextRound())
    assert s.round == 3 and s.to_act == 1 and view(s, 0)["totals"] == [30, 15]


@pytest.mark.parametrize("mine, totals, winner", [
    (["R10", "R9"], [20, 21], 1),
    (["R10", "R9", "R8"], [28, 21], 0),
    ([], [21, 21], "draw"),
])
def test_match_totals_and_winner_or_draw(mine: list[str], totals: list[int],
                                         winner: object) -> None:
    # 21 each after two rounds; player 1 has no expedition in the last round
    s = position(Options(rounds=3), round=3, round_scores=[(10, 11), (11, 10)], deck_size=1,
                 expeditions=({"R": mine}, {}), phase="draw")
    v = view(apply(s, Draw("deck")), 1)
    assert v["phase"] == "match-end" and v["totals"] == totals and v["winner"] == winner
    assert v["round_scores"][-1] == [totals[0] - 21, 0]


def test_wrong_phase_and_missing_card_messages() -> None:
    s = position(hands=(["Y7"], []))
    with pytest.raises(IllegalMove, match="First play or discard"):
        apply(s, Draw("deck"))
    with pytest.raises(IllegalMove, match="You don't hold the blue 9"):
        apply(s, Play("B9"))
    with pytest.raises(IllegalMove, match="start the next round"):
        apply(position(phase="round-end", to_act=None, deck_size=0, round_scores=[(0, 0)],
                       options=Options(rounds=2)), Play("Y7"))
    d = apply(s, Play("Y7"))
    with pytest.raises(IllegalMove, match="Now draw a card"):
        apply(d, Discard(hand(d, 0)[0]))


def test_undo_restores_the_state_before_the_play() -> None:
    s = position(Options(skills=True), hands=(["W6"], []), charges=(1, 0))
    d = apply(s, Discard("W6"))
    assert view(d, 0)["charges"] == [2, 0]
    assert apply(d, legal_moves(d)[0]) == s
    from lostcities import Undo
    assert apply(d, Undo()) == s
    with pytest.raises(IllegalMove, match="nothing to undo"):
        apply(s, Undo())
