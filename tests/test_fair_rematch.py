"""Online rematches (webui/online/seat.py `ask_rematch`, webui/online/control.py ``rematch``):
two pages that finished a match agree on a rematch, in either order or at once, and play the
next match in the same room, on the same connection, under the next match number, carrying
the series both agreed on; a request survives reloads and dropped connections, and a
malformed, hostile or other-series rematch message is refused with nothing changed. Through
two controllers with the player's features too: both screens show the same series score."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from controllerkit import MemoryPage, MemoryStorage, click_move, page_of
from fairseats import GROUP, MARKUP, KeptLink, Pair, finished

from lostcities import Options
from lostcities.errors import CorruptSave
from lostcities.protocol import APP_VERSION
from webui.features.history import load
from webui.features.history_store import HISTORY_KEY
from webui.match.controller import MatchController
from webui.match.series import MAX_TOTAL, Series, series_key
from webui.online import control
from webui.online.codes import GUEST_KEY, HOST_KEY
from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.online.seat import FairSeat
from webui.player.players import Players
from webui.screens.online import problem_text

ONE = Options(rounds=1)


def ended(seed: int = 3, first: int | None = None) -> Pair:
    """A room whose first match both pages just finished."""
    pair = Pair(ONE, first=first, seed=seed)
    pair.play()
    finished(pair)
    return pair


def key_of(pair: Pair) -> str:
    return series_key(mode="online", names=("Ana", "Ben"), options=ONE, room="ABCDEF")


def saved(pair: Pair, who: str) -> dict[str, Any]:
    return json.loads(pair.storage[who].items[HOST_KEY if who == "host" else GUEST_KEY])


def sent_kinds(pair: Pair, start: int = 0) -> list[tuple[str, str, int | None]]:
    """(sender, kind, seq) of what crossed the connection from `start` on."""
    out = []
    for who, text, _ in pair.conn.sent[start:]:
        data = json.loads(text)
        out.append((who, "fair" if "fair" in data else data["lc"], data.get("seq")))
    return out


def agreed(pair: Pair, totals: list[list[int]], first_before: int) -> None:
    """Both pages hold match 2 of the room, begun with the series of match 1's `totals`, the
    player who did not start match 1 starting it."""
    series = Series(key_of(pair), tuple((a, b) for a, b in totals))
    for who, seat in (("host", pair.host), ("guest", pair.guest)):
        assert seat.match_no == 2 and seat.carried == series
        assert seat.asked is None and seat.heard is None and seat.rematch_refused is None
        assert seat.setup is not None and seat.setup.first_player == 1 - first_before
        assert seat.has_match and not seat.starting and seat.view()["phase"] != "match-end"
        doc = saved(pair, who)
        assert doc["match"] == 2 and doc["series"] == series.to_json() and doc["asked"] is None


def play_out(pair: Pair, matches: list[list[list[int]]]) -> None:
    """Play the match to its end; both pages count the same series: `matches`' totals."""
    pair.play()
    finished(pair)
    totals = [*matches, pair.host.view()["totals"]]
    expected = Series(key_of(pair), tuple((a, b) for a, b in totals))
    assert pair.host.series() == pair.guest.series() == expected


# ---- agreeing ----------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["host", "guest"])
def test_either_order_of_asking_begins_the_next_match_on_the_same_connection(
        first: str) -> None:
    pair = ended(seed=3)
    assert pair.host.peer is not None and pair.host.peer.state is not None
    started = pair.host.peer.state.first_player
    totals = pair.host.view()["totals"]
    asker, other = (pair.host, pair.guest) if first == "host" else (pair.guest, pair.host)
    assert asker.may_rematch() and other.may_rematch()
    conn, mark = pair.conn, len(pair.conn.sent)
    asker.ask_rematch()
    assert saved(pair, first)["asked"] == asker.series().to_json()  # type: ignore[union-attr]
    assert not asker.may_rematch()
    with pytest.raises(ValueError):
        asker.ask_rematch()  # once
    pair.conn.deliver()
    assert other.heard == asker.asked and other.match_no == asker.match_no == 1
    assert other.may_rematch() and not other.starting
    other.ask_rematch()  # accepts: the next match begins at once here, and there on arrival
    pair.conn.deliver()
    agreed(pair, [totals], started)
    assert pair.conn is conn and conn.open  # the same room, the same connection
    crossed = sent_kinds(pair, mark)
    assert [k for _, k, _ in crossed[:2]] == ["rematch", "rematch"]
    for who in ("host", "guest"):  # the new match's messages are numbered afresh, after
        seqs = [seq for w, k, seq in crossed if w == who and k == "fair"]
        assert seqs == list(range(1, len(seqs) + 1)) and seqs
    play_out(pair, [totals])


