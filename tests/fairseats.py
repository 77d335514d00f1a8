"""The online seats' test harness: a room's host and guest (webui/online/host.py, guest.py) over an
in-memory connection, each with its own storage, and a chooser of legal moves.

Shared by tests/test_fair_seats.py, test_online_core.py and test_webui_controller.py.
"""

from __future__ import annotations

import json
import random
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from lostcities import Options
from lostcities.fair.sodium import SodiumGroup
from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.online.seat import FairSeat
from webui.screens.online import sync_mark

from controllerkit import Events, MemoryStorage


GROUP = SodiumGroup()
TOKEN = "T" * 24
ALL = Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
              mixups=True)
MARKUP = "<img src=x onerror=window.__pwned=1>"


class KeptLink:
    """A host's `Link` that keeps what the host sends (`sent`), for a test that speaks for the
    guest itself."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self) -> None:
        pass


class HostEnd:
    """The host's side of a connection (its `Link`)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def send(self, text: str) -> None:
        self.conn.sending("host", self.conn.host, text)
        if self.conn.open:
            self.conn.to_guest.append(text)

    def close(self) -> None:
        """As a DataConnection closed by the page: what was sent still goes out."""
        self.conn.closing = True


class Tasks:
    """The pages' later tasks (`FairSeat.set_later`), run by `Connection.deliver` between its
    deliveries, in an order `rng` picks: each page runs its own in order, as a browser
    does."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.jobs: deque[tuple[str, Callable[[], None]]] = deque()

    def later(self, who: str) -> Callable[[Callable[[], None]], None]:
        """The `set_later` of page `who`."""
        return lambda job: self.jobs.append((who, job))

    def forget(self, who: str) -> None:
        """Page `who` closed: its tasks die with it."""
        self.jobs = deque((w, job) for w, job in self.jobs if w != who)

    def run_one(self) -> None:
        self.jobs.popleft()[1]()


class Connection:
    """One data connection between two seats; messages wait until `deliver`."""

    def __init__(self, host: FairHost, guest: FairGuest, now: float = 0.0,
                 events: dict[str, Events] | None = None, tasks: Tasks | None = None) -> None:
        self.host, self.guest, self.open, self.closing = host, guest, True, False
        self.events = events
        self.tasks = tasks
        self.to_guest: deque[str] = deque()
        self.to_host: deque[str] = deque()
        self.sent: list[tuple[str, str, bool]] = []
        """(sender, text, whether the sender's storage held it when it was delivered)."""
        self.at_send: list[tuple[str, str, bool]] = []
        """(sender, text, whether the sender's storage held it at the moment it was sent)."""
        self.secrets: dict[str, str | None] = {}
        """The secret each seat's storage held when its first fair message was sent."""
        self.end = HostEnd(self)
        self.refusal = host.accept(self.end, {"token": guest.token}, now)
        if self.refusal is None:
            guest.opened(self._from_guest, now)

    def _from_guest(self, text: str) -> None:
        self.sending("guest", self.guest, text)
        if self.open:
            self.to_host.append(text)

    def sending(self, who: str, seat: FairSeat, text: str) -> None:
        """`seat` sends `text` now: what its storage holds at this moment is noted."""
        self.at_send.append((who, text, saved_has(seat, text)))

    def deliver(self, now: float = 0.0) -> None:
        """Deliver what is in flight, at `now`, and run the pages' tasks (`tasks`) between,
        until nothing is left; a guest that drops the connection cuts it."""
        tasks = self.tasks
        while self.open and (self.to_host or self.to_guest or (tasks and tasks.jobs)):
            if self.guest.drop_link:
                self.cut()
                return
            if tasks and tasks.jobs and (
                    not (self.to_host or self.to_guest) or tasks.rng.random() < 0.5):
                tasks.run_one()
            elif self.to_host:
                text = self.to_host.popleft()
                self.note("guest", self.guest, text)
                self.host.receive(self.end, text, now)
            elif self.to_guest:
                text = self.to_guest.popleft()
                self.note("host", self.host, text)
                self.guest.receive(text, now)
        if self.closing:
            self.cut()

    def note(self, who: str, seat: FairSeat, text: str) -> None:
        if self.events is not None:
            self.events["guest" if who == "host" else "host"].append(("rx", text))
        self.sent.append((who, text, saved_has(seat, text)))
        if '"fair"' in text and who not in self.secrets:
            raw = seat._store.getItem(seat.save_key) if seat._store else None  # noqa: SLF001
            peer = json.loads(raw)["peer"] if raw else None
            self.secrets[who] = peer["secret"] if peer else None

    def cut(self) -> None:
        """The connection drops (what is in flight is lost)."""
        if self.open:
            self.open = False
            self.to_host.clear()
            self.to_guest.clear()
            self.host.closed(self.end)
            self.guest.closed()


def saved_has(seat: FairSeat, text: str) -> bool:
    """Whether the seat's storage holds, in its saved match, the fair message `text`."""
    store = seat._store  # noqa: SLF001 - the test reads what the seat wrote
    raw = store.getItem(seat.save_key) if store is not None else None
    if raw is None or '"fair"' not in text:
        return False
    doc = json.loads(raw)
    message = json.loads(text)
    return any(e["dir"] == "out" and e["msg"] == message
               for e in (doc["peer"] or {}).get("transcript", []))


class Pair:
    """A room's host and its guest, each with its storage, connected."""

    def __init__(self, options: Options = ALL, first: int | None = None, seed: int = 1,
                 stepped: bool = False) -> None:
        """`stepped`: each page takes the match's messages a piece a task, as in the browser
        (`FairSeat.set_later`), its tasks interleaved at random with the deliveries."""
        self.events: dict[str, Events] = {"host": [], "guest": []}
        """What each page received and stored, in order."""
        self.storage = {"host": MemoryStorage(events=self.events["host"]),
                        "guest": MemoryStorage(events=self.events["guest"])}
        self.host = FairHost.create("ABCDEF", options, first, "Ana", 0.0)
        self.guest = FairGuest("abc-def", TOKEN, "Ben", 0.0)
        self.tasks = Tasks(random.Random(seed)) if stepped else None
        for seat, who in ((self.host, "host"), (self.guest, "guest")):
            seat.load(GROUP)
            self._plug(seat, who)
        self.rng = random.Random(seed)
        self.moves: Counter[str] = Counter()
        self.now = 0.0
        """The pages' clock: a second a move (the connection's budget refills with it)."""
        self.conn = Connection(self.host, self.guest, events=self.events, tasks=self.tasks)
        self.conn.deliver()

    def _plug(self, seat: FairSeat, who: str) -> None:
        """What the page gives its seat: its storage, and its tasks when stepped."""
        seat.set_store(self.storage[who])
        if self.tasks is not None:
            seat.set_later(self.tasks.later(who))

    def reconnect(self) -> None:
        self.conn.cut()
        self.conn = Connection(self.host, self.guest, self.now, self.events, self.tasks)
        self.conn.deliver(self.now)

    def reload(self, which: str, from_last_write: bool = True) -> None:
        """That page closes and opens again from what its storage holds (the last write the
        seat made itself, before sending: the controller's save after the paint may not have
        run), replaying its match, and dials again."""
        self.conn.cut()
        seat: FairSeat = self.host if which == "host" else self.guest
        store = self.storage[which]
        if not from_last_write:
            store.setItem(seat.save_key, json.dumps(seat.saved()))
        doc = json.loads(store.getItem(seat.save_key) or "null")
        cls = FairHost if which == "host" else FairGuest
        fresh = cls.from_json(doc, 0.0)
        fresh.load(GROUP)
        if self.tasks is not None:
            self.tasks.forget(which)
        self._plug(fresh, which)
        if which == "host":
            assert isinstance(fresh, FairHost)
            self.host = fresh
        else:
            assert isinstance(fresh, FairGuest)
            self.guest = fresh
        self.reconnect()

    def actor(self) -> FairSeat | None:
        movers = [s for s in (self.host, self.guest)
                  if s.has_match and s.view()["legal_moves"]]
        assert len(movers) <= 1
        return movers[0] if movers else None

    def choose(self, seat: FairSeat) -> dict[str, Any]:
        moves = seat.view()["legal_moves"]
        by: dict[str, list[dict[str, Any]]] = {}
        for move in moves:
            by.setdefault(move["type"], []).append(move)
        for kind, odds in (("radio", 0.5), ("airlift", 0.3), ("sabotage", 0.3),
                           ("undo", 0.15)):
            if kind in by and self.rng.random() < odds:
                return self.rng.choice(by[kind])
        deck = {"type": "draw", "source": "deck"}
        if deck in moves and self.rng.random() < 0.85:
            return deck
        plain = [m for m in moves if m["type"] not in ("undo", "radio", "airlift", "sabotage")]
        return self.rng.choice(plain or moves)

    def step(self) -> bool:
        """One move of the player to act; False when nobody can move."""
        seat = self.actor()
        if seat is None:
            return False
        move = self.choose(seat)
        assert seat.submit(move) is None
        self.moves[move["type"]] += 1
        self.now += 1.0
        self.conn.deliver(self.now)
        return True

    def play(self, moves: int = 100_000) -> None:
        for _ in range(moves):
            if not self.step():
                return


def finished(pair: Pair) -> None:
    """Both pages at the match's end, agreeing, nothing stopped."""
    host, guest = pair.host.view(), pair.guest.view()
    assert host["phase"] == guest["phase"] == "match-end"
    assert sync_mark(host) == sync_mark(guest)
    assert host["totals"] == guest["totals"]
    assert not pair.host.stopped and not pair.guest.stopped
