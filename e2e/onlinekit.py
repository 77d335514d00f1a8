"""What the online e2e tests share: two pages into one room, waits on their states, a chooser
that plays legal moves by clicks on the page whose turn it is, and a recorder of what each page
receives on its data channel and writes to its storage.

Each page plays its own seat of a fair match (webui/online/seat.py): neither holds the other's
cards, so the tests read a page's position from its screen (``[data-sync]``, enabled buttons)
or from its own save, replayed natively with rbcl's group (`seat_of`).
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from conftest import STATE_TIMEOUT_MS, AppPage
from playwright.sync_api import Page
from test_table import BUTTONS_JS  # the screen and the enabled buttons, with their data-* hooks

from lostcities.fair.sodium import SodiumGroup
from webui.online.codes import GUEST_KEY, HOST_KEY
from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.online.seat import FairSeat

GROUP = SodiumGroup()
ALL_OPTIONS = ("sixth-colour", "jobs", "skills", "objectives", "mixups")


TURN_ACTIONS = frozenset({"select", "draw", "undo", "radio", "airlift", "sabotage", "pick-job",
                          "next-round"})
"""Buttons enabled only on the page of the player who may move now."""

SYNC = "(document.querySelector('[data-sync]')?.dataset.sync ?? null)"
"""The match position a screen shows (``[data-sync]``), null before a match is on it. (In
parentheses: unbracketed, ``SYNC === mark`` would read ``sync ?? (null === mark)``, true on
any screen showing a match.)"""

SETTLED = """() => { const badge = document.querySelector('[data-sync]');
  return badge !== null && !badge.hasAttribute('data-waiting'); }"""
"""The match is on the screen and waits on nothing from the other page."""

NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => done(true)))"
"""Resolves at the page's next frame: a wait on the page's state, not on a clock."""

STUCK = """() => ({screen: document.body.dataset.screen, sync: %s,
  buttons: [...document.querySelectorAll('#app button')].map((b) =>
    `${b.dataset.action}${b.disabled ? ' (disabled)' : ''}`).join(', '),
  text: document.querySelector('#screen')?.innerText.slice(0, 600)})""" % SYNC
"""What a page shows, said when no page may move before the match's end."""


# ---- into a room ----------------------------------------------------------------------------


def enter_lobby(app: AppPage, rounds: int = 1, options: tuple[str, ...] = (),
                starts: str | None = None) -> None:
    """From the setup screen: online mode, `rounds` rounds, the `options` ticked, start."""
    page = app.page
    page.locator('[data-option="mode"][value="online"]').check()
    page.locator('[data-option="rounds"]').select_option(str(rounds))
    for option in options:
        page.check(f'[data-option="{option}"]')
    if starts is not None:
        page.check(f'[data-field="starts"][value="{starts}"]')
    page.locator('[data-action="start"]').click()
    page.wait_for_selector('[data-screen="lobby"]')


def broker_answered(page: Page) -> None:
    """Until the lobby says whether the broker answered (``data-broker``)."""
    page.wait_for_selector('[data-screen="lobby"] [data-broker]:not([data-broker="checking"])')


def create_room(app: AppPage, rounds: int = 1, options: tuple[str, ...] = (),
                starts: str | None = None) -> str:
    """Host: setup, lobby, create room; returns the code shown."""
    enter_lobby(app, rounds, options, starts)
    broker_answered(app.page)
    app.page.click('[data-action="create-room"]')
    code = app.page.wait_for_selector("[data-room-code]")
    assert code is not None
    return str(code.get_attribute("data-room-code"))


def join_room(app: AppPage, code: str, name: str = "Ben") -> None:
    """Guest: lobby (from setup), type the code, join."""
    enter_lobby(app)
    broker_answered(app.page)  # the lobby is shown again then: fill it after that
    app.page.fill('[data-field="room-code"]', code.lower())
    app.page.fill('[data-field="guest-name"]', name)
    app.page.click('[data-action="join-room"]')


# ---- states ---------------------------------------------------------------------------------


def sync_of(page: Page) -> str | None:
    """The match position `page` shows."""
    return page.evaluate(f"() => {SYNC}")  # type: ignore[no-any-return]


