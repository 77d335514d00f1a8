"""The browser as the online lobby sees it (webui/online/lobby_browser.py's `LobbyBrowser`):
the address, the lobby's fields, the share sheet and the clipboard, window.LC_CONFIG and
window.lcOnlineLibraries (static/config.js), a no-cors probe of the broker, the QR code library,
PeerJS (net.py), libsodium (sodium_group.py) and the Web Locks API (weblocks.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from webui.browser.online.net import GuestNet, HostNet
from webui.browser.online.sodium_group import JsSodiumGroup
from webui.browser.online.weblocks import WebLocks
from webui.browser.page import Page
from webui.online.codes import without_join_link
from webui.online.guest import FairGuest


_NEXT_TASK = """
const channel = new MessageChannel();
const jobs = [];
channel.port1.onmessage = () => jobs.shift()();
return (job) => { jobs.push(job); channel.port2.postMessage(null); };
"""
"""A function that runs a job in a task of its own, after the tasks queued: a message posted
to the page itself (a hidden tab slows timers, not these), each job run once, in order."""


_QR_ROWS = """
const qr = qrcode(0, "M");
qr.addData(text);
qr.make();
const size = qr.getModuleCount(), rows = [];
for (let r = 0; r < size; r++) {
  let row = "";
  for (let c = 0; c < size; c++) row += qr.isDark(r, c) ? "1" : "0";
  rows.push(row);
}
return rows.join("\\n");
"""
"""The QR code's modules of `text`, a row a line, "1" for a dark one."""


def _message(exc: Exception) -> str:
    """What a JavaScript error (or a Python one) says."""
    return str(getattr(exc, "message", exc))


class JsLobbyBrowser:
    """The lobby's browser in the page; `page` reads the lobby's fields."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self._post = js.Function(_NEXT_TASK)()
        self._qr_rows = js.Function("text", _QR_ROWS)

    def href(self) -> str:
        """location.href."""
        return str(js.location.href)

    def query(self) -> str:
        """location.search."""
        return str(js.location.search)

    def forget_link(self) -> None:
        """The address without the join link's parameters (history.replaceState: nothing
        reloads, and the Back button does not bring the link back)."""
        search = str(js.location.search)
        kept = without_join_link(search)
        if kept != search:
            location = js.location
            js.history.replaceState(js.history.state, "",
                                    f"{location.pathname}{kept}{location.hash}")

    def field(self, name: str) -> str:
        """The page's field `name`."""
        return self.page.field(name)

    def online(self) -> bool:
        """navigator.onLine."""
        return bool(js.navigator.onLine)

    def can_share(self) -> bool:
        """Whether navigator.share exists."""
        return bool(getattr(js.navigator, "share", None))

    def share(self, title: str, url: str, text: str) -> None:
        """navigator.share; the player closing the share sheet is no failure."""
        data = js.Object.fromEntries([["title", title], ["url", url], ["text", text]])
        promise = js.navigator.share(data)
        promise.catch(create_proxy(lambda _err: None))

    def copy(self, text: str) -> None:
        """navigator.clipboard.writeText."""
        js.navigator.clipboard.writeText(text)

    async def config(self) -> dict[str, Any]:
        """window.LC_CONFIG resolved; RuntimeError for a malformed config or URL parameter."""
        try:
            config: dict[str, Any] = (await js.LC_CONFIG).to_py()
        except Exception as exc:  # noqa: BLE001 - the Promise's Error, whatever it is
            raise RuntimeError(_message(exc)) from None
        return config

    async def load_libraries(self) -> None:
        """window.lcOnlineLibraries(); RuntimeError for a script that could not be fetched."""
        try:
            await js.lcOnlineLibraries()
        except Exception as exc:  # noqa: BLE001 - the Promise's Error, whatever it is
            raise RuntimeError(_message(exc)) from None

    async def reachable(self, url: str) -> bool:
        """A no-cors fetch of `url`: any HTTP answer counts."""
        options = js.Object.fromEntries([["mode", "no-cors"], ["cache", "no-store"]])
        try:
            await js.fetch(url, options)
        except Exception:  # noqa: BLE001 - fetch rejects when the host can't be reached
            return False
        return True

    def qr_matrix(self, text: str) -> list[list[bool]]:
        """The QR code of `text` (window.qrcode from npm qrcode-generator), read in one call
        (a call a module took ~1,100 calls into JavaScript)."""
        rows = str(self._qr_rows(text)).split("\n")
        return [[module == "1" for module in row] for row in rows]

    def open_room(self, config: dict[str, Any], code: str, fresh: bool,
                  on_room: Callable[[str], None], on_change: Callable[[], None]) -> HostNet:
        """The room on PeerJS's broker."""
        return HostNet(config, code, fresh, on_room, on_change)

    def dial(self, config: dict[str, Any], guest: FairGuest,
             on_change: Callable[[], None]) -> GuestNet:
        """The guest's PeerJS connection."""
        return GuestNet(config, guest, on_change)

    def group(self) -> JsSodiumGroup:
        """libsodium's group."""
        return JsSodiumGroup()

    def locks(self) -> WebLocks:
        """The Web Locks API."""
        return WebLocks()

    def next_task(self, job: Callable[[], None]) -> None:
        """`job()` in a task of its own (a MessageChannel's message)."""
        self._post(create_once_callable(job))

    def warn(self, text: str) -> None:
        """console.warn."""
        js.console.warn(text)
