"""The page's one controller without a browser: every kind of match through the same paths.

The page and its storage are in memory (controllerkit.py); the seats, the engine and the
screens are the real ones; an online host plays a real guest over an in-memory connection
(fairseats.py).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

import lostcities
from controllerkit import (
    FORM, MemoryPage, MemoryStorage, booted, click_move, first_legal, page_of, run, saved, until,
)
from fairseats import GROUP, TOKEN, Connection
from webui.match.controller import MatchController
from webui.match.seats import MATCH_KEY, Seat, problem
from webui.match.seats.computer import BotMatch
from webui.match.seats.local import LocalMatch
from webui.match.session import Session
from webui.online import control
from webui.online.codes import GUEST_KEY, HOST_KEY
from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.screens.online import sync_mark
from webui.text.i18n import t

# ---- a match on this device ------------------------------------------------------------------


def test_a_match_is_saved_after_the_paint_and_resumes_after_a_reload() -> None:
    storage = MemoryStorage()
    controller = booted(storage)
    page = page_of(controller)
    assert page.shown.screen == "setup"
    controller.click("start", {})
    assert page.shown.screen == "handoff" and "Ana" in page.shown.doc
    assert MATCH_KEY not in storage.items  # not before the paint
    page.paint()
    assert saved(storage)["match"]["state"]["phase"] == "play"
    controller.click("ready", {})
    move = first_legal(controller.session.view())  # type: ignore[union-attr]
    click_move(controller, move)
    before = saved(storage)  # the ready and the play wait for the paint
    assert before["ui"]["handoff"] is True and before["match"]["state"]["phase"] == "play"
    page.paint()
    assert saved(storage)["ui"]["handoff"] is False
    assert saved(storage)["match"]["state"]["phase"] == "draw"
    again = booted(storage)  # a reload
    assert page_of(again).shown.screen == page.shown.screen == "turn"
    assert page_of(again).shown.doc == page.shown.doc


@pytest.mark.parametrize("lang, heading, played, drew", [
    ("en", "The last turn", "Ana played", "Ana drew"),
    ("es", "El último turno", "Ana jugó", "Ana robó"),
])
def test_the_hand_off_screen_tells_the_whole_last_turn(lang: str, heading: str, played: str,
                                                      drew: str) -> None:
    controller = booted(MemoryStorage())
    controller.lang = lang
    controller.click("start", {})
    assert "section class=\"last\"" not in page_of(controller).shown.doc  # nothing yet
    controller.click("ready", {})
    view = controller.session.view()  # type: ignore[union-attr]
    play = next(m for m in view["legal_moves"] if m["type"] == "play")
    click_move(controller, play)
    click_move(controller, {"type": "draw", "source": "deck"})
    page = page_of(controller)
    assert page.shown.screen == "handoff"
    last = page.shown.doc.split('class="last"')[1].split("</section>")[0]
    assert heading in last and last.count("<li>") == 2
    assert last.index(played) < last.index(drew)
    assert "Ben" not in last  # only the turn just played


def test_a_save_that_cannot_be_loaded_is_set_aside_with_a_notice() -> None:
    storage = MemoryStorage()
    storage.setItem(MATCH_KEY, '{"app": "lostcities-webui"')
    controller = booted(storage)
    page = page_of(controller)
    assert page.shown.screen == "setup" and controller.session is None
    assert 'role="alert"' in page.shown.banners and "set aside" in page.shown.banners
    assert MATCH_KEY not in storage.items
    assert list(storage.items.values()) == ['{"app": "lostcities-webui"']
    controller.click("dismiss-notice", {})
    controller.click("start", {})  # the page still works
    assert page.shown.screen == "handoff" and page.shown.banners == ""


def test_a_match_that_cannot_be_shown_is_set_aside_and_the_setup_shows() -> None:
    storage = MemoryStorage()
    page = MemoryPage()
    controller = booted(storage, page)
    controller.click("start", {})
    page.paint()
    good = storage.items[MATCH_KEY]
    page.refuse = lambda frame: frame.screen == "turn"
    controller.click("ready", {})
    assert page.shown.screen == "setup" and controller.session is None
    assert "RuntimeError: the DOM refused the turn screen" in page.shown.banners
    aside = [v for k, v in storage.items.items() if k.startswith(MATCH_KEY + ".set-aside.")]
    assert MATCH_KEY not in storage.items and len(aside) == 1
    assert json.loads(aside[0])["match"] == json.loads(good)["match"]
    assert json.loads(aside[0])["ui"]["handoff"] is False  # the match as it was when it failed


def test_a_full_storage_is_said_and_the_match_goes_on() -> None:
    storage = MemoryStorage(room=100)
    controller = booted(storage)
    page = page_of(controller)
    controller.click("start", {})
    page.paint()
    assert "QuotaExceededError" in page.shown.banners and MATCH_KEY not in storage.items
    controller.click("ready", {})
    assert page.shown.screen == "turn"


def test_abandoning_asks_first_then_forgets_the_match() -> None:
    storage = MemoryStorage()
    controller = booted(storage)
    page = page_of(controller)
    controller.click("start", {})
    page.paint()
    controller.click("abandon", {})
    assert 'data-action="abandon-yes"' in page.shown.banners
    assert page.shown.focus == '[data-action="abandon-no"]'
    controller.click("abandon-no", {})
    assert page.shown.banners == "" and page.shown.screen == "handoff"
    controller.click("abandon", {})
    controller.click("abandon-yes", {})
    assert page.shown.screen == "setup" and MATCH_KEY not in storage.items
    page.paint()
    assert MATCH_KEY not in storage.items  # no save left due


def test_the_page_wide_actions() -> None:
    storage = MemoryStorage()
    controller = booted(storage)
    page = page_of(controller)
    controller.click("lang", {})
    assert page.shown.lang == "es" and storage.items["lostcities.lang"] == "es"
    controller.click("rules", {})
    assert "rules-page" in page.shown.rules and page.shown.focus == '[data-action="rules-close"]'
    controller.escape()
    assert page.shown.rules == ""
    page.form["rounds"] = "9"
    controller.click("start", {})
    assert page.shown.screen == "setup" and "rounds" in page.shown.banners
    assert page.logged and controller.session is None


# ---- the computer and hints ------------------------------------------------------------------


def test_the_computer_thinks_in_slices_and_its_moves_are_shown_and_saved() -> None:
    storage = MemoryStorage()
    page = MemoryPage({**FORM, "opponent": "medium", "starts": "1"})

    async def scenario() -> None:
        controller = booted(storage, page)
        controller.click("start", {})  # the computer (player 2) starts
        await until(lambda: page.shown.thinking)
        assert "is thinking" in page.shown.doc
        seat = controller.session.seat  # type: ignore[union-attr]
        assert isinstance(seat, BotMatch)
        await until(lambda: seat.to_think() is None and not page.shown.thinking)
        assert len(seat.view()["log"]) == 2  # its play and its draw
        page.paint()
        assert saved(storage)["match"]["bot_moves"] == 2
        assert "thinking" not in page.shown.doc and page.shown.screen == "turn"

    run(scenario)


def test_without_the_bots_the_computer_says_so_and_its_match_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bots come with app-more.zip: a page that could not load it starts a match against
    the computer (the human plays on), and when the computer is to move it says what is
    missing; the match stays saved, and a page with the bots goes on from it."""
    storage = MemoryStorage()
    page = MemoryPage({**FORM, "opponent": "medium", "starts": "1"})
    monkeypatch.setitem(sys.modules, "lostcities.bots", None)  # import raises ImportError

    async def scenario() -> None:
        controller = booted(storage, page)
        controller.click("start", {})  # the computer (player 2) starts
        await until(lambda: controller.notice is not None and controller.thinking() is None)
        assert controller.notice == t("en", "notice.more-failed")
        assert "Online play, the computer" in page.shown.banners
        page.paint()
        assert saved(storage)["match"]["bot_moves"] == 0
        monkeypatch.undo()  # app-more.zip loads on the next visit
        again = booted(storage, MemoryPage())
        again.kick()  # as the page does once booted
        await until(lambda: again.session is not None
                    and again.session.seat.to_think() is None)
        assert len(again.session.view()["log"]) == 2  # type: ignore[union-attr]

    run(scenario)