def test_both_asking_at_once_agree_on_one_match() -> None:
    pair = ended(seed=4, first=0)
    totals = pair.host.view()["totals"]
    pair.host.ask_rematch()
    pair.guest.ask_rematch()  # both requests cross on the wire
    pair.conn.deliver()
    agreed(pair, [totals], 0)
    play_out(pair, [totals])
    # and once more: the third match counts all three
    second = pair.host.view()["totals"]
    pair.guest.ask_rematch()
    pair.host.ask_rematch()
    pair.conn.deliver()
    assert pair.host.match_no == pair.guest.match_no == 3
    play_out(pair, [totals, second])


def test_a_rematch_asked_while_the_other_page_is_gone_waits_for_it() -> None:
    pair = ended(seed=5)
    pair.conn.cut()
    pair.host.ask_rematch()  # nothing to send on: saved, and sent on the next connection
    assert pair.host.asked is not None and pair.guest.heard is None
    pair.reconnect()
    assert pair.guest.heard == pair.host.asked
    pair.guest.ask_rematch()
    pair.conn.deliver()
    assert pair.host.match_no == pair.guest.match_no == 2


def test_no_rematch_before_the_end_or_once_the_host_left() -> None:
    pair = Pair(ONE, first=0, seed=6)
    pair.play(5)
    for seat in (pair.host, pair.guest):
        assert not seat.may_rematch() and seat.series() is None
        with pytest.raises(ValueError):
            seat.ask_rematch()
    pair.play()
    pair.host.ask_rematch()
    pair.host.leave()
    pair.conn.deliver()
    assert pair.guest.host_away == "left" and not pair.guest.may_rematch()
    with pytest.raises(ValueError):
        pair.guest.ask_rematch()


# ---- reloads and dropped connections -------------------------------------------------------


def test_a_request_survives_reloads_of_either_page_and_so_does_the_next_match() -> None:
    pair = ended(seed=7)
    totals = pair.host.view()["totals"]
    assert pair.host.peer is not None and pair.host.peer.state is not None
    started = pair.host.peer.state.first_player
    pair.host.ask_rematch()
    pair.conn.to_guest.clear()  # lost on the way
    pair.reload("host")  # from its last write: the request, sent again once greeted
    assert pair.host.asked is not None and pair.guest.heard == pair.host.asked
    pair.reload("guest")  # what it heard is not saved: the host asks again
    assert pair.guest.heard == pair.host.asked and pair.guest.match_no == 1
    pair.guest.ask_rematch()
    pair.conn.deliver()
    agreed(pair, [totals], started)
    pair.play(7)
    pair.reload("guest")
    pair.play(7)
    pair.reload("host", from_last_write=False)
    assert pair.host.match_no == pair.guest.match_no == 2
    assert pair.host.carried == pair.guest.carried is not None
    play_out(pair, [totals])
    pair.reload("guest")  # the series still counts both matches at the end, after a reload
    series = pair.host.series()
    assert series is not None and pair.guest.series() == series and len(series.results) == 2


@pytest.mark.parametrize("behind", ["guest", "host"])
@pytest.mark.parametrize("how", ["reconnect", "reload"])
def test_a_page_left_behind_at_the_rematch_is_caught_up(behind: str, how: str) -> None:
    pair = ended(seed=8)
    totals = pair.host.view()["totals"]
    assert pair.host.peer is not None and pair.host.peer.state is not None
    started = pair.host.peer.state.first_player
    ahead = pair.host if behind == "guest" else pair.guest
    late = pair.guest if behind == "guest" else pair.host
    late.ask_rematch()
    pair.conn.deliver()
    ahead.ask_rematch()  # agreed here: the next match begins...
    assert ahead.match_no == 2 and late.match_no == 1
    pair.conn.to_guest.clear()  # ...and the consent and the new match's first messages are
    pair.conn.to_host.clear()   # lost with the connection
    if how == "reload":
        pair.reload(behind)
    else:
        pair.reconnect()
    agreed(pair, [totals], started)
    assert not pair.host.stopped and not pair.guest.stopped
    play_out(pair, [totals])