def wait_connection(state: str, *pages: Page) -> None:
    """Until each page's badge shows the opponent's connection as `state`."""
    for page in pages:
        page.wait_for_selector(f'[data-connection="{state}"]', state="attached")


def wait_synced(first: Page, second: Page, before: str | None = None) -> str:
    """Both screens show the same match position, not `before`, and wait on nothing from
    each other; returns it. A page may pass through a position the other never shows (the
    host opening its job pick as soon as the guest's arrives), so both are read again, frame
    after frame, until they agree (STATE_TIMEOUT_MS is the hang guard)."""
    pages = (first, second)
    changed = (f"(before) => {{ const mark = {SYNC}; "
               f"return mark !== null && mark !== before && ({SETTLED})(); }}")
    deadline = time.monotonic() + STATE_TIMEOUT_MS / 1000
    while True:
        for page in pages:
            page.wait_for_function(changed, arg=before)
        marks = [page.evaluate(SYNC) for page in (first, second, first)]
        if marks[0] == marks[1] == marks[2]:
            return str(marks[0])
        if time.monotonic() > deadline:
            raise AssertionError(f"the pages never agreed after {before}: "
                                 f"{[page.evaluate(STUCK) for page in pages]}")
        next_frame(*pages)


def next_frame(*pages: Page) -> None:
    """Until each page has drawn its next frame (what was on its way may be shown then)."""
    for page in pages:
        page.evaluate(NEXT_FRAME)


def saved_text(page: Page, key: str) -> str | None:
    """What `page` keeps under `key`, read once its due save has run (a task after the next
    frame, dom.AfterPaint): this reads in a task after the frame after."""
    return page.evaluate(  # type: ignore[no-any-return]
        "(key) => new Promise((done) => requestAnimationFrame(() => setTimeout("
        " () => done(localStorage.getItem(key)), 0)))", key)


def seat_of(page: Page, role: str) -> FairSeat:
    """The page's seat (``host`` or ``guest``) as its save holds it, replayed natively."""
    key = HOST_KEY if role == "host" else GUEST_KEY
    text = saved_text(page, key)
    assert text, f"the {role}'s page has no saved room"
    seat: FairSeat = (FairHost if role == "host" else FairGuest).from_json(json.loads(text), 0.0)
    seat.load(GROUP)
    return seat


# ---- playing by clicks ----------------------------------------------------------------------


def buttons(page: Page) -> tuple[str, dict[str, list[dict[str, str]]]]:
    """The page's screen and its enabled buttons by action."""
    state = page.evaluate(BUTTONS_JS)
    by: dict[str, list[dict[str, str]]] = {}
    for button in state["buttons"]:
        by.setdefault(button["action"], []).append(button)
    return str(state["screen"]), by


def click(page: Page, data: dict[str, str]) -> None:
    """Click the (first) enabled button carrying exactly these data-* values."""
    selector = "".join(f'[data-{k}="{v}"]' for k, v in data.items())
    page.locator(f"#app button{selector}:not([disabled])").first.click()


