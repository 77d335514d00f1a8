"""The online screens: lobby, waiting room, and the connection badge shown over the table.

Browser-free HTML builders. Hooks (e2e/README.md): the page sets ``data-screen`` (``lobby``,
``waiting``) from what the controller returns;
``data-action`` ``create-room`` / ``join-room``, the shown code in ``data-room-code``, the code
input ``data-field="room-code"``, and ``data-connection`` (connected, reconnecting, lost).
"""

from __future__ import annotations

from collections.abc import Sequence

from webui.html import attrs, button, esc
from webui.i18n import t

QUIET_ZONE = 4
"""Blank modules around a QR code, as the QR standard asks."""


def qr_svg(matrix: Sequence[Sequence[bool]], label: str) -> str:
    """An SVG of a QR code's module matrix (True = dark), one path, crisp at any size."""
    size = len(matrix) + 2 * QUIET_ZONE
    path = "".join(
        f"M{c + QUIET_ZONE} {r + QUIET_ZONE}h1v1h-1z"
        for r, row in enumerate(matrix) for c, dark in enumerate(row) if dark
    )
    return (
        f'<svg{attrs(class_="qr", viewBox=f"0 0 {size} {size}", role="img", aria_label=label)}'
        f' xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{path}" fill="#000"/></svg>'
    )


def _notice(text: str | None, kind: str = "note") -> str:
    if not text:
        return ""
    role = "alert" if kind == "error" else "status"
    return f'<p{attrs(class_=f"online-{kind}", role=role)}>{esc(text)}</p>'


def _code_input(code: str) -> str:
    return attrs(id="room-code", name="room-code", data_field="room-code", value=code,
                 maxlength=12, autocomplete="off", autocapitalize="characters",
                 spellcheck="false", aria_describedby="room-code-hint", placeholder="K7P2QX")


def _name_input(lang: str, name: str) -> str:
    return attrs(id="guest-name", name="guest-name", data_field="guest-name", value=name,
                 maxlength=20, autocomplete="nickname", placeholder=t(lang, "lobby.name.default"))


def render_lobby(lang: str, *, code: str = "", name: str = "", notice: str | None = None,
                 error: str | None = None) -> str:
    """The lobby: create a room (with the setup's options) or join one by its code.

    `notice` says why online play may not work now (offline, broker unreachable); `error` is
    the last refusal (e.g. a malformed code).
    """
    return (
        f'<section class="online lobby" aria-labelledby="lobby-h">'
        f'<h1 id="lobby-h">{esc(t(lang, "lobby.heading"))}</h1>'
        f'<p>{esc(t(lang, "lobby.intro"))}</p>'
        f'{_notice(notice, "warning")}{_notice(error, "error")}'
        f'<div class="online-panels"><div class="online-panel">'
        f'<h3>{esc(t(lang, "lobby.create.heading"))}</h3>'
        f'<p class="hint">{esc(t(lang, "lobby.create.hint"))}</p>'
        f'{button("create-room", esc(t(lang, "lobby.create")), css="btn primary")}'
        f'</div><div class="online-panel">'
        f'<h3>{esc(t(lang, "lobby.join.heading"))}</h3>'
        f'<label for="room-code">{esc(t(lang, "lobby.code"))}</label>'
        f'<input{_code_input(code)}>'
        f'<p class="hint" id="room-code-hint">{esc(t(lang, "lobby.code.hint"))}</p>'
        f'<label for="guest-name">{esc(t(lang, "lobby.name"))}</label>'
        f'<input{_name_input(lang, name)}>'
        f'{button("join-room", esc(t(lang, "lobby.join")), css="btn primary")}'
        f'</div></div>'
        f'{button("leave-room", esc(t(lang, "lobby.back")))}'
        f"</section>"
    )


