"""One tab per seat (webui/online/seatlock.py): the tabs of one browser share the locks; a
second tab on the same room's seat runs nothing and says the match is open in another tab;
taking it over moves the seat, and the first tab halts its seat (disconnected, nothing more
sent or written) and says the match moved. Natively: tests/tablocks.py's in-memory locks, and
the seats over tests/fairseats.py's connection, each tab resuming its seat from the storage
both share."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from controllerkit import MemoryPage, page_of
from fairseats import GROUP, Connection, Pair, finished
from tablocks import MemoryLocks

from lostcities import Options
from webui.match.controller import MatchController
from webui.match.seats import problem
from webui.online.codes import GUEST_KEY
from webui.online.guest import FairGuest
from webui.online.seatlock import Release, SeatGuard, lock_name
from webui.screens.online import problem_text, render_elsewhere


def test_a_lock_a_seat_of_a_room() -> None:
    assert lock_name("abc-def", 1) == lock_name("ABCDEF", 1) == "lostcities.seat.ABCDEF.1"
    assert lock_name("ABCDEF", 0) != lock_name("ABCDEF", 1) != lock_name("ABCDEG", 1)
    for code, seat in (("OOOOOO", 0), ("ABCDEF", 2), ("ABCDEF", True)):
        with pytest.raises(ValueError):
            lock_name(code, seat)  # type: ignore[arg-type]


class Tab:
    """One tab's guard, counting what it ran and stopped."""

    def __init__(self, locks: MemoryLocks) -> None:
        self.guard = SeatGuard(locks, self.changed)
        self.runs = self.stops = self.changes = 0

    def changed(self) -> None:
        self.changes += 1

    def claim(self, code: str = "ABCDEF", seat: int = 1) -> None:
        self.guard.claim(code, seat, self.run, self.stop)

    def run(self) -> None:
        self.runs += 1

    def stop(self) -> None:
        self.stops += 1


def test_a_second_tab_runs_nothing_until_it_takes_over_and_the_first_then_stops() -> None:
    locks = MemoryLocks()
    first, second = Tab(locks), Tab(locks)
    first.claim()
    assert first.guard.state == "held" and first.runs == 1
    second.claim()
    assert second.guard.state == "elsewhere" and second.runs == 0 and first.stops == 0
    assert second.guard.take_over()
    assert second.guard.state == "held" and second.runs == 1
    assert first.guard.state == "moved" and first.stops == 1 and first.runs == 1
    # the first tab takes it back
    assert first.guard.take_over()
    assert (first.guard.state, second.guard.state) == ("held", "moved")
    assert (first.runs, second.stops) == (2, 1)
    # another seat, or another room, is another lock
    other = Tab(locks)
    other.claim(seat=0)
    assert other.guard.state == "held"
    # a take-over in any other state changes nothing
    assert not first.guard.take_over() and first.guard.state == "held"
    fresh = Tab(locks)
    assert not fresh.guard.take_over() and fresh.guard.state == "none" and fresh.runs == 0


def test_leaving_lets_the_seat_go_and_a_stale_answer_is_let_go_too() -> None:
    locks = MemoryLocks()
    first, second = Tab(locks), Tab(locks)
    first.claim()
    first.guard.release()
    assert first.guard.state == "none" and not locks.holders
    second.claim()
    assert second.guard.state == "held"

    class Slow:
        """Locks that answer when the test says."""

        def __init__(self) -> None:
            self.pending: list[Callable[[Release | None], None]] = []

        def request(self, name: str, steal: bool, answer: Callable[[Release | None], None],
                    lost: Callable[[], None]) -> None:
            self.pending.append(answer)

    slow = Slow()
    tab = SeatGuard(slow, lambda: None)
    ran: list[str] = []
    tab.claim("ABCDEF", 1, lambda: ran.append("first"), lambda: None)
    tab.claim("ABCDEG", 1, lambda: ran.append("second"), lambda: None)
    released: list[int] = []
    slow.pending[0](lambda: released.append(0))  # the first claim's answer comes late
    assert ran == [] and released == [0] and tab.state == "claiming"
    slow.pending[1](lambda: released.append(1))
    assert ran == ["second"] and tab.state == "held" and tab.code == "ABCDEG"


