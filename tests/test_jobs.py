"""docs/rules.md §5.1: the job draft and one scenario per job."""

import pytest

from lostcities import (
    JOBS, Discard, Draw, IllegalMove, Options, PickJob, Play, apply, legal_moves, new_match, view,
)
from lostcities.scenario import position

JOBS_ON = Options(rounds=1, jobs=True)


def test_four_different_jobs_offered_two_each_picks_revealed_together() -> None:
    s = new_match(JOBS_ON, seed=21)
    assert s.phase == "jobs" and s.to_act == 0
    v0, v1 = view(s, 0), view(s, 1)
    offer0, offer1 = v0["job_offer"], v1["job_offer"]
    assert len(offer0) == 2 and len(offer1) == 2 and len(set(offer0 + offer1)) == 4
    assert v0["legal_moves"] == [{"type": "pick-job", "job": j} for j in offer0]
    assert v1["legal_moves"] == [] and v0["hand"] == [] and v0["hand_counts"] == [0, 0]
    with pytest.raises(IllegalMove, match="was not offered to you"):
        apply(s, PickJob(offer1[0]))
    s = apply(s, PickJob(offer0[1]))
    assert s.to_act == 1 and s.phase == "jobs"
    assert view(s, 0)["jobs"] == [offer0[1], None]
    assert view(s, 1)["jobs"] == [None, None]
    assert view(s, 1)["log"] == [{"player": 0, "type": "pick-job", "job": None}]
    assert offer0[1] not in str(view(s, 1))
    s = apply(s, PickJob(offer1[0]))
    assert s.phase == "play" and s.to_act == 0
    for p in (0, 1):
        assert view(s, p)["jobs"] == [offer0[1], offer1[0]]
        assert view(s, p)["job_offer"] == []


def test_job_draw_depends_on_seed_only() -> None:
    offers = {tuple(view(new_match(JOBS_ON, seed=k), 0)["job_offer"]) for k in range(30)}
    assert len(offers) > 5
    assert view(new_match(JOBS_ON, seed=3), 1) == view(new_match(JOBS_ON, seed=3), 1)


def test_quartermaster_is_dealt_and_holds_nine() -> None:
    seed = next(k for k in range(100)
                if "quartermaster" in view(new_match(JOBS_ON, seed=k), 1)["job_offer"])
    s = new_match(JOBS_ON, seed=seed)
    s = apply(s, legal_moves(s)[0])
    s = apply(s, PickJob("quartermaster"))
    v = view(s, 1)
    assert v["hand_counts"] == [8, 9] and len(v["hand"]) == 9 and v["deck_count"] == 43
    for _ in range(4):  # two full turns each: the Quartermaster keeps holding nine
        s = apply(s, Discard(view(s, s.to_act)["hand"][0]))
        s = apply(s, Draw("deck"))
    assert view(s, 0)["hand_counts"] == [8, 9]


def _score(job: str, cards: list[str]) -> int:
    """Player 0's red score (as player 1 sees it) when player 0 holds ``job``."""
    other = "scout" if job != "scout" else "surveyor"
    s = position(JOBS_ON, jobs=(job, other), expeditions=({"R": cards}, {}))
    return view(s, 1)["scores"][0]["R"]


def test_surveyor_expeditions_cost_15() -> None:
    assert _score("surveyor", ["R5", "R6", "R7"]) == 3
    assert _score("collector", ["R5", "R6", "R7"]) == -2


def test_chronicler_bonus_needs_seven_cards() -> None:
    seven = ["RH", "R2", "R3", "R4", "R5", "R6", "R7"]
    assert _score("chronicler", seven) == (27 - 20) * 2 + 20
    assert _score("scout", seven) == (27 - 20) * 2


def test_financier_handshakes_never_multiply_a_loss() -> None:
    assert _score("financier", ["RH", "RH", "R4"]) == -16
    assert _score("collector", ["RH", "RH", "R4"]) == -48
    assert _score("financier", ["RH", "RH", "R9", "R10", "R8"]) == 21  # gains still multiply


def test_collector_bonus_is_30() -> None:
    eight = ["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]
    assert _score("collector", eight) == 24 + 30
    assert _score("financier", eight) == 24 + 20


def test_scout_sees_the_deck_top_on_their_own_turn_only() -> None:
    s = position(JOBS_ON, jobs=("scout", "surveyor"), deck_top=["G9", "B4"],
                 hands=(["Y2"], ["W2"]))
    assert view(s, 0)["deck_peek"] == ["G9"]
    assert view(s, 1)["deck_peek"] == [] and "G9" not in str(view(s, 1))
    s = apply(s, Play("Y2"))
    assert view(s, 0)["deck_peek"] == ["G9"]
    s = apply(s, Draw("deck"))
    assert view(s, 0)["deck_peek"] == [] and "B4" not in str(view(s, 0)["deck_peek"])
    assert view(s, 1)["deck_peek"] == []
    s = apply(apply(s, Play("W2")), Draw("deck"))
    assert view(s, 0)["deck_peek"] == [view(s, 0)["deck_peek"][0]] and s.to_act == 0


def test_every_job_is_declared_once() -> None:
    assert list(JOBS) == ["quartermaster", "surveyor", "chronicler", "financier", "collector",
                          "scout"]
