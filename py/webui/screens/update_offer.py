"""The app-update offer, between games.

A new deploy installs in the background and then waits (static/sw-register.js, whose
``window.lcPwa`` the page reaches through webui/browser/page.py). The controller shows the offer
only between games (the setup and match-end screens, never at the table) as a button with
``data-action="update"``; pressing it reloads the page once on the new version, and the saved
match (browser storage) is untouched. Without a service worker (an old browser, a private
window) no update is ever ready.
"""

from __future__ import annotations

from collections.abc import Callable

from webui.screens.html import EMPTY, Markup, button, el
from webui.text.i18n import t

UPDATE_ACTION = "update"
"""The ``data-action`` of the offer's button."""

BETWEEN_GAMES = frozenset({"setup", "match-end"})
"""The screens (``body[data-screen]``) where the offer may appear: no match is being played."""


def offer_html(lang: str) -> Markup:
    """The offer banner: a line of text and the ``data-action="update"`` button."""
    return el("div", el("p", t(lang, "update.offer")),
              button(UPDATE_ACTION, t(lang, "update.button"), css="btn primary"),
              class_="notice update", role="status")


def offer(lang: str, screen: str, update_ready: Callable[[], bool]) -> Markup:
    """The offer banner when `screen` is between games and `update_ready()` (asked only
    then) says an update waits, else nothing."""
    return offer_html(lang) if screen in BETWEEN_GAMES and update_ready() else EMPTY