def render_host_waiting(lang: str, code: str | None, link: str | None, qr: str,
                        can_share: bool, notice: str | None = None) -> str:
    """The host's waiting room: the code, the join link, its QR code, and a share button.

    `code` None while the room is being opened on the broker.
    """
    if code is None:
        return (
            f'<section class="online waiting" data-role="host">'
            f'<h1>{esc(t(lang, "lobby.heading"))}</h1>'
            f'{_notice(notice or t(lang, "waiting.host.opening"))}'
            f'{button("leave-room", esc(t(lang, "waiting.leave")))}</section>'
        )
    share = button("share-room", esc(t(lang, "waiting.share")), css="btn primary") \
        if can_share else ""
    return (
        f'<section class="online waiting" data-role="host"'
        f' aria-labelledby="waiting-h">'
        f'<h1 id="waiting-h">{esc(t(lang, "waiting.host.heading", code=code))}</h1>'
        f'<p>{esc(t(lang, "waiting.host.intro"))}</p>'
        f'<p class="room-code-line">{esc(t(lang, "waiting.code"))}: '
        f'<strong{attrs(class_="room-code", data_room_code=code)}>{esc(code)}</strong></p>'
        f'<figure class="qr-figure">{qr}'
        f'<figcaption>{esc(t(lang, "waiting.qr"))}</figcaption></figure>'
        f'<p class="join-link">{esc(t(lang, "waiting.link"))}: '
        f'<a{attrs(href=link, data_join_link=link)}>{esc(link)}</a></p>'
        f'<p class="online-actions">{share}'
        f'{button("copy-link", esc(t(lang, "waiting.copy")))}</p>'
        f'{_notice(notice)}'
        f'<p class="online-wait" role="status">{esc(t(lang, "waiting.host.wait"))}</p>'
        f'{button("leave-room", esc(t(lang, "waiting.leave")))}'
        f"</section>"
    )


def render_guest_waiting(lang: str, code: str, notice: str | None = None,
                         error: str | None = None) -> str:
    """The guest's screen while it connects to the room (before the first view)."""
    return (
        f'<section class="online waiting" data-role="guest">'
        f'<h1>{esc(t(lang, "waiting.guest.heading", code=code))}</h1>'
        f'<p class="room-code-line">{esc(t(lang, "waiting.code"))}: '
        f'<strong{attrs(class_="room-code", data_room_code=code)}>{esc(code)}</strong></p>'
        f'{_notice(error, "error")}'
        f'<p class="online-wait" role="status">{esc(notice or t(lang, "waiting.guest.wait"))}'
        f"</p>{button('leave-room', esc(t(lang, 'waiting.leave')))}</section>"
    )


def sync_mark(view: dict[str, object]) -> str:
    """Where the match stands, the same on both screens when they agree: round, phase,
    number of public events, player to act (the ``data-sync`` test hook)."""
    log = view.get("log")
    count = len(log) if isinstance(log, list) else 0
    return f"{view.get('round')}:{view.get('phase')}:{count}:{view.get('to_act')}"


def status_bar(lang: str, state: str, opponent: str | None, code: str, sync: str = "",
               error: str | None = None, reload: str | None = None,
               confirm_leave: bool = False, host_away: str | None = None) -> str:
    """The connection badge over the table: ``data-connection`` is the opponent's state,
    ``data-sync`` the `sync_mark` of the view shown; for a guest whose host is gone,
    ``data-host-away`` says how (``closed``: the host's game is closed, ``left``: for good)."""
    name = opponent or t(lang, "status.opponent")
    badge = attrs(class_=f"online-status {state}", data_connection=state, data_sync=sync,
                  data_host_away=host_away, role="status")
    key = f"status.host.{host_away}" if host_away else f"status.{state}"
    parts = [
        f'<div{badge}>'
        f'<span class="dot" aria-hidden="true"></span>'
        f'<span class="online-state">{esc(t(lang, key, name=name))}</span>'
        f'<span class="online-room">{esc(t(lang, "status.room", code=code))}</span>',
        button("leave-room", esc(t(lang, "status.leave")), css="btn small"),
        "</div>",
    ]
    if confirm_leave:
        parts.append(
            f'<div class="notice confirm" role="alertdialog" aria-labelledby="leave-q">'
            f'<p id="leave-q">{esc(t(lang, "status.leave.confirm"))}</p>'
            f'{button("leave-room", esc(t(lang, "status.leave.yes")), css="btn danger")}'
            f'{button("stay", esc(t(lang, "status.stay")), css="btn primary")}</div>'
        )
    if reload:
        parts.append(f'{_notice(reload, "error")}{button("reload", esc(t(lang, "status.reload")))}')
    elif error:
        parts.append(_notice(error, "error"))
    return "".join(parts)