def test_a_hint_is_worked_out_and_shown_for_the_player_to_act() -> None:
    async def scenario() -> None:
        controller = booted(MemoryStorage())
        page = page_of(controller)
        controller.click("start", {})
        controller.click("ready", {})
        controller.click("hint", {})
        assert 'aria-busy="true"' in page.shown.doc  # being worked out
        await until(lambda: "hint-box" in page.shown.doc)
        box = page.shown.doc.split('data-hint="', 1)[1].split('"', 1)[0]
        move = json.loads(box.replace("&quot;", '"'))
        assert move in controller.session.view()["legal_moves"]  # type: ignore[union-attr]

    run(scenario)


def test_a_hint_online_is_each_players_own_and_sends_nothing() -> None:
    """Each page's player may ask for a hint on its own turn: the Hard bot's move for that
    player's own view; the other page's Hint is disabled meanwhile; asking sends nothing
    and changes nothing."""
    host = FairHost.create("ABCDEF", lostcities.Options(rounds=1), 0, "Ana", 0.0)
    guest = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    pages = {}
    for name, seat in (("host", host), ("guest", guest)):
        seat.load(GROUP)
        seat.set_store(MemoryStorage())
        pages[name] = booted(MemoryStorage())
        pages[name].play(seat)
    conn = Connection(host, guest)
    conn.deliver()

    async def scenario() -> None:
        for _ in range(2):  # the host's turn, then the guest's
            actor, other = ((pages["host"], pages["guest"]) if host.view()["to_act"] == 0
                            else (pages["guest"], pages["host"]))
            for controller in pages.values():
                controller.render()
            hint = page_of(other).shown.doc.split('data-action="hint"')[1].split(">")[0]
            assert "disabled" in hint
            sent, view = len(conn.sent), actor.session.view()  # type: ignore[union-attr]
            actor.click("hint", {})
            await until(lambda: "hint-box" in page_of(actor).shown.doc)
            box = page_of(actor).shown.doc.split('data-hint="', 1)[1].split('"', 1)[0]
            move = json.loads(box.replace("&quot;", '"'))
            assert move in view["legal_moves"]
            assert "hint-box" not in page_of(other).shown.doc
            conn.deliver()
            assert len(conn.sent) == sent and actor.session.view() == view  # type: ignore[union-attr]
            for step in (first_legal(view), {"type": "draw", "source": "deck"}):
                click_move(actor, step)
                conn.deliver()

    run(scenario)


