"""Rematch series: the score follows from the match results alone, both online pages compute
the same one from their own views, and what they exchange is checked like any peer data."""

from __future__ import annotations

import json
from typing import Any

import pytest

import lostcities as lc
from lostcities import Options
from test_history import play_match
from test_stats_screen import Page
from webui.match.series import MAX_MATCHES, Series, read_rematch, rematch_payload, series_key
from webui.player.match_end import series_html

ROOM = "K7M2QX"


def page_key(view: dict[str, Any]) -> str:
    """The key an online page works out from what it knows: its view and the room code."""
    return series_key(mode="online", names=view["names"],
                      options=Options.from_json(view["options"]), room=ROOM)


def test_both_online_pages_show_the_same_series_score() -> None:
    options = Options(rounds=1)
    host = guest = None
    winners = []
    for number, seed in enumerate((401, 402, 403, 404, 405), start=1):
        end = play_match(options, seed).state
        winners.append(end.winner)
        host_view, guest_view = lc.view(end, 0), lc.view(end, 1)
        host = (host or Series(page_key(host_view))).with_result(number, host_view["totals"])
        guest = (guest or Series(page_key(guest_view))).with_result(number,
                                                                    guest_view["totals"])
        # both ask for a rematch: each reads the other's message
        wire_to_guest = json.loads(json.dumps(rematch_payload(host)))
        wire_to_host = json.loads(json.dumps(rematch_payload(guest)))
        assert read_rematch(wire_to_guest, guest, sender_is_host=True) == guest
        assert read_rematch(wire_to_host, host, sender_is_host=False) == host
    assert host == guest and host is not None
    assert host.score() == (winners.count(0), winners.count(1), winners.count("draw"))
    names = ("Ana", "Ben")
    host_page, guest_page = Page(series_html(host, names, "en")), Page(
        series_html(guest, names, "es"))
    for player in (0, 1):
        (a,) = host_page.find(data_series=None, data_player=str(player))
        (b,) = guest_page.find(data_series=None, data_player=str(player))
        assert a[2] == b[2] == str(winners.count(player))


def test_showing_a_match_end_again_adds_nothing() -> None:
    series = Series(series_key(mode="computer", level="hard", names=("Ana", "Computer"),
                               options=Options(), started="2026-12-01T10:00:00Z"))
    one = series.with_result(1, [50, 20])
    assert one.with_result(1, [50, 20]) == one
    two = one.with_result(2, (10, 10))
    assert two.score() == (1, 0, 1)
    with pytest.raises(ValueError):
        two.with_result(1, [20, 50])  # not what match 1 ended with
    with pytest.raises(ValueError):
        two.with_result(4, [1, 0])  # match 3 is missing
    with pytest.raises(ValueError):
        two.with_result(3, [1, True])


def test_keys_tell_series_apart() -> None:
    def online(names: tuple[str, str] = ("Ana", "Ben"), options: Options = Options(),
               room: str = ROOM) -> str:
        return series_key(mode="online", names=names, options=options, room=room)

    key = online()
    assert len(key) == 32 and key == online()
    assert len({key, online(room="ZZZZZZ"), online(names=("Ben", "Ana")),
                online(options=Options(jobs=True))}) == 4

    def local(started: str) -> str:
        return series_key(mode="computer", level="easy", names=("Ana", "Bot"),
                          options=Options(), started=started)

    assert local("2026-12-01T10:00:00Z") != local("2026-12-02T10:00:00Z")


def test_a_guest_that_lost_its_series_takes_the_hosts() -> None:
    key = series_key(mode="online", names=("A", "B"), options=Options(), room=ROOM)
    host = Series(key, ((10, 5), (3, 9)))
    fresh = Series(key)
    assert read_rematch(rematch_payload(host), fresh, sender_is_host=True) == host
    # the host does not take a longer series from its guest, nor a guest from a shorter host
    with pytest.raises(ValueError):
        read_rematch(rematch_payload(host), fresh, sender_is_host=False)
    assert read_rematch(rematch_payload(fresh), host, sender_is_host=False) == host
    with pytest.raises(ValueError):
        read_rematch(rematch_payload(fresh), host, sender_is_host=True)


@pytest.mark.parametrize("payload", [
    None, {}, {"series": None}, {"series": {"key": "x", "results": []}},
    {"series": {"key": "0" * 32, "results": [[1, 2]]}},  # another series' key
    {"series": {"key": "KEY", "results": [[1, 2, 3]]}},
    {"series": {"key": "KEY", "results": [[1.5, 2]]}},
    {"series": {"key": "KEY", "results": [[10, 5], [9, 3]]}},  # differs from ours
    {"series": {"key": "KEY", "results": [[1, 2]] * (MAX_MATCHES + 1)}},
    {"series": {"key": "KEY", "results": [], "extra": 1}},
    {"series": {"key": "KEY", "results": [[10 ** 9, 0]]}},
])
def test_a_bad_rematch_message_is_refused(payload: Any) -> None:
    key = series_key(mode="online", names=("A", "B"), options=Options(), room=ROOM)
    mine = Series(key, ((10, 5), (3, 9)))
    text = json.dumps(payload).replace("KEY", key)
    with pytest.raises(ValueError):
        read_rematch(json.loads(text), mine, sender_is_host=True)


def test_the_series_reads_back_from_json() -> None:
    series = Series(series_key(mode="pass-and-play", names=("A", "B"), options=Options()),
                    ((1, 2), (3, 3), (9, 0)))
    assert Series.from_json(json.loads(json.dumps(series.to_json()))) == series
    assert series.score() == (1, 1, 1)


def test_the_series_line_escapes_names() -> None:
    series = Series("a" * 32, ((5, 1),))
    html = series_html(series, ("<b>Ana</b>", "Ben & Co"), "en")
    assert "<b>Ana</b>" not in html and "&lt;b&gt;Ana&lt;/b&gt;" in html
    assert "Ben &amp; Co" in html
