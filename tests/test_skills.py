"""docs/rules.md §5.2: charges and one scenario per skill."""

import pytest

from lostcities import (
    Airlift, Discard, Draw, IllegalMove, Options, Play, Radio, Sabotage, Undo, apply,
    legal_moves, new_match, view,
)
from lostcities.scenario import position

SKILLS_ON = Options(rounds=3, skills=True)


def test_one_charge_per_discard_and_charges_end_with_the_round() -> None:
    s = position(SKILLS_ON, hands=(["Y2", "Y3"], ["B2"]))
    s = apply(apply(s, Discard("Y2")), Draw("deck"))
    s = apply(apply(s, Play("B2")), Draw("deck"))
    s = apply(apply(s, Discard("Y3")), Draw("deck"))
    assert view(s, 1)["charges"] == [2, 0]
    off = position(Options(), hands=(["Y2"], []))
    assert view(apply(off, Discard("Y2")), 0)["charges"] == [0, 0]
    end = position(SKILLS_ON, phase="draw", deck_size=1, charges=(4, 2))
    end = apply(apply(end, Draw("deck")), legal_moves(apply(end, Draw("deck")))[0])
    assert end.round == 2 and view(end, 0)["charges"] == [0, 0]


def test_skills_need_the_option_and_enough_charges() -> None:
    with pytest.raises(IllegalMove, match="Skills are off in this match"):
        apply(new_match(Options(), seed=1), Radio())
    s = position(SKILLS_ON, charges=(2, 9))
    with pytest.raises(IllegalMove, match="Sabotage needs 3 charges; you have 2"):
        apply(s, Sabotage("R"))
    assert Radio() in legal_moves(s) and Airlift() in legal_moves(s)
    assert Sabotage("R") not in legal_moves(s)
    assert Radio() not in legal_moves(position(SKILLS_ON, charges=(0, 9)))


def test_radio_shows_the_top_two_cards_to_its_user_only() -> None:
    s = position(SKILLS_ON, charges=(1, 0), deck_top=["W8", "G3", "B5"], hands=(["Y9"], []))
    s = apply(s, Radio())
    v0, v1 = view(s, 0), view(s, 1)
    assert v0["deck_peek"] == ["W8", "G3"] and v0["charges"] == [0, 0]
    assert v0["skills_used"] == ["radio"] and v1["skills_used"] == ["radio"]
    assert v1["deck_peek"] == [] and "W8" not in str(v1) and "G3" not in str(v1)
    assert {"player": 0, "type": "radio"} in v1["log"]
    with pytest.raises(IllegalMove, match="already used Radio this turn"):
        apply(position(SKILLS_ON, charges=(5, 0), skills_used=["radio"]), Radio())
    s = apply(s, Play("Y9"))
    assert view(s, 0)["deck_peek"] == ["W8", "G3"]  # still this turn
    s = apply(s, Draw("deck"))
    assert view(s, 0)["deck_peek"] == []


def test_radio_shows_fewer_when_fewer_remain() -> None:
    s = apply(position(SKILLS_ON, charges=(1, 0), deck_top=["R4"], deck_size=1), Radio())
    assert view(s, 0)["deck_peek"] == ["R4"]


def test_skills_come_before_the_play_or_discard() -> None:
    s = apply(position(SKILLS_ON, charges=(3, 0), hands=(["Y2"], [])), Play("Y2"))
    with pytest.raises(IllegalMove, match="before your play or discard"):
        apply(s, Radio())
    drafting = new_match(Options(jobs=True, skills=True), seed=1)
    with pytest.raises(IllegalMove, match="First pick your job"):
        apply(drafting, Radio())


def test_airlift_ignores_the_ascending_rule_for_one_play() -> None:
    s = position(SKILLS_ON, charges=(2, 0), hands=(["R4", "RH", "R5", "R8"], ["Y2"]),
                 expeditions=({"R": ["R7"]}, {}))
    assert Play("R4") not in legal_moves(s)
    s = apply(s, Airlift())
    assert view(s, 0)["airlift_active"] and view(s, 0)["charges"] == [0, 0]
    assert Play("R4") in legal_moves(s) and Play("RH") in legal_moves(s)
    s = apply(apply(s, Play("R4")), Draw("deck"))
    assert view(s, 0)["expeditions"][0]["R"] == ["R7", "R4"]
    assert not view(s, 0)["airlift_active"]
    s = apply(apply(s, Discard("Y2")), Draw("deck"))
    # later plays must beat the highest number (7), not the last card (4)
    with pytest.raises(IllegalMove, match="red 5 can't follow red 7"):
        apply(s, Play("R5"))
    assert Play("R8") in legal_moves(s)