# ---- what a hostile page can do ------------------------------------------------------------


def rematch_text(match: Any, series: Any, **extra: Any) -> str:
    return json.dumps({"lc": "rematch", "match": match, "series": series, **extra})


def hostile_rematches(key: str, totals: list[int]) -> list[tuple[str, str]]:
    """(text, what the refusal says) of rematch messages a hostile host might send."""
    good = {"key": key, "results": [totals]}
    other = Series("0" * 32, ((totals[0], totals[1]),)).to_json()
    return [
        (json.dumps({"lc": "rematch", "match": 1}), "malformed"),
        (rematch_text(1, good, extra=1), "malformed"),
        (rematch_text(1, {**good, "key": MARKUP}), "malformed"),
        (rematch_text(1, {**good, "results": [[True, 0]]}), "malformed"),
        (rematch_text(1, {**good, "results": [[MAX_TOTAL + 1, 0]]}), "malformed"),
        (rematch_text(1, {**good, "results": [totals, totals]}), "malformed"),
        (rematch_text(1, {**good, "results": [totals] * 201}), "malformed"),
        (rematch_text("1", good), "malformed"),
        (rematch_text(0, good), "malformed"),
        (rematch_text(1001, good), "malformed"),
        (rematch_text(1, [good]), "malformed"),
        (rematch_text(2, {**good, "results": [totals, totals]}), "follows match 2"),
        (rematch_text(1, other), "another series"),
    ]


def test_malformed_and_hostile_rematch_messages_are_refused_and_change_nothing() -> None:
    pair = ended(seed=9)
    guest = pair.guest
    totals = guest.view()["totals"]
    before = (guest.saved_text(), guest.view())
    for text, says in hostile_rematches(key_of(pair), totals):
        guest.rematch_refused = None
        pair.conn.to_guest.append(text)
        pair.conn.deliver()
        assert guest.rematch_refused is not None, text
        assert says in str(problem_text("en", guest.rematch_refused)), text
        assert guest.heard is None and guest.match_no == 1 and not guest.stopped
        assert (guest.saved_text(), guest.view()) == before and guest.may_rematch()
    # the honest request still begins the next match
    pair.host.ask_rematch()
    pair.conn.deliver()
    assert guest.heard == pair.host.asked and guest.rematch_refused is None
    guest.ask_rematch()
    pair.conn.deliver()
    assert pair.host.match_no == guest.match_no == 2


def test_a_rematch_mid_match_is_refused_and_the_match_goes_on() -> None:
    pair = Pair(ONE, first=0, seed=10)
    pair.play(9)
    view = pair.guest.view()
    series = Series(key_of(pair), ((0, 0),))
    pair.conn.to_guest.append(control.rematch(1, series))
    pair.conn.deliver()
    assert pair.guest.rematch_refused == {"code": "rematch-mid-match", "data": {}}
    assert "sigue en juego" in str(problem_text("es", pair.guest.rematch_refused))
    assert pair.guest.heard is None and not pair.guest.stopped and pair.guest.view() == view
    play_out(pair, [])


def test_series_that_differ_are_refused_and_the_request_stands() -> None:
    pair = ended(seed=11)
    guest, totals = pair.guest, pair.guest.view()["totals"]
    guest.ask_rematch()
    before = guest.saved_text()
    for results, says in (([[totals[0] + 1, totals[1]]], "differ"),
                          ([], "ahead of the host's")):
        pair.conn.to_guest.append(control.rematch(1, Series(key_of(pair), tuple(
            (a, b) for a, b in results))))
        pair.conn.deliver()
        assert guest.rematch_refused is not None
        assert says in str(problem_text("en", guest.rematch_refused))
        assert guest.match_no == 1 and guest.heard is None and guest.saved_text() == before
    pair.conn.to_host.clear()
    pair.host.ask_rematch()
    pair.conn.deliver()
    assert pair.host.match_no == guest.match_no == 2