DECK = '[data-action="draw"][data-source="deck"]'
HAND = '[data-zone="hand"] [data-action="select"][tabindex="0"]'


def test_the_focus_follows_the_turn_to_the_deck_then_back_to_the_hand() -> None:
    """Against the computer: once the player has played, the focus goes to the deck; once
    their turn comes back, to the one card of their hand in the tab order. Frames that move
    nothing on (a card picked, a tick) leave the focus where the player put it."""
    async def scenario() -> None:
        controller = booted(MemoryStorage(), MemoryPage({**FORM, "opponent": "easy"}))
        page = page_of(controller)
        controller.click("start", {})
        session = controller.session
        assert session is not None and page.shown.screen == "turn"
        await until(lambda: controller.thinking() is None and session.seat.to_think() is None)
        view = session.view()
        card = next(m["card"] for m in view["legal_moves"] if m["type"] == "discard")
        controller.click("select", {"card": card})
        assert page.shown.focus is None  # a pick: the focus stays on the card
        assert page.shown.doc.count('tabindex="0"') == 1
        assert f'data-card="{card}" aria-pressed="true"' in page.shown.doc
        controller.click("discard", {})
        assert page.shown.focus == DECK
        controller.render()  # the same step again: the focus is left alone
        assert page.shown.focus is None
        controller.click("draw", {"source": "deck"})
        assert page.shown.focus is None  # the computer's turn
        await until(lambda: controller.thinking() is None and session.seat.to_think() is None
                    and session.view()["to_act"] == 0)
        focused = [f.focus for f in page.frames if f.focus is not None]
        assert focused[-1] == HAND and page.shown.doc.count('tabindex="0"') == 1

    run(scenario)


