"""A silent peer: while the match waits on a message the other page owes, the waiting page shows
whom it waits for and for how long (a clock, redrawn on the controller's tick); after two
minutes of owed silence (heartbeats pay nothing) the player may end the match as abandoned by
the other, or keep waiting; a message from the other page resets the clock. Ending records the
match as abandoned by the opponent in the history, the statistics and the series. Natively:
two controllers (tests/controllerkit.py) over an in-memory connection (tests/fairseats.py), the
page's clock in the test's hands."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from controllerkit import MemoryPage, click_move, page_of
from fairseats import Pair, finished

from lostcities import Options
from webui.features.history import load, make_record, record_from_json
from webui.features.history_store import HISTORY_KEY
from webui.features.stats import compute_stats
from webui.match.controller import MatchController
from webui.match.series import Series, read_rematch, rematch_payload
from webui.online.codes import HOST_KEY
from webui.online.liveness import ABANDON_AFTER, Owed
from webui.player.players import Players
from webui.screens.online import clock_text

ONE = Options(rounds=1)


class Downloads:
    def download(self, name: str, text: str) -> None:
        raise AssertionError("no file here")


def controlled(pair: Pair, lang: str = "en") -> dict[str, MatchController]:
    """Both pages' controllers, the player's features plugged in, each playing its seat."""
    pages = {}
    for who, seat in (("host", pair.host), ("guest", pair.guest)):
        controller = MatchController(MemoryPage(), pair.storage[who], lang)
        controller.pace = 0.0
        Players(controller, Downloads()).plug()
        controller.play(seat)
        controller.render()
        pages[who] = controller
    return pages


def at(controller: MatchController, now: float) -> str:
    """The page's clock set to `now`, one tick: the screen then shown."""
    page = page_of(controller)
    page.now = now
    for tick in page.every:
        tick()
    return page.shown.doc


SILENT = re.compile(r'data-silent="(\d+)"')


def silent(doc: str) -> int | None:
    found = SILENT.search(doc)
    return None if found is None else int(found.group(1))


def click_step(pair: Pair, pages: dict[str, MatchController]) -> bool:
    """One move by clicks on the page of the player to act, delivered a second later (the
    connection's budget refills with the seconds); False when nobody can move."""
    seat = pair.actor()
    if seat is None:
        return False
    click_move(pages["host" if seat is pair.host else "guest"], pair.choose(seat))
    pair.now += 1.0
    pair.conn.deliver(pair.now)
    return True


def host_draws_and_the_guest_falls_silent(pair: Pair, pages: dict[str, MatchController],
                                          now: float = 0.0) -> None:
    """The host draws from the deck (the guest owes it the card's share), and the guest's
    answer never comes."""
    deck = {"type": "draw", "source": "deck"}
    while not (pair.actor() is pair.host and deck in pair.host.view()["legal_moves"]):
        assert click_step(pair, pages)
    page_of(pages["host"]).now = now
    click_move(pages["host"], deck)
    assert pair.host.waiting()
    conn = pair.conn  # the guest's page gets the draw and answers; its answer is lost
    while conn.to_guest:
        pair.guest.receive(conn.to_guest.popleft(), now)
    conn.to_host.clear()
    assert pair.host.waiting()


def test_the_clock_shows_whom_the_match_waits_on_and_for_how_long() -> None:
    pair = Pair(ONE, first=0, seed=4)
    pages = controlled(pair)
    host = pages["host"]
    host_draws_and_the_guest_falls_silent(pair, pages, now=100.0)
    assert silent(at(host, 100.5)) is None  # a quick answer shows no clock
    doc = at(host, 107.0)
    assert silent(doc) == 7 and "Waiting for Ben&#x27;s page: 0:07" in doc
    assert 'data-waiting="true"' in doc and "data-offer" not in doc
    doc = at(host, 100.0 + 65)
    assert silent(doc) == 65 and "0:65" not in doc and "1:05" in doc
    host.click("lang", {})
    assert "Esperando a la página de Ben: 1:05" in page_of(host).shown.doc
    # heartbeats pay nothing: the clock runs on
    for t in (170.0, 172.0):
        pair.guest.ping()
        pair.conn.deliver(t)
        assert silent(at(host, t)) == int(t - 100)
    assert clock_text(0) == "0:00" and clock_text(3725.9) == "62:05"