class Browser:
    """The guest's browser: one storage, one set of locks, and its tabs, each of which runs
    the saved seat once it holds its lock (as webui/online/lobby.py does)."""

    def __init__(self, pair: Pair) -> None:
        self.pair = pair
        self.locks = MemoryLocks()
        self.store = pair.storage["guest"]

    def tab(self, seat: FairGuest | None = None) -> GuestTab:
        return GuestTab(self, seat)


class GuestTab:
    def __init__(self, browser: Browser, seat: FairGuest | None) -> None:
        self.browser = browser
        self.seat = seat
        self.guard = SeatGuard(browser.locks, lambda: None)
        self.shown: str | None = None
        self.controller: MatchController | None = None
        if seat is not None:
            self.controller = MatchController(MemoryPage(), browser.store, "en")
            self.controller.play(seat)

    def open(self) -> None:
        """The tab opens on the room: it claims the seat, and runs it from storage once held."""
        self.guard.claim("ABCDEF", 1, self.run, self.moved)
        self.shown = self.guard.state

    def run(self) -> None:
        pair = self.browser.pair
        doc = json.loads(self.browser.store.getItem(GUEST_KEY) or "null")
        seat = FairGuest.from_json(doc, pair.now)
        seat.load(GROUP)
        seat.set_store(self.browser.store)
        self.seat = pair.guest = seat
        pair.conn.cut()
        pair.conn = Connection(pair.host, seat, pair.now, pair.events)
        pair.conn.deliver(pair.now)

    def moved(self) -> None:
        assert self.seat is not None
        self.seat.halt(problem("moved"))
        if self.controller is not None:
            self.controller.let_go(self.seat)
        self.seat.hang_up()
        self.shown = "moved"


def test_take_over_moves_the_seat_and_the_first_tab_sends_and_writes_nothing_more() -> None:
    pair = Pair(Options(rounds=1), first=0, seed=21)
    browser = Browser(pair)
    first = browser.tab(pair.guest)
    first.guard.claim("ABCDEF", 1, lambda: None, first.moved)  # the tab that runs the seat
    pair.play(6)
    second = browser.tab()
    second.open()
    assert second.shown == "elsewhere" and second.seat is None  # it runs nothing
    assert pair.guest is first.seat
    pair.play(4)  # the first tab plays on (its save due after the next paint)
    old, controller = first.seat, first.controller
    assert old is not None and controller is not None and page_of(controller).due
    second.guard.take_over()
    assert first.shown == "moved" and old.halted == {"code": "moved", "data": {}}
    assert second.guard.running and pair.guest is second.seat is not old
    assert controller.session is None  # let go, its save left as it is
    # the first tab's seat sends nothing more, reads nothing, and writes nothing
    written = browser.store.getItem(GUEST_KEY)
    page_of(controller).paint()
    assert browser.store.getItem(GUEST_KEY) == written
    sent: list[str] = []
    old.opened(sent.append, pair.now)
    old.receive(json.dumps({"lc": "ping"}), pair.now)
    old.ping()
    old.tick(pair.now)
    assert sent == [] and old.submit({"type": "draw", "source": "deck"}) == {
        "code": "stopped", "data": {}}
    assert not old.match_on()
    pair.play()  # the second tab plays the match to its end
    finished(pair)
    assert browser.store.getItem(GUEST_KEY) != written  # (the second tab's writes)
    for lang, says in (("en", "moved to another tab"), ("es", "pasó a otra pestaña")):
        assert says in str(problem_text(lang, problem("moved")))
        assert says in str(render_elsewhere(lang, "ABCDEF", "moved"))
    for lang, says in (("en", "open in another tab"), ("es", "abierta en otra pestaña")):
        doc = str(render_elsewhere(lang, "<b>", "elsewhere"))
        assert says in doc and 'data-action="take-over"' in doc and "<b>" not in doc