# ---- listeners and plugged screens -----------------------------------------------------------


def test_listeners_hear_each_view_and_the_end_once() -> None:
    storage = MemoryStorage()
    controller = booted(storage)
    views: list[tuple[str, str]] = []
    ends: list[tuple[Any, str]] = []
    controller.on_view(lambda view, seat: views.append((view["phase"], seat.mode)))
    controller.on_match_end(lambda view, seat: ends.append((view["winner"], seat.mode)))
    controller.click("start", {})
    controller.click("ready", {})
    session = controller.session
    assert session is not None
    for _ in range(400):
        view = session.view()
        if view["phase"] == "match-end":
            break
        if session.ui.handoff:
            controller.click("ready", {})
        else:
            click_move(controller, first_legal(view))
    assert page_of(controller).shown.screen == "match-end"
    assert ends == [(session.view()["winner"], "pass-and-play")]
    assert views[-1] == ("match-end", "pass-and-play") and len(views) > 50
    controller.click("select", {"card": "R7"})  # a table action on the result: not a new end
    assert len(ends) == 1
    page_of(controller).paint()
    again = MatchController(MemoryPage(), storage, "en")  # a reload
    again.on_match_end(lambda view, seat: ends.append((view["winner"], seat.mode)))
    again.resume()
    again.click("select", {"card": "R7"})
    assert len(ends) == 1  # resumed already over: not told again


class Stats:
    """A screen outside a match, as another feature plugs one in."""

    def __init__(self) -> None:
        self.open = False
        self.closed = 0

    def handle(self, action: str, data: dict[str, str]) -> bool:
        if action == "stats":
            self.open = True
        elif action == "stats-close" and self.open:
            self.open = False
        else:
            return False
        return True

    def render(self, lang: str) -> tuple[str, str] | None:
        if not self.open:
            return None
        if lang == "es":
            raise ValueError("no Spanish yet")
        return "stats", '<section><h1>Stats</h1><button data-action="stats-close">x</button>' \
                        '</section>'

    def close(self) -> None:
        self.open = False
        self.closed += 1


def test_a_plugged_screen_gets_clicks_first_and_shows_while_it_renders() -> None:
    controller = booted(MemoryStorage())
    page = page_of(controller)
    stats = Stats()
    controller.plug(stats)
    controller.click("stats", {})
    assert page.shown.screen == "stats" and "<h1>Stats</h1>" in page.shown.doc
    controller.click("stats-close", {})
    assert page.shown.screen == "setup"
    controller.click("stats", {})
    controller.click("lang", {})  # it can't be shown in Spanish: closed, the setup shows
    assert stats.closed == 1 and page.shown.screen == "setup"
    assert "no Spanish yet" in page.shown.banners


# ---- an online match -------------------------------------------------------------------------


class Net:
    """A transport that only says whether it is closed."""

    def __init__(self) -> None:
        self.status: str | None = None
        self.closed: list[float] = []
        self.ticks = 0

    def close(self, delay: float = 0.0) -> None:
        self.closed.append(delay)

    def tick(self) -> None:
        self.ticks += 1