@dataclass
class Chooser:
    """Plays one legal move at a time by clicks on the page whose turn it is: each skill and
    an undo as soon as they can be used the first time, now and then afterwards; mostly deck
    draws, so that rounds end."""

    pages: tuple[Page, ...]
    """Both players' pages (or one, when the other player is not a page)."""
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    moves: Counter[str] = field(default_factory=Counter)
    mark: str | None = None

    def settle(self) -> None:
        """Until neither page waits on the other (a shuffle, a key on its way): then the
        buttons of both say who may move."""
        while True:
            for page in self.pages:
                page.wait_for_function(SETTLED)
            if self.pages[0].evaluate(SETTLED):
                return

    def actor(self) -> tuple[Page, str, dict[str, list[dict[str, str]]]] | None:
        """The page that may move now, its screen and buttons (None: nobody, the match is
        over)."""
        deadline = time.monotonic() + STATE_TIMEOUT_MS / 1000
        while True:
            self.settle()
            found = []
            for page in self.pages:
                screen, by = buttons(page)
                if "dismiss-mixup" in by:  # the mixup's announcement, on either screen
                    click(page, {"action": "dismiss-mixup"})
                    screen, by = buttons(page)
                if TURN_ACTIONS & set(by):
                    found.append((page, screen, by))
            assert len(found) <= 1, "both pages may move"
            if found:
                return found[0]
            ends = [page.evaluate("document.body.dataset.screen") for page in self.pages]
            if set(ends) == {"match-end"}:
                return None
            # a page between two positions (a message on its way) moves on by itself; one
            # that stays stuck is said
            assert time.monotonic() < deadline, [page.evaluate(STUCK) for page in self.pages]
            next_frame(*self.pages)

    def _wanted(self, kind: str, by: dict[str, list[dict[str, str]]], odds: float) -> bool:
        return kind in by and (not self.moves[kind] or self.rng.random() < odds)

    def step(self) -> bool:
        """One move by clicks, both screens then in sync; False when nobody can move."""
        found = self.actor()
        if found is None:
            return False
        page, _screen, by = found
        rng = self.rng
        if "pick-job" in by:
            move: dict[str, str] = rng.choice(by["pick-job"])
        elif "next-round" in by:
            move = {"action": "next-round"}
        elif "undo" in by and self._wanted("undo", by, 0.1) and self.moves["undo"] < 4:
            move = {"action": "undo"}
        elif "draw" in by:
            deck = [b for b in by["draw"] if b.get("source") == "deck"]
            move = deck[0] if deck and rng.random() < 0.85 else rng.choice(by["draw"])
        else:
            for skill in ("sabotage", "airlift", "radio"):
                if self._wanted(skill, by, 0.15):
                    return self._skill(page, skill)
            card = rng.choice(by["select"])
            click(page, card)
            _screen, by = buttons(page)
            move = ({"action": "play"} if "play" in by and rng.random() < 0.55
                    else {"action": "discard"})
        return self._make(page, move)

    def _skill(self, page: Page, skill: str) -> bool:
        if skill == "sabotage":
            click(page, {"action": "sabotage"})  # the pile chooser opens
            piles = [b for b in buttons(page)[1].get("sabotage", []) if "colour" in b]
            return self._make(page, self.rng.choice(piles))
        return self._make(page, {"action": skill})

    def _make(self, page: Page, move: dict[str, str]) -> bool:
        click(page, move)
        self.moves[move["action"]] += 1
        if len(self.pages) == 2:
            self.mark = wait_synced(self.pages[0], self.pages[1], self.mark)
        else:
            self.mark = str(page.wait_for_function(
                f"(before) => {{ const m = {SYNC}; return m !== null && m !== before && m; }}",
                arg=self.mark).json_value())
        return True

    def play(self, limit: int = 100_000) -> int:
        """Moves until nobody can move (or `limit`); returns how many were made."""
        for n in range(limit):
            if not self.step():
                return n
        return limit


# ---- recording what a page receives and stores ----------------------------------------------


RECORDER = """
(() => {
  const record = (kind, data) => { window.__lcRecord(kind, data); };
  const seen = new WeakSet();
  const listen = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, handler, ...rest) {
    if (type !== "message") return listen.call(this, type, handler, ...rest);
    return listen.call(this, type, function (event) {  // PeerJS's DataConnection listens here
      if (!seen.has(event)) {
        seen.add(event);
        record("rx", typeof event.data === "string" ? event.data : "[binary]");
      }
      return handler.call(this, event);
    }, ...rest);
  };
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (this === window.localStorage) record("store", String(key) + "\\n" + String(value));
    return setItem.call(this, key, value);
  };
})();
"""
"""Sends every message the page's data channels deliver (before PeerJS hands it to the page)
and every localStorage write, in order, to the test (`window.__lcRecord`)."""


@dataclass
class Record:
    """What one player's pages received and stored, in order, across reloads."""

    events: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, data: str) -> None:
        with self.lock:
            self.events.append((kind, data))

    def count(self, kind: str) -> int:
        return sum(k == kind for k, _ in self.events)


def recorded(record: Record) -> Any:
    """An open_app setup that records the player's page (each of its documents) into
    `record`."""

    def setup(page: Page) -> None:
        page.expose_function("__lcRecord", record.add)
        page.add_init_script(RECORDER)

    return setup
