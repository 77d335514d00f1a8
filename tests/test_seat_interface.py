"""What a seat says about its match for the features that keep it (history, series, play
again): every kind of seat answers through `Seat`, so the keeper asks no seat its class."""

from __future__ import annotations

import pytest
from fairseats import Pair

from lostcities import Options, state_to_json
from webui.features.guide import GuideMatch
from webui.match.seats.computer import BotMatch
from webui.match.seats.local import LocalMatch

OPTIONS = Options(rounds=2, jobs=True, sixth_colour=True)


def test_a_pass_and_play_match_is_held_here_and_played_again_the_same_way() -> None:
    seat = LocalMatch.new(OPTIONS, 5, 0, ("Ana", "Ben"))
    assert seat.state_json() == state_to_json(seat._state)
    assert seat.bot_level() is None and seat.in_history()
    again = seat.rematch_here(77, 1)
    assert isinstance(again, LocalMatch)
    state = again._state
    assert (state.options, state.names, state.first_player) == (OPTIONS, ("Ana", "Ben"), 1)
    assert again.state_json() != seat.state_json()


def test_a_match_against_the_computer_keeps_its_level_and_the_humans_seat() -> None:
    seat = BotMatch.new(OPTIONS, 5, 1, ("Computer", "Ana"), "medium", human=1)
    assert seat.bot_level() == "medium" and seat.in_history()
    assert seat.state_json() == state_to_json(seat._state)
    again = seat.rematch_here(8, 0)
    assert isinstance(again, BotMatch) and not isinstance(again, GuideMatch)
    assert (again.level, again.human, again._state.first_player) == ("medium", 1, 0)
    assert again._state.names == ("Computer", "Ana") and again._state.options == OPTIONS


def test_the_guides_match_is_not_counted_nor_played_again() -> None:
    guide = GuideMatch.deal(("Ana", "Computer"))
    assert not guide.in_history() and guide.state_json() is not None
    with pytest.raises(ValueError):
        guide.rematch_here(1, 0)


def test_an_online_match_is_not_held_here_and_is_played_again_by_agreement() -> None:
    pair = Pair(Options(rounds=1), first=0, seed=4)
    for seat in (pair.host, pair.guest):
        assert seat.state_json() is None and seat.bot_level() is None and seat.in_history()
        with pytest.raises(ValueError):
            seat.rematch_here(1, 0)
