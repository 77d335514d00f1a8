"""What the online lobby needs of the browser, handed in: the page's address, the lobby's
fields, sharing and the clipboard, the network's state, the config and the online libraries,
the broker's reachability, the QR code, the seats' transports, the fair group, the locks and
the next task.

In the page this is webui/browser/online/lobby_browser.py's `JsLobbyBrowser`; natively, a
test's stand-in, so the lobby runs without a browser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from lostcities.fair import Group

from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.online.seat import Transport
from webui.online.seatlock import Locks


class RoomNet(Protocol):
    """A host's room on the broker, from its registration on (`LobbyBrowser.open_room`)."""

    status: str | None
    """What the network layer is going through, for the waiting room (None: all is well)."""
    host: FairHost | None
    """The seat the room's connections are handed to, once it exists."""

    def close(self, delay: float = 0.0) -> None:
        """Leave the broker (after `delay` seconds)."""
        ...


class LobbyBrowser(Protocol):
    """What the lobby asks of the browser. `config` and `load_libraries` raise RuntimeError
    with the reason to show when they fail."""

    def href(self) -> str:
        """The page's address."""
        ...

    def query(self) -> str:
        """The query part of the page's address (``?room=CODE``)."""
        ...

    def forget_link(self) -> None:
        """Take a join link's parameters out of the page's address (the rest stays), so
        that a reload no longer opens its room."""
        ...

    def field(self, name: str) -> str:
        """The text in the screen's ``[data-field=name]`` input ("" if there is none)."""
        ...

    def online(self) -> bool:
        """Whether the browser says it is online."""
        ...

    def can_share(self) -> bool:
        """Whether the browser has a share sheet."""
        ...

    def share(self, title: str, url: str, text: str) -> None:
        """Open the share sheet with a link (closing it is no failure)."""
        ...

    def copy(self, text: str) -> None:
        """Put `text` on the clipboard."""
        ...

    async def config(self) -> dict[str, Any]:
        """The broker and ICE servers (window.LC_CONFIG, docs/architecture.md)."""
        ...

    async def load_libraries(self) -> None:
        """Load PeerJS, the QR code library and libsodium (window.lcOnlineLibraries)."""
        ...

    async def reachable(self, url: str) -> bool:
        """Whether anything answers at `url` (any HTTP answer counts)."""
        ...

    def qr_matrix(self, text: str) -> list[list[bool]]:
        """The QR code of `text` as dark/light rows (once the libraries are loaded)."""
        ...

    def open_room(self, config: dict[str, Any], code: str, fresh: bool,
                  on_room: Callable[[str], None], on_change: Callable[[], None]) -> RoomNet:
        """Register room `code` on the broker: `on_room(code)` once it is (`fresh`: a new
        room, which takes another code if this one is taken), `on_change()` whenever its
        status changes."""
        ...

    def dial(self, config: dict[str, Any], guest: FairGuest,
             on_change: Callable[[], None]) -> Transport:
        """Dial `guest`'s room, again whenever the connection drops."""
        ...

    def group(self) -> Group:
        """The fair protocol's group (libsodium's, loaded with the online libraries)."""
        ...

    def locks(self) -> Locks:
        """The locks shared by this browser's tabs (one tab per seat)."""
        ...

    def next_task(self, job: Callable[[], None]) -> None:
        """Run `job()` in a task of its own, after those queued (not slowed in a hidden
        tab): the seats take the match's messages a piece a task (`FairSeat.set_later`)."""
        ...

    def warn(self, text: str) -> None:
        """Say `text` on the console as a warning."""
        ...
