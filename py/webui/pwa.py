"""The app-update offer, for the UI: a thin bridge to ``window.lcPwa`` (static/sw-register.js).

A new deploy installs in the background and then waits. The UI shows the offer only between
games (the setup and match-end screens, never at the table) as a button with
``data-action="update"``, and calls `apply_update()` when the player presses it: the page then
reloads once on the new version, and the saved match (browser storage) is untouched.
Without a service worker (an old browser, a private window) no update is ever ready.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webui.html import EMPTY, Markup, button, el
from webui.i18n import t

UPDATE_ACTION = "update"
"""The ``data-action`` of the offer's button."""

UPDATE_READY_EVENT = "lc:update-ready"
"""Dispatched on ``window`` when a new version is installed and waiting."""

BETWEEN_GAMES = frozenset({"setup", "match-end"})
"""The screens (``body[data-screen]``) where the offer may appear: no match is being played."""


def _bridge() -> Any | None:
    from pyscript import window  # type: ignore[import-not-found]

    return getattr(window, "lcPwa", None)


def update_ready() -> bool:
    """True when a new version of the app is installed and waits for the player."""
    bridge = _bridge()
    return bridge is not None and bool(bridge.updateReady())


def apply_update() -> bool:
    """Switch to the waiting version (the page reloads on it); False if there is none.

    Call it only when the player asked for it, between games.
    """
    bridge = _bridge()
    return bridge is not None and bool(bridge.applyUpdate())


def on_update_ready(callback: Callable[[], None]) -> None:
    """Run ``callback()`` when an update becomes ready, e.g. to redraw the setup screen."""
    from pyscript import window
    from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

    window.addEventListener(UPDATE_READY_EVENT, create_proxy(lambda _event: callback()))


def offer_html(lang: str) -> Markup:
    """The offer banner: a line of text and the ``data-action="update"`` button."""
    return el("div", el("p", t(lang, "update.offer")),
              button(UPDATE_ACTION, t(lang, "update.button"), css="btn primary"),
              class_="notice update", role="status")


def offer(lang: str, screen: str) -> Markup:
    """The offer banner when an update waits and `screen` is between games, else nothing."""
    return offer_html(lang) if screen in BETWEEN_GAMES and update_ready() else EMPTY
