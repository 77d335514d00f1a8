"""The controller's plug-ins, which come with app-more.zip (webui/browser/boot/more.py): the
online lobby and waiting room, and the player's own screens (stats, replays, the calculator,
the guide). The page imports this module by name once that zip is mounted
(webui/browser/app.py)."""

from __future__ import annotations

from collections.abc import Callable

from webui.browser.online.lobby_browser import JsLobbyBrowser
from webui.browser.page import Page
from webui.browser.player_page import PlayerPage
from webui.match.controller import MatchController
from webui.online.lobby import OnlineLobby
from webui.player.players import Players


def plug_in(controller: MatchController, page: Page,
            on_click: Callable[[str, dict[str, str]], None]) -> None:
    """Plug the online lobby and the player's screens into `controller`, and resume what
    this device saved: its match, then a join link, or a saved room or seat."""
    lobby = OnlineLobby(controller, JsLobbyBrowser(page))
    controller.plug(lobby)
    controller.resume()
    Players(controller, PlayerPage(on_click)).plug()  # stats, replays, the guide...
    lobby.resume(controller.session is not None)
