"""What a seat says about its match for the features that keep it (history, series, play
again) and for the player's features on its screens (its own panel, the guide's Skip and Close,
Play again, the series and where a rematch stands): every kind of seat answers through `Seat`,
so neither the keeper nor `Players` asks a seat its class."""

from __future__ import annotations

import pytest
from fairseats import Pair, finished

from lostcities import Options, state_to_json
from webui.features.guide import GuideMatch
from webui.match.seats import Seat
from webui.match.seats.computer import BotMatch
from webui.match.seats.local import LocalMatch
from webui.match.series import Series
from webui.online import control
from webui.player.match_end import rematch_html

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


KEPT = Series("a" * 32, ((120, 80),))
"""A series as the keeper keeps it."""


@pytest.mark.parametrize("seat", [
    LocalMatch.new(OPTIONS, 5, 0, ("Ana", "Ben")),
    BotMatch.new(OPTIONS, 5, 1, ("Computer", "Ana"), "medium", human=1),
], ids=["pass-and-play", "computer"])
def test_a_match_held_here_is_played_again_here_and_its_series_is_the_keepers(
        seat: Seat) -> None:
    saved = seat.to_json()
    assert not seat.ask_rematch()  # nobody to ask: the device deals the rematch itself
    assert seat.offers_play_again(recorded=True) and not seat.offers_play_again(recorded=False)
    assert seat.series_at_end(KEPT, recorded=True) is KEPT
    assert seat.series_at_end(KEPT, recorded=False) is None  # not counted in it yet
    assert seat.match_no is None and seat.carried is None and not seat.starting
    assert seat.rematch_state() is None and seat.rematch_refused is None
    assert rematch_html(seat, "en", 0.0) == ""
    for screen in ("turn", "match-end"):
        assert seat.panel(screen, "en") is None
    assert not seat.skip_guide() and not seat.close_guide()
    assert seat.to_json() == saved  # nothing of it changed


def test_the_guides_match_shows_its_step_and_is_skipped_or_put_away() -> None:
    guide = GuideMatch.deal(("Ana", "Computer"))
    panel = guide.panel("turn", "en")
    assert panel is not None and 'data-guide="step"' in panel and 'data-step="0"' in panel
    assert guide.panel("match-end", "en") is None
    assert guide.skip_guide()  # the player's features end its match
    assert not guide.closed
    assert guide.close_guide() and guide.closed
    assert guide.to_json()["guide"]["closed"] is True
    assert not guide.offers_play_again(recorded=False)  # never recorded: never played again


def test_an_online_seat_asks_the_other_page_and_counts_its_own_series() -> None:
    pair = Pair(Options(rounds=1), first=0, seed=4)
    host, guest = pair.host, pair.guest
    for seat in (host, guest):
        assert seat.match_no == 1 and seat.carried is None and not seat.starting
        assert not seat.offers_play_again(recorded=True)  # not over yet
        assert seat.series_at_end(KEPT, recorded=True) is None
        with pytest.raises(ValueError):
            seat.ask_rematch()
    pair.play()
    finished(pair)
    for seat in (host, guest):
        own = seat.series()
        assert own is not None and len(own.results) == 1
        assert seat.offers_play_again(recorded=False)  # held elsewhere: asked of the other page
        assert seat.series_at_end(None, recorded=False) == own  # its own, recorded here or not
        assert seat.series_at_end(KEPT, recorded=True) == own
        assert seat.rematch_state() is None
    assert host.ask_rematch() is True
    assert host.rematch_state() == "asked" and not host.offers_play_again(recorded=True)
    pair.conn.deliver()
    assert guest.rematch_state() == "invited"
    assert guest.ask_rematch() is True
    assert guest.starting and guest.rematch_state() == "starting"
    assert guest.series_at_end(KEPT, recorded=True) == guest.carried == host.asked
    pair.conn.deliver()
    for seat in (host, guest):
        assert seat.match_no == 2 and seat.carried is not None and not seat.starting
        assert seat.rematch_state() is None


def test_an_online_seat_that_lost_its_series_shows_none_until_its_match_is_recorded() -> None:
    pair = Pair(Options(rounds=1), first=0, seed=12)
    pair.play()
    finished(pair)
    pair.host.ask_rematch()
    pair.guest.ask_rematch()
    pair.conn.deliver()
    pair.guest.carried = None  # as a page begun again from the welcome, its series lost
    pair.play()
    finished(pair)
    own = pair.guest.series()
    assert own is not None and own.results == ()
    assert pair.guest.series_at_end(None, recorded=False) is None
    assert pair.guest.series_at_end(KEPT, recorded=True) == own


def test_where_an_online_rematch_stands_is_said_from_what_the_seat_says() -> None:
    pair = Pair(Options(rounds=1), first=0, seed=6)
    pair.play()
    finished(pair)
    host, guest = pair.host, pair.guest
    assert rematch_html(host, "en", pair.now) == ""
    host.ask_rematch()
    assert 'data-rematch="asked"' in rematch_html(host, "en", pair.now)
    pair.conn.to_guest.append(control.rematch(7, Series("b" * 32, ())))  # another match's
    pair.conn.deliver()
    html = rematch_html(guest, "en", pair.now)
    assert 'data-rematch="invited"' in html and "Ana asks for a rematch" in html
    assert guest.rematch_refused is not None and 'class="rematch-refused"' in html
    host.leave()
    pair.conn.deliver()
    html = rematch_html(guest, "en", pair.now)  # a guest whose host left: no rematch
    assert "Ana left the room: no rematch here." in html and "data-rematch" not in html
