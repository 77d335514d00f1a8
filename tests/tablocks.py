"""The Web Locks API in memory, for tests of one tab per seat (webui/online/seatlock.py): the
tabs of one browser are guards that share one `MemoryLocks`."""

from __future__ import annotations

from collections.abc import Callable

from webui.online.seatlock import Release


class MemoryLocks:
    """An in-memory `Locks`, shared by the tabs (guards) of one test: the Web Locks API's
    `ifAvailable` and `steal`, answered at once."""

    def __init__(self) -> None:
        self.holders: dict[str, Callable[[], None]] = {}
        """Each held lock's `lost` callback (who holds it)."""

    def request(self, name: str, steal: bool, answer: Callable[[Release | None], None],
                lost: Callable[[], None]) -> None:
        """As the Web Locks API does, at once."""
        holder = self.holders.get(name)
        if holder is not None and not steal:
            answer(None)
            return
        self.holders[name] = lost
        if holder is not None:
            holder()

        def release() -> None:
            if self.holders.get(name) is lost:
                del self.holders[name]

        answer(release)
