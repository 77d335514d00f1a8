"""The page's controller without a browser: in-memory stand-ins for the page and its storage,
and the clicks that make a move. Shared by the controller's and the player features' tests.

`MemoryPage` stands in for webui/browser/page.py (the controller's `Display`): it keeps the frames
the controller shows, runs what waits for a paint when the test paints, and holds the setup form's
values. `MemoryStorage` stands in for localStorage.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any, ClassVar

from webui.kernel.frame import Frame
from webui.match.controller import MatchController
from webui.match.seats import MATCH_KEY, View

FORM = {"name1": "Ana", "name2": "Ben", "rounds": "1", "starts": "0", "mode": "local",
        "opponent": "human"}
"""The setup form's values of a pass-and-play match of one round."""


Events = list[tuple[str, str]]
"""What a page received and stored, in order: ``("rx", text)``, ``("store", "key\ntext")``."""


class MemoryStorage:
    """localStorage in memory; with `room`, a write that would hold more characters fails; each
    write is recorded in `events`, if given."""

    def __init__(self, room: int | None = None, events: Events | None = None) -> None:
        self.items: dict[str, str] = {}
        self.room = room
        self.events = events

    @property
    def length(self) -> int:
        return len(self.items)

    def key(self, index: int) -> str | None:
        return list(self.items)[index] if index < len(self.items) else None

    def getItem(self, key: str) -> str | None:  # noqa: N802 - the Web Storage API's name
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        rest = sum(len(v) for k, v in self.items.items() if k != key)
        if self.room is not None and rest + len(value) > self.room:
            raise RuntimeError("QuotaExceededError")
        if self.events is not None:
            self.events.append(("store", f"{key}\n{value}"))
        self.items[key] = value

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.items.pop(key, None)


class Later:
    def __init__(self, page: MemoryPage, callback: Callable[[], None]) -> None:
        self.page, self.callback = page, callback

    def request(self) -> None:
        if self.callback not in self.page.due:
            self.page.due.append(self.callback)


class MemoryPage:
    """The page as the controller sees it, in memory."""

    stamp_step: ClassVar[int] = 0
    """Milliseconds the epoch clock (`stamp`) moves on at each look (0: it stands still)."""
    stamps: ClassVar[int] = 0

    def __init__(self, form: dict[str, object] | None = None) -> None:
        self.form: dict[str, object] = dict(FORM if form is None else form)
        self.frames: list[Frame] = []
        self.due: list[Callable[[], None]] = []
        self.windows: dict[str, list[Callable[[], None]]] = {}
        self.every: list[Callable[[], None]] = []
        self.logged: list[str] = []
        self.now = 0.0
        self.refuse: Callable[[Frame], bool] = lambda frame: False

    @property
    def shown(self) -> Frame:
        return self.frames[-1]

    def paint(self) -> None:
        """The next paint: what waited for it runs."""
        due, self.due = self.due, []
        for callback in due:
            callback()

    def show(self, frame: Frame) -> None:
        if self.refuse(frame):
            raise RuntimeError(f"the DOM refused the {frame.screen} screen")
        self.frames.append(frame)

    def form_values(self) -> dict[str, object]:
        return dict(self.form)

    def log_open(self) -> bool:
        return False

    def hide_setup_wait(self) -> None:
        pass

    def after_paint(self, callback: Callable[[], None]) -> Later:
        return Later(self, callback)

    def every_second(self, callback: Callable[[], None]) -> None:
        self.every.append(callback)

    def on_window(self, event: str, callback: Callable[[], None]) -> None:
        self.windows.setdefault(event, []).append(callback)

    def on_update_ready(self, callback: Callable[[], None]) -> None:
        self.on_window("lc:update-ready", callback)

    def update_ready(self) -> bool:
        return False

    def apply_update(self) -> None:
        raise AssertionError("no update here")

    def reload(self) -> None:
        raise AssertionError("no reload here")

    def clock(self) -> float:
        return self.now

    def stamp(self) -> int:
        MemoryPage.stamps += 1
        return 1_700_000_000_000 + self.stamp_step * MemoryPage.stamps

    def log(self, text: str) -> None:
        self.logged.append(text)


def booted(storage: MemoryStorage, page: MemoryPage | None = None) -> MatchController:
    """A controller as the page boots it: resume what is saved, show the first screen."""
    controller = MatchController(page or MemoryPage(), storage, "en")
    controller.pace = 0.0
    controller.resume()
    controller.render()
    return controller


def page_of(controller: MatchController) -> MemoryPage:
    page = controller.page
    assert isinstance(page, MemoryPage)
    return page


def saved(storage: MemoryStorage) -> dict[str, Any]:
    return json.loads(storage.items[MATCH_KEY])


def first_legal(view: View) -> dict[str, Any]:
    moves = [m for m in view["legal_moves"] if m["type"] != "undo"]
    return moves[0]


def click_move(controller: MatchController, move: dict[str, Any]) -> None:
    """The clicks that make `move` on the table."""
    if move["type"] in ("play", "discard"):
        controller.click("select", {"card": move["card"]})
        controller.click(move["type"], {})
    elif move["type"] == "draw":
        controller.click("draw", {"source": move["source"]})
    elif move["type"] == "pick-job":
        controller.click("pick-job", {"job": move["job"]})
    else:
        controller.click(move["type"], {})


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


async def until(condition: Callable[[], bool], rounds: int = 100_000) -> None:
    """Let the controller's tasks run until `condition()` holds (a hang guard, no clock)."""
    for _ in range(rounds):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")
