"""The online screens: lobby, waiting room, and the connection badge shown over the table.

Browser-free HTML builders. Hooks (e2e/README.md): the page sets ``data-screen`` (``lobby``,
``waiting``) from what the controller returns;
``data-action`` ``create-room`` / ``join-room``, the shown code in ``data-room-code``, the code
input ``data-field="room-code"``, and ``data-connection`` (connected, reconnecting, lost).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from webui.html import EMPTY, Markup, button, confirm, el, join, void
from webui.i18n import t

QUIET_ZONE = 4
"""Blank modules around a QR code, as the QR standard asks."""


def qr_svg(matrix: Sequence[Sequence[bool]], label: str) -> Markup:
    """An SVG of a QR code's module matrix (True = dark), one path, crisp at any size."""
    size = len(matrix) + 2 * QUIET_ZONE
    path = "".join(
        f"M{c + QUIET_ZONE} {r + QUIET_ZONE}h1v1h-1z"
        for r, row in enumerate(matrix) for c, dark in enumerate(row) if dark
    )
    return el("svg", el("rect", width=size, height=size, fill="#fff"),
              el("path", d=path, fill="#000"), class_="qr", viewBox=f"0 0 {size} {size}",
              role="img", aria_label=label, xmlns="http://www.w3.org/2000/svg",
              shape_rendering="crispEdges")


def problem_text(lang: str, problem: dict[str, Any] | None) -> str | None:
    """A problem with the other page (webui.seats.Problem) in the player's language."""
    if problem is None:
        return None
    return t(lang, f"problem.{problem['code']}", **problem.get("data", {}))


def _notice(text: str | None, kind: str = "note") -> Markup:
    if not text:
        return EMPTY
    return el("p", text, class_=f"online-{kind}", role="alert" if kind == "error" else "status")


def _code_input(code: str) -> Markup:
    return void("input", id="room-code", name="room-code", data_field="room-code", value=code,
                maxlength=12, autocomplete="off", autocapitalize="characters",
                spellcheck="false", aria_describedby="room-code-hint", placeholder="K7P2QX")


def _name_input(lang: str, name: str) -> Markup:
    return void("input", id="guest-name", name="guest-name", data_field="guest-name",
                value=name, maxlength=20, autocomplete="nickname",
                placeholder=t(lang, "lobby.name.default"))


def render_lobby(lang: str, *, code: str = "", name: str = "", notice: str | None = None,
                 error: str | None = None) -> Markup:
    """The lobby: create a room (with the setup's options) or join one by its code.

    `notice` says why online play may not work now (offline, broker unreachable); `error` is
    the last refusal (e.g. a malformed code).
    """
    create = el(
        "div", el("h3", t(lang, "lobby.create.heading")),
        el("p", t(lang, "lobby.create.hint"), class_="hint"),
        button("create-room", t(lang, "lobby.create"), css="btn primary"),
        class_="online-panel")
    join_panel = el(
        "div", el("h3", t(lang, "lobby.join.heading")),
        el("label", t(lang, "lobby.code"), for_="room-code"), _code_input(code),
        el("p", t(lang, "lobby.code.hint"), class_="hint", id="room-code-hint"),
        el("label", t(lang, "lobby.name"), for_="guest-name"), _name_input(lang, name),
        button("join-room", t(lang, "lobby.join"), css="btn primary"),
        class_="online-panel")
    return el(
        "section", el("h1", t(lang, "lobby.heading"), id="lobby-h"),
        el("p", t(lang, "lobby.intro")), _notice(notice, "warning"), _notice(error, "error"),
        el("div", create, join_panel, class_="online-panels"),
        button("leave-room", t(lang, "lobby.back")),
        class_="online lobby", aria_labelledby="lobby-h")


def _room_code_line(lang: str, code: str) -> Markup:
    return el("p", t(lang, "waiting.code"), ": ",
              el("strong", code, class_="room-code", data_room_code=code),
              class_="room-code-line")