def test_the_offer_comes_after_two_minutes_of_owed_silence_and_a_message_resets_it() -> None:
    pair = Pair(ONE, first=0, seed=5)
    pages = controlled(pair)
    host = pages["host"]
    host_draws_and_the_guest_falls_silent(pair, pages)
    assert "data-offer" not in at(host, ABANDON_AFTER - 1)
    doc = at(host, ABANDON_AFTER)
    assert 'data-offer="abandoned"' in doc
    assert 'data-action="end-abandoned"' in doc and 'data-action="keep-waiting"' in doc
    assert "End it: Ben abandoned" in doc and "2:00" in doc
    # keep waiting: the offer comes back after two more minutes of silence
    host.click("keep-waiting", {})
    assert "data-offer" not in page_of(host).shown.doc
    assert "data-offer" not in at(host, 2 * ABANDON_AFTER - 1)
    assert 'data-offer="abandoned"' in at(host, 2 * ABANDON_AFTER + 5)
    # a message from the other page before the player chooses: the clock starts again
    pair.reconnect()  # the guest's page resends the answer the host lacks
    pair.guest.ping()  # and beats, as a page that is there does
    pair.conn.deliver(2 * ABANDON_AFTER + 6)
    doc = at(host, 2 * ABANDON_AFTER + 7)
    assert not pair.host.waiting() and "data-offer" not in doc and silent(doc) is None
    # and the next debt has its own whole two minutes
    host_draws_and_the_guest_falls_silent(pair, pages, now=1000.0)
    assert "data-offer" not in at(host, 1000 + ABANDON_AFTER - 1)
    assert 'data-offer="abandoned"' in at(host, 1000 + ABANDON_AFTER)


def beating(pair: Pair, pages: dict[str, MatchController], until: float) -> str:
    """Both pages' heartbeats every two seconds up to `until`; the guest's screen then."""
    t = 0.0
    doc = ""
    while t < until:
        t += 2.0
        pair.host.tick(t)
        pair.guest.ping()
        pair.conn.deliver(t)
        doc = at(pages["guest"], t)
    return doc


def test_no_clock_or_offer_while_a_player_whose_page_is_there_is_to_move() -> None:
    """The local player's turn, or the other player's while their page beats (a player thinks
    as long as they like): nothing is owed, so no clock and no offer, however long."""
    pair = Pair(ONE, first=0, seed=6)
    pages = controlled(pair)
    assert pair.actor() is pair.host and not pair.host.waiting()
    doc = beating(pair, pages, 2 * ABANDON_AFTER)  # the guest waits on a thinking host
    assert silent(doc) is None and "data-offer" not in doc
    doc = at(pages["host"], 10 * ABANDON_AFTER)  # the host's own turn
    assert silent(doc) is None and "data-offer" not in doc and "data-waiting" not in doc
    for who in ("host", "guest"):
        pages[who].click("end-abandoned", {})  # not offered: nothing changes
        assert pages[who].session is not None
    assert HOST_KEY in pair.storage["host"].items


def test_a_player_to_move_whose_page_is_gone_gets_the_clock_and_the_offer() -> None:
    """The host is to move and its page falls silent (no heartbeat: lost): the guest's page
    times it, and offers the way out after two minutes; a heartbeat before that resets it."""
    pair = Pair(ONE, first=0, seed=6)
    pages = controlled(pair)
    guest = pages["guest"]
    beating(pair, pages, 10.0)
    assert pair.actor() is pair.host
    at(guest, 30.0)  # 20 s without a heartbeat: the host's page is lost, the clock starts
    doc = at(guest, 37.0)
    assert silent(doc) == 7 and "Waiting for Ana&#x27;s page: 0:07" in doc
    assert "data-offer" not in at(guest, 30.0 + ABANDON_AFTER - 1)
    assert 'data-offer="abandoned"' in at(guest, 30.0 + ABANDON_AFTER)
    pair.host.tick(200.0)  # the host's page is back: the clock stops
    pair.conn.deliver(200.0)
    doc = at(guest, 200.5)
    assert silent(doc) is None and "data-offer" not in doc


def test_a_message_that_leaves_another_owed_resets_the_clock() -> None:
    owed = Owed()
    owed.note(True, 10.0)
    assert owed.silence(70.0) == 60.0 and not owed.offer(129.0) and owed.offer(130.0)
    owed.keep_waiting(130.0)
    assert not owed.offer(249.0) and owed.offer(250.0)
    owed.arrived(True, 250.0)  # a message came, another is owed
    assert owed.silence(251.0) == 1.0 and not owed.offer(369.0) and owed.offer(370.0)
    owed.note(True, 400.0)  # the same debt goes on: its silence is not reset
    assert owed.silence(400.0) == 150.0
    owed.arrived(False, 401.0)
    assert owed.silence(500.0) is None and not owed.offer(10_000.0)


def history_of(pair: Pair, who: str) -> list[Any]:
    return load(pair.storage[who].items[HISTORY_KEY]).records