def test_airlift_lets_a_handshake_follow_numbers() -> None:
    s = position(SKILLS_ON, charges=(2, 0), hands=(["RH"], []), expeditions=({"R": ["R7"]}, {}))
    s = apply(apply(s, Airlift()), Play("RH"))
    assert view(s, 0)["expeditions"][0]["R"] == ["R7", "RH"]
    assert view(s, 0)["scores"][0]["R"] == -26


def test_airlift_charges_are_spent_if_you_discard_and_undo_restores_it() -> None:
    s = position(SKILLS_ON, charges=(2, 0), hands=(["R4"], []), expeditions=({"R": ["R7"]}, {}))
    lifted = apply(s, Airlift())
    played = apply(lifted, Play("R4"))
    assert apply(played, Undo()) == lifted
    d = apply(apply(lifted, Discard("R4")), Draw("deck"))
    assert view(d, 0)["charges"] == [1, 0] and not view(d, 0)["airlift_active"]


def test_sabotage_shuts_a_pile_on_the_opponents_next_turn_only() -> None:
    s = position(SKILLS_ON, charges=(3, 0), hands=(["Y2", "Y3"], ["B2", "B3"]),
                 discards={"R": ["R2", "R3", "R4"]})
    s = apply(s, Sabotage("R"))
    assert view(s, 0)["charges"] == [0, 0] and view(s, 0)["shut_pile"] is None
    s = apply(s, Play("Y2"))
    assert Draw("R") in legal_moves(s)  # the saboteur's own draw is not affected
    s = apply(s, Draw("deck"))
    assert view(s, 1)["shut_pile"] == "R" == view(s, 0)["shut_pile"]  # public: against to_act
    s = apply(s, Play("B2"))
    with pytest.raises(IllegalMove, match="You can't draw from the red pile: it was sabotaged"):
        apply(s, Draw("R"))
    assert Draw("R") not in legal_moves(s)
    s = apply(s, Draw("deck"))
    s = apply(apply(s, Play("Y3")), Draw("deck"))
    s = apply(s, Play("B3"))
    assert Draw("R") in legal_moves(s)


def test_sabotages_of_both_players_coexist() -> None:
    """A shuts B's red; on B's turn B shuts A's green: B still may not draw red this turn, and A
    may not draw green on their next turn (one sabotage at a time lifted the first)."""
    s = position(SKILLS_ON, charges=(3, 3), hands=(["Y2", "Y3"], ["B2", "B3"]),
                 discards={"R": ["R2"], "G": ["G2"]})
    s = apply(apply(apply(s, Sabotage("R")), Play("Y2")), Draw("deck"))
    s = apply(s, Sabotage("G"))
    for p in (0, 1):
        assert view(s, p)["shut_pile"] == "R" and view(s, p)["shut_piles"] == ["G", "R"]
    s = apply(s, Play("B2"))
    assert Draw("R") not in legal_moves(s) and Draw("G") in legal_moves(s)
    with pytest.raises(IllegalMove, match="You can't draw from the red pile: it was sabotaged"):
        apply(s, Draw("R"))
    s = apply(apply(s, Undo()), Play("B2"))  # undo takes back the play, not the sabotage
    assert Draw("R") not in legal_moves(s)
    s = apply(s, Draw("G"))
    assert view(s, 0)["shut_pile"] == "G" and view(s, 1)["shut_piles"] == ["G", None]
    s = apply(apply(s, Discard("Y3")), Draw("deck"))  # A's turn ends: their shut pile too
    assert view(s, 1)["shut_piles"] == [None, None]


def test_the_shut_pile_blocks_its_victim_only_on_their_draw() -> None:
    s = position(SKILLS_ON, charges=(3, 3), hands=(["Y2", "Y3"], ["B2", "B3"]),
                 discards={"R": ["R2"], "G": ["G2", "G3"]})
    s = apply(apply(apply(s, Sabotage("R")), Play("Y2")), Draw("deck"))
    s = apply(apply(s, Sabotage("G")), Play("B2"))
    s = apply(s, Draw("G"))  # green is shut for A, not for B
    s = apply(s, Play("Y3"))
    assert Draw("G") not in legal_moves(s) and Draw("R") in legal_moves(s)
    with pytest.raises(IllegalMove, match="You can't draw from the green pile: it was sabotaged"):
        apply(s, Draw("G"))


def test_each_skill_once_a_turn_but_several_skills_in_one_turn() -> None:
    s = position(SKILLS_ON, charges=(6, 0))
    s = apply(apply(apply(s, Radio()), Airlift()), Sabotage("G"))
    assert view(s, 0)["skills_used"] == ["radio", "airlift", "sabotage"]
    assert view(s, 0)["charges"] == [0, 0]
    assert not any(isinstance(m, (Radio, Airlift, Sabotage)) for m in legal_moves(s))