def test_an_online_match_goes_through_the_same_paths() -> None:
    """The host's page: the seat waits, the guest's moves are shown and saved after the
    paint under the room's key, the badge follows the connection, leaving asks first, tells
    the guest and closes the transport, and the match this device held comes back."""
    storage = MemoryStorage()
    storage.setItem(MATCH_KEY, Session(LocalMatch.new(lostcities.Options(), 5, 0, ("A", "B")))
                    .save_text() or "")
    controller = booted(storage)
    page = page_of(controller)
    assert page.shown.screen == "turn" or page.shown.screen == "handoff"
    host = FairHost.create("ABCDEF", lostcities.Options(rounds=1), 1, "Ana", 0.0)
    host.load(GROUP)
    host.set_store(storage)
    net = Net()
    host.attach(net)
    controller.play(host)
    controller.render()
    assert page.shown.screen == "setup"  # no plugged screen shows the waiting room here
    page.paint()
    assert json.loads(storage.items[HOST_KEY])["code"] == "ABCDEF"
    guest = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    guest.load(GROUP)
    guest.set_store(MemoryStorage())
    conn = Connection(host, guest)
    conn.deliver()
    assert page.shown.screen == "turn" and 'data-connection="connected"' in page.shown.doc
    assert guest.view()["to_act"] == 1
    page.paint()

    def heard() -> int:
        transcript = json.loads(storage.items[HOST_KEY])["peer"]["transcript"]
        return sum(entry["dir"] == "in" for entry in transcript)

    before = heard()
    move = first_legal(guest.view())
    assert guest.submit(move) is None  # the guest's move, heard on the host's page
    conn.deliver()
    assert f'data-sync="{sync_mark(host.view())}"' in page.shown.doc
    assert heard() == before  # saved once painted
    page.paint()
    assert heard() == before + 1
    page.now = 30.0  # the guest falls silent: the badge says so on the next tick
    for tick in page.every:
        tick()
    assert 'data-connection="lost"' in page.shown.doc
    controller.click("leave-room", {})
    assert 'data-action="stay"' in page.shown.doc and controller.session is not None
    controller.click("leave-room", {})
    conn.deliver()
    assert guest.host_away == "left" and net.closed == [0.5]
    assert HOST_KEY not in storage.items
    assert isinstance(controller.session.seat, LocalMatch)  # type: ignore[union-attr]
    assert page.shown.screen in ("turn", "handoff")


def test_an_online_table_has_one_way_out_playing_and_once_stopped() -> None:
    """While the match is played the table's Abandon is the way out (its question in the
    badge); once the seat has stopped (here: moved to another tab) nothing is left to play,
    and the badge's Leave room is the one way out, without Abandon beside it."""
    storage = MemoryStorage()
    controller = booted(storage)
    page = page_of(controller)
    host = FairHost.create("ABCDEF", lostcities.Options(rounds=1), 1, "Ana", 0.0)
    host.load(GROUP)
    host.set_store(storage)
    host.attach(Net())
    controller.play(host)
    guest = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    guest.load(GROUP)
    guest.set_store(MemoryStorage())
    Connection(host, guest).deliver()
    assert page.shown.screen == "turn"
    assert 'data-action="abandon"' in page.shown.doc
    assert 'data-action="leave-room"' not in page.shown.doc
    host.halt(problem("moved"))
    controller.render()
    assert page.shown.screen == "turn"
    assert 'data-action="abandon"' not in page.shown.doc
    assert page.shown.doc.count('data-action="leave-room"') == 1


def test_a_guest_refused_by_the_host_forgets_its_seat_at_once() -> None:
    storage = MemoryStorage()
    controller = booted(storage)
    guest = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    net = Net()
    guest.attach(net)
    controller.play(guest)
    page_of(controller).paint()
    assert GUEST_KEY in storage.items
    for _ in range(3):
        page_of(controller).every[0]()
    assert net.ticks == 3  # the transport's heartbeat, once a second
    guest.opened(lambda text: None, 0.0)
    guest.receive(control.refused("forbidden", "room ABCDEF already has a guest"), 0.0)
    assert guest.refused and GUEST_KEY not in storage.items  # at once, not after a paint
    page_of(controller).paint()
    assert GUEST_KEY not in storage.items
    controller.click("leave-room", {})  # nothing to lose: no question
    assert controller.session is None and net.closed == [0.0]


@pytest.mark.parametrize("mode", ["pass-and-play", "computer", "online"])
def test_every_seat_says_its_mode(mode: str) -> None:
    seats: dict[str, Seat] = {
        "pass-and-play": LocalMatch.new(lostcities.Options(), 1, 0, ("A", "B")),
        "computer": BotMatch.new(lostcities.Options(), 1, 0, ("A", "B"), "easy"),
        "online": FairGuest("ABCDEF", TOKEN, "Ben", 0.0),
    }
    assert seats[mode].mode == mode