def test_ending_the_match_records_it_as_abandoned_by_the_opponent() -> None:
    """Ending too early changes nothing; then the host ends the match the guest's page left
    silent: the room is left (the guest told), the history holds the match as abandoned by
    Ben, the statistics count it (and its win), and the notice says so in both languages."""
    pair = Pair(ONE, first=0, seed=7)
    pages = controlled(pair)
    host = pages["host"]
    host_draws_and_the_guest_falls_silent(pair, pages)
    at(host, ABANDON_AFTER - 1)
    host.click("end-abandoned", {})  # not offered yet: nothing changes
    assert host.session is not None and HISTORY_KEY not in pair.storage["host"].items
    at(host, ABANDON_AFTER)
    host.click("end-abandoned", {})
    assert host.session is None and HOST_KEY not in pair.storage["host"].items
    shown = page_of(host).shown
    assert shown.screen == "setup"
    assert "recorded as abandoned by Ben" in shown.banners
    pair.conn.deliver()
    assert pair.guest.host_away == "left"
    (record,) = history_of(pair, "host")
    assert record.result == "abandoned" and record.abandoned == 1 and record.me == 0
    assert record.winner == 0 and record.mode == "online" and record.rounds == ()
    assert record_from_json(json.loads(json.dumps(record.to_json()))) == record
    stats = compute_stats([record])
    tally = stats.tally("online")
    assert (tally.played, tally.won, tally.abandoned, tally.win_rate) == (1, 0, 1, 1.0)
    assert stats.margins == ()  # an unfinished match has no margin
    host.click("stats", {})
    doc = page_of(host).shown.doc
    assert 'data-stat="abandoned" data-opponent="online">1<' in doc
    assert "abandoned by the opponent" in doc
    host.click("lang", {})
    assert "Abandonadas por el rival" in page_of(host).shown.doc
    assert "abandonada por el rival" in page_of(host).shown.doc


def test_an_abandoned_match_ends_its_series_as_won_by_the_player_who_stayed() -> None:
    """A rematch, then the guest's page falls silent in match 2 (mid-round 1 of 2): the
    series counts the match as the host's, the notice gives the score, and the record holds
    the rounds played to their end so far."""
    pair = Pair(Options(rounds=2), first=0, seed=8)
    pages = controlled(pair)
    while click_step(pair, pages):
        pass
    finished(pair)
    first = pair.host.view()["totals"]
    pages["host"].click("play-again", {})
    pair.conn.deliver(pair.now)
    pages["guest"].click("play-again", {})
    pair.conn.deliver(pair.now)
    assert pair.host.match_no == 2
    # the first round of match 2 to its end, then the guest falls silent in the second
    while pair.host.view()["round"] == 1:
        assert click_step(pair, pages)
    round_one = pair.host.view()["round_scores"][0]
    host_draws_and_the_guest_falls_silent(pair, pages, now=50.0)
    at(pages["host"], 50 + ABANDON_AFTER)
    pages["host"].click("end-abandoned", {})
    banners = page_of(pages["host"]).shown.banners
    wins = (int(first[0] > first[1]) + 1, int(first[1] > first[0]))
    assert f"Series: Ana {wins[0]} – {wins[1]} Ben." in banners
    records = history_of(pair, "host")
    (abandoned,) = [r for r in records if r.abandoned is not None]
    assert len(records) == 2 and records[records[0] is abandoned].result != "abandoned"
    assert abandoned.abandoned == 1 and [list(r.scores) for r in abandoned.rounds] == [
        round_one]


def test_the_series_and_the_record_check_an_abandoned_match() -> None:
    series = Series("a" * 32, ((10, 5),)).with_abandoned(2, 0, (30, -4))
    assert series.wins(0) == 1 and series.wins(1) == 1 and series.drawn == 0
    assert series.with_abandoned(2, 0, (30, -4)) == series  # said again: the same
    assert Series.from_json(json.loads(json.dumps(series.to_json()))) == series
    with pytest.raises(ValueError, match="ended already"):
        Series("a" * 32, ((1, 1),)).with_abandoned(1, 0, (1, 1))
    for bad in ([[3, 0]], [[1, 2]], [[1, 0], [1, 1]], "x", [[True, 0]]):
        with pytest.raises(ValueError):
            Series.from_json({**series.to_json(), "abandoned": bad})
    with pytest.raises(ValueError, match="ended with an abandoned match"):
        read_rematch(rematch_payload(series), series, sender_is_host=True)
    assert "abandoned" not in Series("a" * 32, ((1, 2),)).to_json()  # as before
    record = make_record(date="2026-12-01T10:00:00Z", mode="online", level=None, me=1,
                         names=("Ana", "Ben"), options=Options(rounds=3, jobs=True),
                         jobs=[None, None], rounds=[], replay=None, abandoned=0)
    assert record.winner == 1 and record.result == "abandoned"
    doc = record.to_json()
    for change, says in (({"abandoned": 1}, "opponent"), ({"mode": "pass-and-play"}, "online"),
                         ({"winner": 0}, "winner"), ({"abandoned": "0"}, "whole number")):
        with pytest.raises(ValueError, match=says):
            record_from_json({**doc, **change})
    with pytest.raises(ValueError, match="fewer rounds"):
        record_from_json({**doc, "options": Options(rounds=1).to_json(), "jobs": [None, None],
                          "rounds": [{"scores": [0, 0], "mixup": None, "expeditions": None}]})
