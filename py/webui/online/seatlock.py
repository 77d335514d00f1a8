"""One tab per seat: a seat of a room runs in one tab of this browser at a time.

Two tabs that ran the same seat would both answer the other page from one save, and each would
overwrite what the other wrote. So before a tab runs a seat (resumes it, joins or opens its
room) it asks for that seat's lock (`lock_name`: the room code and the seat), only if no other
tab holds it (`SeatGuard.claim`). If another tab holds it, this tab runs nothing (no PeerJS, no
save written) and says the match is open in another tab (``elsewhere``), with a button to
take it over (`take_over`): that takes the lock from the other tab, which then stops (its seat
halts: disconnected, nothing more sent or written) and says the match moved (``moved``),
with a button to take it back. The taking tab reads the seat from storage only once it holds
the lock, so it starts from what the other tab wrote last.

Browser-free: the locks are handed in (`Locks`; webui/browser/online/weblocks.py is the page's, on
the Web Locks API); tests/tablocks.py is an in-memory one that several guards (tabs) share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal, Protocol

from webui.online.codes import normalize_code

LOCK_PREFIX: Final = "lostcities.seat"

Release = Callable[[], None]
"""Lets go of a lock this tab holds."""
TabState = Literal["none", "claiming", "held", "elsewhere", "moved"]


def lock_name(code: str, seat: int) -> str:
    """The lock of seat `seat` (0: the host, 1: the guest) of room `code`."""
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ValueError("a seat is 0 or 1")
    return f"{LOCK_PREFIX}.{normalize_code(code)}.{seat}"


class Locks(Protocol):
    """The browser's locks, shared by the tabs of one origin."""

    def request(self, name: str, steal: bool, answer: Callable[[Release | None], None],
                lost: Callable[[], None]) -> None:
        """Ask for lock `name`: without `steal`, only if no tab holds it; with `steal`,
        taken from the tab that holds it (whose `lost()` then runs). `answer(release)` runs
        once: `release` when this tab holds it now, None when another tab does."""
        ...


class SeatGuard:
    """This tab's hold on the seat it runs, one seat at a time. `state`: ``none``,
    ``claiming`` (asked), ``held`` (the seat runs here), ``elsewhere`` (another tab runs it)
    or ``moved`` (another tab took it from this one)."""

    def __init__(self, locks: Locks, on_change: Callable[[], None]) -> None:
        self.locks = locks
        self.state: TabState = "none"
        self.code: str | None = None
        """The room of the seat claimed."""
        self.seat: int | None = None
        self._on_change = on_change
        self._run: Callable[[], None] | None = None
        self._stop: Callable[[], None] | None = None
        self._release: Release | None = None
        self._ticket = 0
        """Which request is the current one (an answer to an older one is let go)."""

    def claim(self, code: str, seat: int, run: Callable[[], None],
              stop: Callable[[], None]) -> None:
        """Run seat `seat` of room `code` here (`run()`) as soon as this tab holds its lock,
        if no other tab holds it; else state ``elsewhere``, and nothing runs. If another tab
        takes it over later, `stop()` runs (state ``moved``). A seat claimed before is let
        go first. ValueError (nothing changes) for a bad code or seat."""
        name = lock_name(code, seat)
        self.release()
        self.code, self.seat, self._run, self._stop = normalize_code(code), seat, run, stop
        self._ask(name, steal=False)

    def take_over(self) -> bool:
        """Take the seat from the tab that runs it (state ``elsewhere`` or ``moved``), and run
        it here; False, and nothing changes, in any other state."""
        if self.state not in ("elsewhere", "moved") or self.code is None or self.seat is None:
            return False
        self._ask(lock_name(self.code, self.seat), steal=True)
        return True

    def release(self) -> None:
        """Let go of the seat (claimed, held or seen elsewhere): its lock, if held, is free
        for another tab."""
        self._ticket += 1
        release, self._release = self._release, None
        self.state, self.code, self.seat, self._run, self._stop = "none", None, None, None, None
        if release is not None:
            release()

    @property
    def running(self) -> bool:
        """Whether the seat runs here."""
        return self.state == "held"

    def _ask(self, name: str, steal: bool) -> None:
        self._ticket += 1
        ticket = self._ticket
        self.state = "claiming"

        def answer(release: Release | None) -> None:
            if ticket != self._ticket:  # asked again, or let go meanwhile
                if release is not None:
                    release()
                return
            if release is None:
                self.state = "elsewhere"
            else:
                self.state, self._release = "held", release
                if self._run is not None:
                    self._run()
            self._on_change()

        def lost() -> None:
            if ticket != self._ticket or self.state != "held":
                return
            self.state, self._release = "moved", None
            if self._stop is not None:
                self._stop()
            self._on_change()

        self.locks.request(name, steal, answer, lost)