def render_host_waiting(lang: str, code: str | None, link: str | None, qr: Markup,
                        can_share: bool, notice: str | None = None) -> Markup:
    """The host's waiting room: the code, the join link, its QR code, and a share button.

    `code` None while the room is being opened on the broker.
    """
    if code is None:
        return el("section", el("h1", t(lang, "lobby.heading")),
                  _notice(notice or t(lang, "waiting.host.opening")),
                  button("leave-room", t(lang, "waiting.leave")),
                  class_="online waiting", data_role="host")
    share = (button("share-room", t(lang, "waiting.share"), css="btn primary") if can_share
             else EMPTY)
    return el(
        "section", el("h1", t(lang, "waiting.host.heading", code=code), id="waiting-h"),
        el("p", t(lang, "waiting.host.intro")), _room_code_line(lang, code),
        el("figure", qr, el("figcaption", t(lang, "waiting.qr")), class_="qr-figure"),
        el("p", t(lang, "waiting.link"), ": ", el("a", link, href=link, data_join_link=link),
           class_="join-link"),
        el("p", share, button("copy-link", t(lang, "waiting.copy")), class_="online-actions"),
        _notice(notice),
        el("p", t(lang, "waiting.host.wait"), class_="online-wait", role="status"),
        button("leave-room", t(lang, "waiting.leave")),
        class_="online waiting", data_role="host", aria_labelledby="waiting-h")


def render_guest_waiting(lang: str, code: str, notice: str | None = None,
                         error: dict[str, Any] | None = None) -> Markup:
    """The guest's screen while it connects to the room (before the first view); `error` a
    problem with the host's messages (webui.seats.Problem)."""
    return el(
        "section", el("h1", t(lang, "waiting.guest.heading", code=code)),
        _room_code_line(lang, code), _notice(problem_text(lang, error), "error"),
        el("p", notice or t(lang, "waiting.guest.wait"), class_="online-wait", role="status"),
        button("leave-room", t(lang, "waiting.leave")),
        class_="online waiting", data_role="guest")


def sync_mark(view: dict[str, object]) -> str:
    """Where the match stands, the same on both screens when they agree: round, phase,
    number of public events, player to act (the ``data-sync`` test hook)."""
    log = view.get("log")
    count = len(log) if isinstance(log, list) else 0
    return f"{view.get('round')}:{view.get('phase')}:{count}:{view.get('to_act')}"


def status_bar(lang: str, state: str, opponent: str | None, code: str, sync: str = "",
               error: dict[str, Any] | None = None, reload: dict[str, Any] | None = None,
               confirm_leave: bool = False, host_away: str | None = None,
               waiting: bool = False) -> Markup:
    """The connection badge over the table: ``data-connection`` is the opponent's state,
    ``data-sync`` the `sync_mark` of the view shown, ``data-waiting`` is there while the match
    waits on the other page's messages; for a guest whose host is gone, ``data-host-away``
    says how (``closed``: the host's game is closed, ``left``: for good)."""
    name = opponent or t(lang, "status.opponent")
    key = f"status.host.{host_away}" if host_away else f"status.{state}"
    parts = [el(
        "div", _DOT, el("span", t(lang, key, name=name), class_="online-state"),
        el("span", t(lang, "status.room", code=code), class_="online-room"),
        button("leave-room", t(lang, "status.leave"), css="btn small"),
        class_=f"online-status {state}", data_connection=state, data_sync=sync,
        data_host_away=host_away, data_waiting="true" if waiting else None, role="status")]
    if confirm_leave:
        parts.append(confirm("leave-q", t(lang, "status.leave.confirm"),
                             ("leave-room", t(lang, "status.leave.yes")),
                             ("stay", t(lang, "status.stay"))))
    if reload:
        parts += [_notice(problem_text(lang, reload), "error"),
                  button("reload", t(lang, "status.reload"))]
    elif error:
        parts.append(_notice(problem_text(lang, error), "error"))
    return join(parts)


_DOT = el("span", class_="dot", aria_hidden="true")
