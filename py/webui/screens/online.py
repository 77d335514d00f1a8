"""The online screens: lobby, waiting room, and the connection badge shown over the table.

Browser-free HTML builders. Hooks (e2e/README.md): the page sets ``data-screen`` (``lobby``,
``waiting``) from what the controller returns;
``data-action`` ``create-room`` / ``join-room``, the shown code in ``data-room-code``, the code
input ``data-field="room-code"``, and ``data-connection`` (connected, reconnecting, lost). A
seat open in another tab of this browser: ``data-screen="elsewhere"`` with ``data-tab``
(``elsewhere``: another tab runs it; ``moved``: it moved from this tab to another) and
``data-action="take-over"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from webui.screens.html import EMPTY, Markup, button, confirm, el, join, void
from webui.text.i18n import t

QUIET_ZONE = 4
"""Blank modules around a QR code, as the QR standard asks."""
OWED_SHOWN_AFTER: Final = 1.0
"""Seconds of owed silence before the badge shows its clock (a quick answer shows none)."""


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
    """A problem with the other page (webui.match.seats.Problem) in the player's language."""
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
                 error: str | None = None, joining: str | None = None,
                 broker: str = "checking") -> Markup:
    """The lobby: create a room (with the setup's options) or join one by its code; on a join
    link (`joining`: the host's name it gives, maybe ""), only the way into that room, with
    hosting one's own a button away (``lobby-host``).

    `notice` says why online play may not work now (offline, broker unreachable); `error` is
    the last refusal (e.g. a malformed code); `broker` (``data-broker``: ``checking``, ``ok``,
    ``down``) whether the broker answered, once asked.
    """
    if joining is not None:
        return _join_screen(lang, code, name, joining, notice, error, broker)
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
        class_="online lobby", data_broker=broker, aria_labelledby="lobby-h")


def _join_screen(lang: str, code: str, name: str, host: str, notice: str | None,
                 error: str | None, broker: str) -> Markup:
    heading = (t(lang, "lobby.joining.from", name=host) if host
               else t(lang, "lobby.joining.room", code=code))
    return el(
        "section", el("h1", heading, id="lobby-h"),
        el("p", t(lang, "lobby.joining.intro")), _notice(notice, "warning"),
        _notice(error, "error"),
        el("div",
           el("label", t(lang, "lobby.name"), for_="guest-name"), _name_input(lang, name),
           el("label", t(lang, "lobby.code"), for_="room-code"), _code_input(code),
           button("join-room", t(lang, "lobby.join"), css="btn primary big"),
           class_="online-panel join-panel"),
        el("p", button("lobby-host", t(lang, "lobby.joining.host"), css="btn small ghost"),
           " ", button("leave-room", t(lang, "lobby.back"), css="btn small ghost"),
           class_="join-else"),
        class_="online lobby joining", data_lobby="join", data_broker=broker,
        aria_labelledby="lobby-h")


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
    problem with the host's messages (webui.match.seats.Problem)."""
    return el(
        "section", el("h1", t(lang, "waiting.guest.heading", code=code)),
        _room_code_line(lang, code), _notice(problem_text(lang, error), "error"),
        el("p", notice or t(lang, "waiting.guest.wait"), class_="online-wait", role="status"),
        button("leave-room", t(lang, "waiting.leave")),
        class_="online waiting", data_role="guest")


def render_elsewhere(lang: str, code: str, tab: str) -> Markup:
    """A seat this tab does not run: ``tab`` ``claiming`` (asking whether another tab runs
    it), ``elsewhere`` (another tab of this browser runs it) or ``moved`` (it moved from this
    tab to another, which runs it now); the last two offer to run it here
    (``take-over``), and the way back to the setup (``leave-room``, which changes nothing of
    the seat)."""
    if tab == "claiming":
        return el("section", el("h1", t(lang, "lobby.heading")),
                  _notice(t(lang, "tab.claiming", code=code)),
                  class_="online waiting", data_tab=tab)
    take = "tab.take.back" if tab == "moved" else "tab.take"
    return el(
        "section", el("h1", t(lang, f"tab.{tab}.heading"), id="tab-h"),
        el("p", t(lang, f"tab.{tab}.text", code=code), role="status"),
        el("p", button("take-over", t(lang, take), css="btn primary"),
           button("leave-room", t(lang, "lobby.back")), class_="online-actions"),
        class_="online elsewhere", data_tab=tab, aria_labelledby="tab-h")


def sync_mark(view: dict[str, object]) -> str:
    """Where the match stands, the same on both screens when they agree: round, phase,
    number of public events, player to act (the ``data-sync`` test hook)."""
    log = view.get("log")
    count = len(log) if isinstance(log, list) else 0
    return f"{view.get('round')}:{view.get('phase')}:{count}:{view.get('to_act')}"


def clock_text(seconds: float) -> str:
    """Seconds as a clock: ``0:07``, ``2:05``, ``75:00``."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _owed(lang: str, name: str, silent: float | None) -> Markup:
    """Whom the match waits on and for how long (``data-silent``: whole seconds), once the
    silence has lasted `OWED_SHOWN_AFTER` (a quick answer shows no clock)."""
    if silent is None or silent < OWED_SHOWN_AFTER:
        return EMPTY
    return el("span", t(lang, "status.owed", name=name, clock=clock_text(silent)),
              class_="online-owed", data_silent=int(silent))


def _offer_end(lang: str, name: str, silent: float | None) -> Markup:
    """The question after two minutes of owed silence: end the match as abandoned by the
    other player (``end-abandoned``), or keep waiting (``keep-waiting``)."""
    return confirm("offer-q", t(lang, "status.offer", name=name, clock=clock_text(silent or 0.0)),
                   ("end-abandoned", t(lang, "status.offer.end", name=name)),
                   ("keep-waiting", t(lang, "status.offer.wait")))


def status_bar(lang: str, state: str, opponent: str | None, code: str, sync: str = "",
               error: dict[str, Any] | None = None, reload: dict[str, Any] | None = None,
               confirm_leave: bool = False, host_away: str | None = None,
               waiting: bool = False, silent: float | None = None, offer_end: bool = False,
               halted: str | None = None, playing: bool = False) -> Markup:
    """The connection badge over the table: ``data-connection`` is the opponent's state,
    ``data-sync`` the `sync_mark` of the view shown, ``data-waiting`` is there while the match
    waits on the other page's messages, with the clock of its silence (``data-silent``) and,
    after two minutes, the question whether to end the match as abandoned
    (``[data-offer]``); for a guest whose host is gone, ``data-host-away`` says how
    (``closed``: the host's game is closed, ``left``: for good); ``data-halted`` is there once
    this page stopped relaying (``unsaved``, ``moved``), with the notice saying why. While
    the match is `playing`, the table's Abandon is the one way out (its question shows here);
    once there is nothing left to play, Leave room is."""
    name = opponent or t(lang, "status.opponent")
    key = f"status.host.{host_away}" if host_away else f"status.{state}"
    parts = [el(
        "div", _DOT, el("span", t(lang, key, name=name), class_="online-state"),
        _owed(lang, name, silent),
        el("span", t(lang, "status.room", code=code), class_="online-room"),
        EMPTY if playing else button("leave-room", t(lang, "status.leave"), css="btn small"),
        class_=f"online-status {state}", data_connection=state, data_sync=sync,
        data_host_away=host_away, data_waiting="true" if waiting else None,
        data_halted=halted, role="status")]
    if offer_end and not confirm_leave:
        parts.append(el("div", _offer_end(lang, name, silent), data_offer="abandoned"))
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
