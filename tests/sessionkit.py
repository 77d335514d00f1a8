"""A session's screen as the page would show it, for tests that drive a `Session` directly
(the controller renders through its own path)."""

from __future__ import annotations

from webui.match.session import Session
from webui.screens.match import render_doc, render_screen, screen_name
from webui.screens.table import Extras


def session_screen(session: Session) -> str:
    """The ``data-screen`` the session shows now."""
    return screen_name(session.view(), session.ui)


def session_render(session: Session, lang: str) -> tuple[str, str]:
    """(screen name, HTML) for the session's current view."""
    view = session.view()
    return screen_name(view, session.ui), render_screen(view, session.ui, lang)


def session_render_doc(session: Session, lang: str,
                       extras: Extras = Extras()) -> tuple[str, str]:
    """(screen name, HTML with its regions marked) for the session's current view."""
    view = session.view()
    return screen_name(view, session.ui), render_doc(view, session.ui, lang, extras)