def test_a_guest_that_lost_its_series_takes_the_hosts() -> None:
    pair = ended(seed=12)
    first = pair.host.view()["totals"]
    pair.host.ask_rematch()
    pair.guest.ask_rematch()
    pair.conn.deliver()
    doc = saved(pair, "guest")
    doc["series"] = None  # a save without its series (as a page begun from the welcome)
    pair.storage["guest"].setItem(GUEST_KEY, json.dumps(doc))
    pair.reload("guest")
    assert pair.guest.carried is None and pair.host.carried is not None
    pair.play()
    second = pair.host.view()["totals"]
    mine = pair.guest.series()
    assert mine is not None and mine.results == () and mine.key == key_of(pair)
    pair.guest.ask_rematch()
    pair.host.ask_rematch()
    pair.conn.deliver()  # the host's series is the longer: both carry it
    assert pair.guest.carried == pair.host.carried
    assert pair.host.carried is not None and len(pair.host.carried.results) == 2
    play_out(pair, [first, second])


def test_the_old_matchs_messages_are_refused_in_the_next() -> None:
    pair = ended(seed=13)
    old = [text for who, text, _ in pair.conn.sent if who == "host" and '"fair"' in text]
    pair.host.ask_rematch()
    pair.guest.ask_rematch()
    pair.conn.deliver()
    pair.play(3)
    assert pair.host.match_no == pair.guest.match_no == 2
    # the other page's request for the match begun here, sent again: nothing happens
    view = pair.guest.view()
    pair.conn.to_guest.append(control.rematch(1, pair.host.carried))  # type: ignore[arg-type]
    pair.conn.deliver()
    assert pair.guest.rematch_refused is None and pair.guest.view() == view
    # the first match's fair messages do not belong to the second: a failed check
    pair.conn.to_guest.append(old[0])
    pair.conn.deliver()
    assert pair.guest.stopped and pair.guest.peer is not None
    assert pair.guest.peer.error is not None and pair.guest.peer.error.code == "replayed"


def test_a_hello_under_another_match_is_refused() -> None:
    pair = ended(seed=14)
    pair.host.ask_rematch()
    pair.guest.ask_rematch()
    pair.conn.deliver()
    pair.conn.cut()
    end = KeptLink()
    sent = end.sent
    assert pair.host.accept(end, {"token": pair.guest.token}, 0.0) is None
    for match in (3, 5):  # ahead of the host without a request of the host's to agree to
        pair.host.receive(end, control.hello(APP_VERSION, "Ben", match, 0), 0.0)
        assert json.loads(sent[-1])["code"] == "no-match"
        assert pair.host.accept(end, {"token": pair.guest.token}, 0.0) is None
    assert pair.host.match_no == 2 and not pair.host.stopped


def test_a_save_with_a_bad_series_or_request_is_refused() -> None:
    pair = ended(seed=15)
    pair.guest.ask_rematch()
    doc = json.loads(json.dumps(pair.guest.to_json()))
    assert FairGuest.from_json(doc, 0.0).asked == pair.guest.asked
    other = Series("0" * 32, ()).to_json()
    for name in ("series", "asked"):
        for bad, says in ((other, "not this room's"), ({"key": MARKUP}, "bad"),
                          ({**doc["asked"], "results": [[1, 2]] * 2}, "more matches")):
            with pytest.raises(CorruptSave, match=says):
                FairGuest.from_json({**doc, name: bad}, 0.0)
    host = json.loads(json.dumps(pair.host.to_json()))
    with pytest.raises(CorruptSave, match="not this room's"):
        FairHost.from_json({**host, "series": other}, 0.0)


def test_control_rematch_messages_are_bounded() -> None:
    key = "a" * 32
    longest = control.rematch(control.MAX_MATCHES, Series(
        key, ((-MAX_TOTAL, -MAX_TOTAL),) * control.MAX_SERIES_RESULTS))
    assert len(longest.encode()) <= control.MAX_CONTROL_BYTES
    message = control.parse(longest)
    assert message is not None and message.kind == "rematch"
    assert message.series is not None and len(message.series.results) == 200
    with pytest.raises(ValueError, match="too long"):
        control.rematch(500, Series(key, ((1, 2),) * 201))
    with pytest.raises(control.ControlError) as caught:
        control.parse(rematch_text(1, {"key": key, "results": [[1, 2]] * 2}))
    assert caught.value.kind == "rematch"


# ---- through the controllers: both screens ----------------------------------------------------


