"""The page's boot: the page first, the controller as soon as it is needed (docs/boot.md).

The first screen is the setup form, plain HTML in index.html that works while Python boots
(boot/preboot.js keeps a Start pressed meanwhile): the boot only puts it into the player's
language and says the page is ready. Just after, app-more.zip is fetched and mounted
(webui/browser/boot/more.py: online play, the player's history, stats, replays...) while the
controller (webui/match/controller.py), and with it the rules engine, the seats and the screens,
is imported a module at a time (`LATER`); then that zip's modules (`MORE`), with the
controller's plug-ins (webui/browser/plugins.py). The controller is made when first needed: a
match or room to resume, a join link, a Start pressed during the boot, a click; a click that
comes before the zip is mounted waits for it, unless the zip's modules are in already (a later
visit booted from its boot snapshot, which holds them: they run without the file, which the
page writes again meanwhile). Then the boot prepares the next boots while the player is idle
(webui/browser/boot/warm.py).
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from typing import TYPE_CHECKING

import js  # type: ignore[import-not-found]

from webui.browser.boot.more import load_more
from webui.browser.boot.warm import warm_up
from webui.browser.page import Page
from webui.kernel.frame import Frame
from webui.match.seats import MATCH_KEY
from webui.online.codes import ONLINE_SAVE_KEYS, code_from_query
from webui.text.i18n import LANG_KEY, pick_language, t

if TYPE_CHECKING:
    from webui.match.controller import MatchController

LATER = ("lostcities", "webui.screens.match", "webui.match.session", "webui.match.hint",
         "webui.match.controller")
"""What the controller needs (the engine, the seats, the screens), in app.zip: imported one at
a time just after the page is ready, so that a click waiting is handled in between."""
PLUGINS = "webui.browser.plugins"
"""The controller's plug-ins: in app-more.zip, imported by name (boot/build/app_zip.py puts
what the page's script reaches in app.zip, and this is how it reaches the rest)."""
MORE = ("lostcities.bots", "webui.browser.online.net", "webui.online.lobby",
        "webui.browser.online.lobby_browser",
        "webui.features.history", "webui.features.replay", "webui.features.calculator",
        "webui.features.keeper", "webui.player.players", "webui.browser.player_page", PLUGINS)
"""What app-more.zip adds (the computer's bots, online play, the player's features), imported
the same way once it is mounted."""


def _stored(key: str) -> str | None:
    value = js.localStorage.getItem(key)
    return value if isinstance(value, str) else None  # null arrives as JsNull, not None


class App:
    """This page's app: the page glue at once, the controller when needed."""

    def __init__(self) -> None:
        self.page = Page()
        self.lang = pick_language(_stored(LANG_KEY) or str(js.navigator.language or ""))
        self._controller: MatchController | None = None
        self._more: asyncio.Future[bool] | None = None  # app-more.zip fetched and mounted
        self._waiting: list[tuple[str, dict[str, str]]] = []  # clicks before it is

    def boot(self) -> None:
        """Show the first screen and say the page is ready; fetch and import the rest after
        (a resumed match, a join link or a pending Start wait for it to show)."""
        self.page.mount(self.on_click, self.on_escape)
        needed = self._needed_at_boot()
        if not needed:
            self.page.show(Frame(self.lang, "setup"))
            self.page.ready()
        self._more = asyncio.ensure_future(load_more())
        asyncio.ensure_future(self._import_later(needed))
        if getattr(js.window, "lcWarmUp", True) is not False:  # false: tests that skip it
            asyncio.ensure_future(warm_up(lambda: self.page.last_input))  # for next boots

    def _needed_at_boot(self) -> bool:
        """Whether the first screen needs the controller: a saved match or room, a join
        link, or a Start pressed while Python booted."""
        saved = any(_stored(key) is not None for key in (MATCH_KEY, *ONLINE_SAVE_KEYS))
        link = code_from_query(str(js.location.search)) is not None
        return saved or link or js.document.body.getAttribute("data-pending-start") == "true"

    def _has_more(self) -> bool:
        """Whether app-more.zip's modules can be used: they are imported already (PLUGINS
        imports them all: a later visit's boot snapshot holds them), or the zip is mounted
        (False while it comes, or if it failed)."""
        return PLUGINS in sys.modules or (
            self._more is not None and self._more.done() and self._more.result())

    def _settled(self) -> bool:
        """Whether a click can be carried out now: app-more.zip's modules can be used, or
        the zip failed (the page then plays without them)."""
        return self._has_more() or (self._more is not None and self._more.done())

    @property
    def controller(self) -> MatchController:
        """The page's controller, made (and the first screen shown by it) when first needed."""
        if self._controller is None:
            self._controller = self._make_controller()
        return self._controller

    def _make_controller(self) -> MatchController:
        # deferred at boot (docs/boot.md, "Imports deferred at boot"): the engine comes with it
        from webui.match.controller import MatchController

        controller = MatchController(self.page, js.localStorage, self.lang)
        if self._has_more():
            importlib.import_module(PLUGINS).plug_in(controller, self.page, self.on_click)
        else:  # online play and the player's screens could not be loaded
            controller.resume()
            controller.notice = t(self.lang, "notice.more-failed")
        if self.page.pending_start() and controller.session is None:
            controller.act("start", {})
        controller.render()
        return controller

    async def _import_later(self, needed: bool) -> None:
        if not needed:
            await self._import(LATER)  # while app-more.zip comes
        assert self._more is not None
        if not self._has_more():
            await asyncio.wait([self._more])
        if needed:
            self.controller.kick()  # a resumed match where the computer was to move goes on
            self.page.ready()
        while self._waiting:  # the clicks that came meanwhile, in order
            self.controller.click(*self._waiting.pop(0))
        if await self._more:
            await self._import(MORE)
        if self._controller is None:
            self.controller.kick()

    @staticmethod
    async def _import(names: tuple[str, ...]) -> None:
        for name in names:
            await asyncio.sleep(0)  # a click waiting is handled first
            importlib.import_module(name)

    def on_click(self, action: str, data: dict[str, str]) -> None:
        """A click on a ``data-action`` control (webui/browser/page.py): the controller's,
        once app-more.zip's modules can be used (or the zip failed); until then it waits, in
        order."""
        if self._waiting or not self._settled():
            self._waiting.append((action, data))
            return
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
