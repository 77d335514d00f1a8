"""The online part of the page (Pyodide only): lobby, waiting room, the match and its badge.

The page (webui/app.py) asks `OnlineController` for the screen while `active`, and hands it
every click first (`handle`). The host's match is saved to localStorage after every move and
its room re-registered on reload; the guest's room, seat and token are saved so that reopening
the page (or joining the same code again) takes its seat back.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, TypeVar

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, jsnull  # type: ignore[import-not-found]

from lostcities import Options
from lostcities.names import clean_name
from webui.online.codes import (
    GUEST_KEY,
    HOST_KEY,
    code_from_query,
    join_link,
    new_code,
    normalize_code,
)
from webui.online.guestside import OnlineGuest
from webui.online.hostside import OnlineHost, new_token
from webui.online.net import GuestNet, HostNet, now
from webui.online.screens import (
    qr_svg, render_guest_waiting, render_host_waiting, render_lobby, status_bar, sync_mark,
)
from webui.botseat import run_sliced
from webui.dom import AfterPaint
from webui.hint import can_hint, hint_steps, render_hint
from webui.i18n import t
from webui.html import el, region
from webui.session import TABLE_ACTIONS, Session, parse_save
from webui.setaside import set_aside
from webui.setup import NAME_MAX, Setup
from webui.table import Extras

Saved = TypeVar("Saved", OnlineHost, OnlineGuest)


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of `text` (window.qrcode from npm qrcode-generator), as dark/light rows.

    The library is loaded with PeerJS when the page goes online (`OnlineController._libraries`).
    """
    qr = js.qrcode(0, "M")
    qr.addData(text)
    qr.make()
    size = int(qr.getModuleCount())
    return [[bool(qr.isDark(r, c)) for c in range(size)] for r in range(size)]


def _load(key: str) -> Any:
    """The parsed save under `key`, None if there is none; ValueError if it is unreadable."""
    text = js.localStorage.getItem(key)
    if not isinstance(text, str):  # null arrives as JsNull in Pyodide 314, not None
        return None
    return parse_save(text)


def _store(key: str, doc: dict[str, Any]) -> None:
    js.localStorage.setItem(key, json.dumps(doc))


def _field(name: str) -> str:
    """A lobby field's text, cleaned as a name is (lostcities.names): what is typed is shown
    back in the lobby, and a room code ignores what does not show anyway."""
    element = js.document.querySelector(f'[data-field="{name}"]')
    return "" if element is None or element is jsnull else clean_name(str(element.value))


def _set_aside(key: str) -> None:
    """Move the save under `key` aside (setaside.py), if there is one."""
    text = js.localStorage.getItem(key)
    if isinstance(text, str):
        set_aside(js.localStorage, key, text, int(js.Date.now()), js.console.error)


def _clean_names(saved: Saved) -> Saved:
    """A resumed room or seat with its player's name cleaned (a save written before names
    were: the peer's check would refuse it); one left empty becomes the default."""
    if isinstance(saved, OnlineHost):
        saved.host_name = clean_name(saved.host_name) or "Host"
    else:
        saved.name = clean_name(saved.name) or "Guest"
    return saved