def booted_with_players(store: MemoryStorage) -> MatchController:
    controller = MatchController(MemoryPage(), store, "en")
    controller.pace = 0.0
    Players(controller, Downloads()).plug()
    return controller


class Downloads:
    def download(self, name: str, text: str) -> None:
        raise AssertionError("no file here")


SERIES = re.compile(r'data-series data-player="(\d)">(\d+)<')


def series_shown(controller: MatchController) -> dict[int, int]:
    """What `[data-series][data-player]` holds on the screen, by player."""
    return {int(p): int(n) for p, n in SERIES.findall(page_of(controller).shown.doc)}


def play_by_clicks(pair: Pair, pages: dict[str, MatchController]) -> None:
    while (seat := pair.actor()) is not None:
        click_move(pages["host" if seat is pair.host else "guest"], pair.choose(seat))
        pair.conn.deliver()


def wins(totals: list[list[int]], player: int) -> int:
    return sum(1 for t in totals if t[player] > t[1 - player])


def test_both_screens_agree_on_the_series_after_a_rematch_and_a_reload() -> None:
    pair = Pair(ONE, first=1, seed=16)
    pages = {"host": booted_with_players(pair.storage["host"]),
             "guest": booted_with_players(pair.storage["guest"])}
    pages["host"].play(pair.host)
    pages["guest"].play(pair.guest)
    play_by_clicks(pair, pages)
    finished(pair)
    totals = [pair.host.view()["totals"]]
    for controller in pages.values():
        controller.render()
        doc = page_of(controller).shown.doc
        assert page_of(controller).shown.screen == "match-end"
        assert 'data-action="play-again"' in doc and "data-rematch" not in doc
        assert series_shown(controller) == {0: wins(totals, 0), 1: wins(totals, 1)}
    pages["host"].click("play-again", {})
    assert 'data-rematch="asked"' in page_of(pages["host"]).shown.doc
    assert 'data-action="play-again"' not in page_of(pages["host"]).shown.doc
    pair.conn.deliver()
    guest_doc = page_of(pages["guest"]).shown.doc
    assert 'data-rematch="invited"' in guest_doc and "Ana asks for a rematch" in guest_doc
    pages["guest"].click("lang", {})
    assert "Ana pide la revancha" in page_of(pages["guest"]).shown.doc
    pages["guest"].click("lang", {})
    pages["guest"].click("play-again", {})
    pair.conn.deliver()
    for controller in pages.values():
        assert page_of(controller).shown.screen == "turn"
    pair.play(6)  # moves not by clicks: each page hears the other's
    # the guest's page reloads mid-match: a new controller, the seat from its save
    doc = json.loads(pair.storage["guest"].items[GUEST_KEY])
    assert doc["match"] == 2
    pair.conn.cut()
    seat = FairGuest.from_json(doc, 0.0)
    seat.load(GROUP)
    seat.set_store(pair.storage["guest"])
    pair.guest = seat
    pages["guest"] = booted_with_players(pair.storage["guest"])
    pages["guest"].play(seat)
    pair.reconnect()
    play_by_clicks(pair, pages)
    finished(pair)
    totals.append(pair.host.view()["totals"])
    for controller in pages.values():
        controller.render()
        assert page_of(controller).shown.screen == "match-end"
        assert series_shown(controller) == {0: wins(totals, 0), 1: wins(totals, 1)}
        assert 'data-series-matches="2"' in page_of(controller).shown.doc
    for store in pair.storage.values():  # each page recorded both matches, in its history
        assert len(load(store.items[HISTORY_KEY]).records) == 2


def test_a_refused_rematch_message_is_said_as_text() -> None:
    pair = ended(seed=17)
    controller = booted_with_players(pair.storage["guest"])
    controller.play(pair.guest)
    pair.conn.to_guest.append(rematch_text(1, {"key": MARKUP, "results": []}))
    pair.conn.deliver()
    controller.render()
    doc = page_of(controller).shown.doc
    assert "rematch message from the other page was refused" in doc
    assert "<img" not in doc and 'data-action="play-again"' in doc


def test_the_seats_series_is_the_one_the_players_features_count() -> None:
    seat: FairSeat = ended(seed=18).host
    assert seat.series() is not None and seat.series().key == series_key(  # type: ignore[union-attr]
        mode="online", names=seat.view()["names"], options=ONE, room="ABCDEF")
