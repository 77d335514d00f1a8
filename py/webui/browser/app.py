"""The page's boot: the page first, the controller as soon as it is needed (docs/boot.md).

The first screen is the setup form, plain HTML in index.html that works while Python boots
(boot/preboot.js keeps a Start pressed meanwhile): the boot only puts it into the player's
language and says the page is ready. The controller (webui/match/controller.py), and with it the
rules engine, the seats and the screens, is imported just after, a module at a time (`LATER`),
or at once when it is needed first: a match or room to resume, a join link, a Start pressed
during the boot, a click. Then the boot prepares the next boots while the player is idle
(webui/browser/boot/warm.py).
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING

import js  # type: ignore[import-not-found]

from webui.browser.boot.warm import warm_up
from webui.browser.page import Page
from webui.kernel.frame import Frame
from webui.match.seats import MATCH_KEY
from webui.online.codes import ONLINE_SAVE_KEYS, code_from_query
from webui.text.i18n import LANG_KEY, pick_language

if TYPE_CHECKING:
    from webui.match.controller import MatchController

LATER = ("lostcities", "lostcities.bots", "webui.screens.match", "webui.match.session",
         "webui.match.hint", "webui.match.controller", "webui.browser.online.net",
         "webui.online.lobby", "webui.browser.online.lobby_browser", "webui.features.history",
         "webui.features.replay", "webui.features.calculator", "webui.features.keeper",
         "webui.player.players", "webui.browser.player_page")
"""What the controller needs (the engine, the bots, the screens, the online part, the player's
features), imported one at a time just after the page is ready, so that a click waiting is
handled in between."""


def _stored(key: str) -> str | None:
    value = js.localStorage.getItem(key)
    return value if isinstance(value, str) else None  # null arrives as JsNull, not None


class App:
    """This page's app: the page glue at once, the controller when needed."""

    def __init__(self) -> None:
        self.page = Page()
        self.lang = pick_language(_stored(LANG_KEY) or str(js.navigator.language or ""))
        self._controller: MatchController | None = None

    def boot(self) -> None:
        """Show the first screen and say the page is ready; import the rest after."""
        self.page.mount(self.on_click, self.on_escape)
        if self._needed_at_boot():
            self.controller.kick()  # a resumed match where the computer was to move goes on
        else:
            self.page.show(Frame(self.lang, "setup"))
        self.page.ready()
        asyncio.ensure_future(self._import_later())
        if getattr(js.window, "lcWarmUp", True) is not False:  # false: tests that skip it
            asyncio.ensure_future(warm_up(lambda: self.page.last_input))  # for next boots

    def _needed_at_boot(self) -> bool:
        """Whether the first screen needs the controller: a saved match or room, a join
        link, or a Start pressed while Python booted."""
        saved = any(_stored(key) is not None for key in (MATCH_KEY, *ONLINE_SAVE_KEYS))
        link = code_from_query(str(js.location.search)) is not None
        return saved or link or js.document.body.getAttribute("data-pending-start") == "true"

    @property
    def controller(self) -> MatchController:
        """The page's controller, made (and the first screen shown by it) when first needed."""
        if self._controller is None:
            self._controller = self._make_controller()
        return self._controller

    def _make_controller(self) -> MatchController:
        # deferred at boot (docs/boot.md, "Imports deferred at boot"): the engine comes with it
        from webui.browser.online.lobby_browser import JsLobbyBrowser
        from webui.browser.player_page import PlayerPage
        from webui.match.controller import MatchController
        from webui.online.lobby import OnlineLobby
        from webui.player.players import Players

        controller = MatchController(self.page, js.localStorage, self.lang)
        lobby = OnlineLobby(controller, JsLobbyBrowser(self.page))
        controller.plug(lobby)
        controller.resume()
        Players(controller, PlayerPage(self.on_click)).plug()  # stats, replays, the guide...
        lobby.resume(controller.session is not None)  # a join link, or a saved room or seat
        if self.page.pending_start() and controller.session is None:
            controller.act("start", {})
        controller.render()
        return controller

    async def _import_later(self) -> None:
        for name in LATER:
            await asyncio.sleep(0)  # a click waiting is handled first
            importlib.import_module(name)
        if self._controller is None:
            self.controller.kick()

    def on_click(self, action: str, data: dict[str, str]) -> None:
        """A click on a ``data-action`` control (webui/browser/page.py): the controller's."""
        self.controller.click(action, data)

    def on_escape(self) -> None:
        """The Escape key: the controller's, once there is one (before, nothing is open)."""
        if self._controller is not None:
            self._controller.escape()


def start() -> App:
    """The app on this page, booted (py/webui/browser/main.py, the page's script, calls it once)."""
    app = App()
    app.boot()
    return app