class OnlineController:
    """Everything online on this page. `phase`: off, lobby, host or guest."""

    def __init__(self, rerender: Callable[[], None], on_leave: Callable[[], None]) -> None:
        self.phase = "off"
        self.setup: Setup | None = None
        self.host: OnlineHost | None = None
        self.guest: OnlineGuest | None = None
        self.session: Session | None = None
        self.lobby_code = ""
        self.lobby_name = ""
        self.error: str | None = None
        self.notice: str | None = None
        self.broker_ok: bool | None = None
        self.set_aside: str | None = None
        """Why a saved room or seat could not be loaded (shown in the lobby), or None."""
        self.confirm_leave = False
        self.hint: dict[str, Any] | None = None
        """The hint asked on this screen: {"view", "move"} (move None while worked out)."""
        self.lang = "en"
        """The language of the last render (for messages made between renders)."""
        self._config: dict[str, Any] | None = None
        self._libraries_loaded = False
        """Whether PeerJS and the QR code library have run (static/config.js loads them)."""
        self._host_net: HostNet | None = None
        self._guest_net: GuestNet | None = None
        self._rerender = rerender
        self._on_leave = on_leave
        self._shown_state: str | None = None
        self._save_later = AfterPaint(self._save_now)  # the host's save waits for the paint
        self._tasks: set[asyncio.Future[Any]] = set()
        self._proxies = [create_proxy(self._tick), create_proxy(self._network_event),
                         create_proxy(self._page_hide)]
        js.setInterval(self._proxies[0], 1000)
        js.addEventListener("online", self._proxies[1])
        js.addEventListener("offline", self._proxies[1])
        js.addEventListener("pagehide", self._proxies[2])

    # ---- what the page asks ------------------------------------------------------------------

    @property
    def active(self) -> bool:
        """Whether the page shows an online screen (lobby, waiting room or online match)."""
        return self.phase != "off"

    def resume(self, local_match: bool = False) -> bool:
        """At boot: open a join link (``?room=CODE``: the saved seat of that room, else the
        lobby with the code filled in), or else, unless a pass-and-play match was resumed
        (`local_match`), take back a saved room (host) or seat (guest). False if none."""
        link_code = code_from_query(str(js.location.search))
        if link_code is not None:
            guest = self._saved(GUEST_KEY, OnlineGuest.from_json)
            if guest is not None and _same_code(link_code, guest.code):
                self._start_guest(guest)
            else:
                self.open_lobby(None, link_code)
            return True
        if local_match:
            return False
        host = self._saved(HOST_KEY, OnlineHost.from_json)
        if host is not None:
            self._start_host(host, fresh=False)
            return True
        guest = self._saved(GUEST_KEY, OnlineGuest.from_json)
        if guest is not None:
            self._start_guest(guest)
            return True
        if self.set_aside is not None:
            self.open_lobby(None)  # says what was set aside
            return True
        return False

    def _saved(self, key: str, restore: Callable[[Any, float], Saved]) -> Saved | None:
        """`restore(doc, now)` of the save under `key`, or None; a save that can't be loaded
        is set aside (setaside.py) and the reason kept in `set_aside`."""
        try:
            doc = _load(key)
            return None if doc is None else _clean_names(restore(doc, now()))
        except ValueError as exc:
            _set_aside(key)
            self.set_aside = str(exc)
            return None

    def set_aside_unshown(self) -> None:
        """The online screen could not be shown: set the room's or seat's save aside, and
        leave (the page says why and shows the setup)."""
        for key in (HOST_KEY, GUEST_KEY):
            _set_aside(key)
        self.leave()

    def open_lobby(self, setup: Setup | None, code: str = "") -> None:
        """Show the lobby; `setup` holds the options a room created here will use."""
        self.phase, self.setup, self.error = "lobby", setup, None
        self.lobby_code = code
        if setup is not None and not self.lobby_name:
            self.lobby_name = setup.names[0]
        self._spawn(self._probe_broker())
        self._rerender()

    def render(self, lang: str) -> tuple[str, str]:
        """(``data-screen``, HTML) of the online screen to show now."""
        self.lang = lang
        if self.phase == "lobby":
            if _field("room-code") or _field("guest-name"):
                self.lobby_code, self.lobby_name = _field("room-code"), _field("guest-name")
            error = self.error
            if error is None and self.set_aside is not None:
                error = t(lang, "notice.corrupt", reason=self.set_aside)
            return "lobby", render_lobby(lang, code=self.lobby_code, name=self.lobby_name,
                                         notice=self._network_notice(lang), error=error)
        if self.phase == "host":
            return self._render_host(lang)
        return self._render_guest(lang)

    def handle(self, action: str, data: dict[str, str]) -> bool:
        """Carry out a click while `active`; False if the page should handle it instead."""
        if action in TABLE_ACTIONS and self.session is not None:
            self.session.handle(action, data)
        elif action == "hint" and self.session is not None:
            self._ask_hint(self.session)
        elif action == "create-room":
            self._spawn(self._create_room())
        elif action == "join-room":
            self._join(_field("room-code"), _field("guest-name"))
        elif action in ("leave-room", "abandon") and self._match_on() and not self.confirm_leave:
            self.confirm_leave = True  # leaving a match on is for good: ask first
        elif action == "stay":
            self.confirm_leave = False
        elif action in ("leave-room", "abandon"):
            self.leave()
            self._on_leave()
            return True
        elif action == "share-room" and self.host is not None:
            self._share()
        elif action == "copy-link" and self.host is not None:
            js.navigator.clipboard.writeText(join_link(str(js.location.href), self.host.code))
            self.notice = "copied"
        elif action == "reload":
            js.location.reload()
        elif action == "new-match":
            self.leave()
            return False
        else:
            return False
        self._rerender()
        return True

    def _match_doc(self, session: Session, lang: str, bar: str) -> tuple[str, str]:
        """(screen, keyed HTML) of the match under its connection `bar`: the page updates
        only the regions that changed; the hint sits in the hand area, as offline."""
        name = session.screen()
        hint = render_hint(session.view(), self.hint, lang) if name == "turn" else ""
        log = js.document.querySelector("#screen details.log[open]")
        extras = Extras(hint=hint, log_open=log is not None and log is not jsnull)
        name, doc = session.render_doc(lang, extras)
        return name, region("online-bar", el("div", bar, class_="online-bar")) + doc

    def _ask_hint(self, session: Session) -> None:
        """Work out what the Hard bot would play from this player's own view (in slices)."""
        view = session.view()
        if can_hint(view) and (self.hint is None or self.hint["view"] != view):
            self.hint = {"view": view, "move": None}
            self._spawn(self._work_out_hint(view))

    async def _work_out_hint(self, view: dict[str, Any]) -> None:
        try:
            move = await run_sliced(hint_steps(view))
        except Exception as exc:  # noqa: BLE001 - keep the page alive; say what broke
            js.console.error(f"hint: {exc!r}")
            move = None
        if self.hint is not None and self.hint["view"] is view:
            self.hint = None if move is None else {"view": view, "move": move}
            self._rerender()

    def _match_on(self) -> bool:
        if self.guest is not None and self.guest.host_away == "left":
            return False  # the host ended it: nothing to lose by leaving
        return self.session is not None and self.session.view().get("phase") != "match-end"

    def leave(self) -> None:
        """Close the room or seat and forget it (the opponent sees the connection go; a
        host's guest is told the host left for good)."""
        if self.host is not None and self._host_net is not None:
            self.host.leave()
            self._host_net.close(delay=0.5)  # let the goodbye go out first
            self._host_net = None
        self._hang_up()
        js.localStorage.removeItem(HOST_KEY)
        js.localStorage.removeItem(GUEST_KEY)
        self.phase, self.host, self.guest, self.session = "off", None, None, None
        self.error = self.notice = self.set_aside = self.hint = None
        self.confirm_leave = False

    # ---- host --------------------------------------------------------------------------------

    async def _create_room(self) -> None:
        config = await self._get_config()
        if config is None or not await self._libraries() or self.phase != "lobby":
            return
        setup = self.setup
        options = setup.options if setup is not None else Options()
        first = setup.first_player if setup is not None else 0
        name = (setup.names[0] if setup is not None else "") or self.lobby_name or "Host"
        self.phase, self.error, self.notice = "host", None, None

        def room_open(code: str) -> None:
            self._start_host(OnlineHost.create(code, options, first, name, now()), fresh=True)

        self._host_net = HostNet(config, new_code(), True, room_open, self._rerender)
        self._rerender()

    def _start_host(self, host: OnlineHost, fresh: bool) -> None:
        self.phase, self.host, self.set_aside = "host", host, None
        host.set_on_save(self._save_soon)
        host.set_on_change(self._host_changed)
        host.set_on_warn(js.console.warn)
        js.localStorage.removeItem(GUEST_KEY)
        _store(HOST_KEY, host.to_json())
        if host.has_match:
            self.session = Session(host)
        if fresh and self._host_net is not None:
            self._host_net.host = host
        else:
            self._spawn(self._reopen_room(host))
        self._rerender()

    async def _reopen_room(self, host: OnlineHost) -> None:
        config = await self._get_config()
        if config is not None and await self._libraries() and self.host is host:
            self._host_net = HostNet(config, host.code, False, lambda _code: None,
                                     self._rerender)
            self._host_net.host = host

    def _save_soon(self) -> None:
        """Save the room once the change has been painted (at once if the page is hidden or
        left: dom.AfterPaint)."""
        self._save_later.request()

    def _save_now(self) -> None:
        if self.host is not None:
            _store(HOST_KEY, self.host.to_json())

    def _host_changed(self) -> None:
        if self.host is not None and self.host.has_match and self.session is None:
            self.session = Session(self.host)
        self._rerender()

    def _render_host(self, lang: str) -> tuple[str, str]:
        host, net = self.host, self._host_net
        if self.session is not None and host is not None:
            state = host.connection(now()) or "reconnecting"
            self._shown_state = state
            bar = status_bar(lang, state, host.guest_name, host.code,
                             sync_mark(self.session.view()), confirm_leave=self.confirm_leave)
            return self._match_doc(self.session, lang, bar)
        notice = None
        if net is not None and net.status is not None:
            notice = self._net_notice(lang, net.status)
        elif self.notice == "copied":
            notice = t(lang, "waiting.copied")
        elif self.error is not None:  # e.g. PeerJS could not be loaded (see _libraries)
            notice = self.error
        if host is None:
            return "waiting", render_host_waiting(lang, None, None, "", False, notice)
        link = join_link(str(js.location.href), host.code)
        # a resumed room is shown before the QR code library has loaded: drawn once it has
        qr = qr_svg(qr_matrix(link), t(lang, "waiting.qr")) if self._libraries_loaded else ""
        can_share = bool(getattr(js.navigator, "share", None))
        return "waiting", render_host_waiting(lang, host.code, link, qr, can_share, notice)

    def _share(self) -> None:
        assert self.host is not None
        link = join_link(str(js.location.href), self.host.code)
        data = js.Object.fromEntries([["title", "Lost Cities"], ["url", link],
                                      ["text", f"Lost Cities: room {self.host.code}"]])
        promise = js.navigator.share(data)
        promise.catch(create_proxy(lambda _err: None))  # the player closed the share sheet

    # ---- guest -------------------------------------------------------------------------------

    def _join(self, raw_code: str, raw_name: str) -> None:
        self.lobby_code, self.lobby_name = raw_code, raw_name
        try:
            code = normalize_code(raw_code)
        except ValueError as exc:
            self.error = t(self.lang, "lobby.badcode", reason=str(exc))
            return
        name = clean_name(raw_name, NAME_MAX) or t(self.lang, "lobby.name.default")
        saved = self._saved(GUEST_KEY, OnlineGuest.from_json)
        # joining the same room again: take back the same seat
        token = saved.token if saved is not None and saved.code == code else new_token()
        self._start_guest(OnlineGuest(code, token, name, now()))

    def _start_guest(self, guest: OnlineGuest) -> None:
        self.phase, self.guest, self.error, self.set_aside = "guest", guest, None, None
        js.localStorage.removeItem(HOST_KEY)
        _store(GUEST_KEY, guest.to_json())
        guest.set_on_change(self._guest_changed)
        self._spawn(self._dial(guest))

    async def _dial(self, guest: OnlineGuest) -> None:
        config = await self._get_config()
        if config is not None and await self._libraries() and self.guest is guest:
            self._guest_net = GuestNet(config, guest, self._rerender)
        self._rerender()

    def _guest_changed(self) -> None:
        guest = self.guest
        if guest is None:
            return
        if guest.refused or guest.host_away == "left":
            js.localStorage.removeItem(GUEST_KEY)
        elif guest.has_match:
            if self.session is None:
                self.session = Session(guest)
            _store(GUEST_KEY, guest.to_json())
        self._rerender()

    def _render_guest(self, lang: str) -> tuple[str, str]:
        guest, net = self.guest, self._guest_net
        assert guest is not None
        if self.session is not None and guest.has_match:
            state = guest.connection(now())
            self._shown_state = state
            view = guest.view()
            bar = status_bar(lang, state, view["names"][1 - guest.seat], guest.code,
                             sync_mark(view), guest.error, guest.reload_needed,
                             self.confirm_leave, guest.host_away)
            return self._match_doc(self.session, lang, bar)
        notice = None
        if guest.refused or guest.reload_needed:
            notice = guest.refused or guest.reload_needed
        elif net is not None and net.status is not None:
            notice = self._net_notice(lang, net.status, guest.code)
        elif self.error is not None:  # e.g. PeerJS could not be loaded (see _libraries)
            notice = self.error
        return "waiting", render_guest_waiting(lang, guest.code, notice, guest.error)

    # ---- network -----------------------------------------------------------------------------

    def _net_notice(self, lang: str, status: str, code: str = "") -> str:
        if status == "broker":
            return self._broker_text(lang)
        key = {"taken": "waiting.host.taken", "held": "waiting.host.held",
               "noroom": "waiting.guest.noroom"}[status]
        return t(lang, key, code=code)

    def _broker_text(self, lang: str) -> str:
        peer = (self._config or {}).get("peer", {})
        return t(lang, "lobby.nobroker", broker=f"{peer.get('host', '?')}:{peer.get('port', '')}")

    def _network_notice(self, lang: str) -> str | None:
        if not js.navigator.onLine:
            return t(lang, "lobby.offline")
        if self.broker_ok is False:
            return self._broker_text(lang)
        return None

    async def _get_config(self) -> dict[str, Any] | None:
        if self._config is None:
            try:
                self._config = (await js.LC_CONFIG).to_py()
            except Exception as exc:  # noqa: BLE001 - a malformed config or URL parameter
                self.error = str(getattr(exc, "message", exc))
                self._rerender()
                return None
        return self._config

    async def _libraries(self) -> bool:
        """Load PeerJS and the QR code library (window.lcOnlineLibraries, static/config.js)
        unless they are loaded; False, with the error shown, if one could not be loaded."""
        if not self._libraries_loaded:
            try:
                await js.lcOnlineLibraries()
            except Exception as exc:  # noqa: BLE001 - a script that could not be fetched
                self.error = str(getattr(exc, "message", exc))
                self._rerender()
                return False
            self._libraries_loaded = True
            self._rerender()
        return True

    async def _probe_broker(self) -> None:
        """Whether the broker answers at all (no-cors: any HTTP answer counts)."""
        config = await self._get_config()
        if config is None:
            return
        peer = config["peer"]
        scheme = "https" if peer["secure"] else "http"
        url = f"{scheme}://{peer['host']}:{peer['port']}{peer['path']}"
        options = js.Object.fromEntries([["mode", "no-cors"], ["cache", "no-store"]])
        try:
            await js.fetch(url, options)
            ok = True
        except Exception:  # noqa: BLE001 - fetch rejects when the host can't be reached
            ok = False
        if ok != self.broker_ok:
            self.broker_ok = ok
            if self.phase == "lobby":
                self._rerender()

    def _network_event(self, _event: Any) -> None:
        if self.phase == "lobby":
            self._spawn(self._probe_broker())
            self._rerender()

    def _tick(self) -> None:
        if self._guest_net is not None:
            self._guest_net.tick()
        state = None
        if self.session is not None:
            if self.host is not None:
                state = self.host.connection(now())
            elif self.guest is not None:
                state = self.guest.connection(now())
        if state is not None and state != self._shown_state:
            self._rerender()

    def _page_hide(self, _event: Any) -> None:
        """Leaving the page: hang up at once so the opponent sees it (a save that is due is
        written by `_save_later` on the same event)."""
        self._hang_up()

    def _hang_up(self) -> None:
        if self._host_net is not None:
            self._host_net.close()
        if self._guest_net is not None:
            self._guest_net.close()
        self._host_net = self._guest_net = None

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _same_code(raw: str, code: str) -> bool:
    try:
        return normalize_code(raw) == code
    except ValueError:
        return False
