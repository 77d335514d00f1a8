"""The online part's screens before a match: the lobby and the waiting room.

`OnlineLobby` is a screen plugged into the controller (webui/match/controller.py `Screen`). From the
lobby the player creates a room (the host) or joins one by its code (the guest). As soon as the
seat exists (the room is open on the broker, or the guest dials it), the lobby hands it to the
controller with its transport attached (webui/browser/online/net.py), and shows the waiting room
while the seat waits for its match; the controller plays the match, saves it, keeps the connection
alive and hangs it up. At boot the lobby takes back a join link (``?room=CODE``), a saved room
or a saved seat: reopening the page, or joining the same code again, takes the seat back.

The seats play a fair match (webui/online/seat.py) with libsodium's group
(`JsSodiumGroup`), loaded with the online libraries: a seat is handed its group (and a saved
one replays its match) before its transport is attached. A saved match that does not replay
is set aside (webui/kernel/setaside.py) and the lobby says why.

A seat runs in one tab of this browser at a time (webui/online/seatlock.py): the lobby claims
a seat's lock before it starts the seat, and reads a saved seat only once it holds it. While
another tab holds it, this tab shows ``data-screen="elsewhere"`` and runs nothing; taking it
over makes the other tab halt its seat, let it go and say the match moved.

Browser-free: what it needs of the browser (the address, PeerJS, libsodium, the locks...) is
handed in (`LobbyBrowser`, webui/online/lobby_browser.py), so it runs natively too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from lostcities import Options
from lostcities.names import clean_name
from webui.kernel.setaside import set_aside
from webui.match.controller import MatchController
from webui.match.seats import problem
from webui.match.session import parse_save
from webui.match.setup import NAME_MAX, Setup, parse_setup
from webui.online.codes import (
    GUEST_KEY,
    HOST_KEY,
    code_from_query,
    host_from_query,
    join_link,
    load_link_parts,
    new_code,
    normalize_code,
)
from webui.online.codes import GUEST_SEAT, HOST_SEAT
from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.online.lobby_browser import LobbyBrowser, RoomNet
from webui.online.seat import FairSeat, new_token
from webui.online.seatlock import SeatGuard
from webui.screens.html import EMPTY, Markup
from webui.screens.online import (problem_text, qr_svg, render_elsewhere, render_guest_waiting,
                                  render_host_waiting, render_lobby)
from webui.text.i18n import t

Saved = TypeVar("Saved", FairHost, FairGuest)


def _same_code(raw: str, code: str) -> bool:
    try:
        return normalize_code(raw) == code
    except ValueError:
        return False


class OnlineLobby:
    """The lobby and the waiting room. `phase`: ``off``, ``lobby`` (the form), ``opening``
    (a new room being registered on the broker, before its seat exists), ``tab`` (a seat's
    lock asked for, or held by another tab: `guard`)."""

    def __init__(self, controller: MatchController, browser: LobbyBrowser) -> None:
        self.controller = controller
        self.page = page = controller.page
        self.browser = browser
        self.phase = "off"
        self.setup: Setup | None = None
        self.seat: FairHost | FairGuest | None = None
        """The seat this lobby handed to the controller last."""
        self.lobby_code = ""
        self.lobby_name = ""
        self.joining: str | None = None
        """On a join link: the host's name it gives ("" if none), and the lobby shows only
        the way in (None: the whole lobby)."""
        self.error: str | None = None
        self.notice: str | None = None
        self.broker_ok: bool | None = None
        self.set_aside: str | None = None
        """Why a saved room or seat could not be loaded (shown in the lobby), or None."""
        self._config: dict[str, Any] | None = None
        self._libraries_loaded = False
        """Whether PeerJS and the QR code library have run (static/config.js loads them)."""
        self._opening: RoomNet | None = None
        self._qr: tuple[tuple[str, str], Markup] | None = None
        """The last QR code drawn, by (language, link): drawn once, shown at every render."""
        self._qr_wanted: tuple[str, str] | None = None
        self._qr_later = page.after_paint(self._draw_qr)
        self._link_parts = page.after_paint(load_link_parts)
        """The join link's imports, in a task after the lobby's first paint."""
        self.guard = SeatGuard(browser.locks(), self.controller.render)
        """This tab's hold on the seat it runs (one tab per seat)."""
        page.on_window("online", self._network_changed)
        page.on_window("offline", self._network_changed)
        page.on_window("pagehide", self._hang_up)

    # ---- the controller's Screen -------------------------------------------------------------

    def handle(self, action: str, data: dict[str, str]) -> bool:
        """Carry out a click of the lobby or the waiting room; False for any other."""
        waiting = self._waiting()
        if action == "start":
            values = self.page.form_values()
            if values.get("mode") != "online":
                return False
            self.open_lobby(parse_setup(values, self.controller.lang))
        elif action == "create-room" and self.phase == "lobby":
            self.controller.spawn(self._create_room())
        elif action == "join-room" and self.phase == "lobby":
            self._join(self._field("room-code"), self._field("guest-name"))
        elif action == "lobby-host" and self.phase == "lobby":
            self.joining = None  # the whole lobby: hosting a room of one's own
        elif action == "take-over" and self.phase == "tab":
            self.guard.take_over()
        elif action == "leave-room" and self.phase != "off":
            self.close()
        elif action == "share-room" and isinstance(waiting, FairHost):
            self._share(waiting)
        elif action == "copy-link" and isinstance(waiting, FairHost):
            self.browser.copy(join_link(self.browser.href(), waiting.code, waiting.name))
            self.notice = "copied"
        else:
            return False
        return True

    def render(self, lang: str) -> tuple[str, str] | None:
        """(``data-screen``, HTML) of the lobby, the waiting room or a seat another tab runs,
        None when none shows."""
        if self.guard.running and not self._runs(self.seat):
            self.guard.release()  # the room was left: another tab may take its seat
            self.browser.forget_link()
        if self.phase == "tab":
            tab = self.guard.state if self.guard.state in ("elsewhere", "moved") else "claiming"
            return "elsewhere", render_elsewhere(lang, self.guard.code or "", tab)
        if self.phase == "lobby":
            if self._field("room-code") or self._field("guest-name"):
                self.lobby_code = self._field("room-code")
                self.lobby_name = self._field("guest-name")
            error = self.error
            if error is None and self.set_aside is not None:
                error = t(lang, "notice.corrupt", reason=self.set_aside)
            broker = {None: "checking", True: "ok", False: "down"}[self.broker_ok]
            return "lobby", render_lobby(lang, code=self.lobby_code, name=self.lobby_name,
                                         notice=self._network_notice(lang), error=error,
                                         joining=self.joining, broker=broker)
        if self.phase == "opening":
            return "waiting", render_host_waiting(lang, None, None, EMPTY, False,
                                                  self._opening_notice(lang))
        waiting = self._waiting()
        if isinstance(waiting, FairHost):
            return "waiting", self._host_waiting(lang, waiting)
        if isinstance(waiting, FairGuest):
            return "waiting", self._guest_waiting(lang, waiting)
        return None

    def close(self) -> None:
        """Back to the setup: the lobby closes, and a room being opened leaves the broker (a
        seat another tab runs is left to it)."""
        if self._opening is not None:
            self._opening.close()
            self._opening = None
        if not self.guard.running:
            self.guard.release()
        self.browser.forget_link()
        self.phase, self.error, self.notice = "off", None, None

    # ---- opening -----------------------------------------------------------------------------

    def open_lobby(self, setup: Setup | None, code: str = "", joining: str | None = None) -> None:
        """Show the lobby; `setup` holds the options a room created here will use; on a join
        link (`joining`: the host's name it gives), only the way into room `code`."""
        self.phase, self.setup, self.error = "lobby", setup, None
        self.lobby_code, self.joining = code, joining
        if setup is not None and not self.lobby_name:
            self.lobby_name = setup.names[0]
        self.controller.spawn(self._probe_broker())
        self._link_parts.request()

    def resume(self, local_match: bool = False) -> bool:
        """At boot: open a join link (``?room=CODE``: the saved seat of that room, else the
        lobby with the code filled in), or else, unless a match on this device was resumed
        (`local_match`), take back a saved room (host) or seat (guest). False if none."""
        query = self.browser.query()
        link_code = code_from_query(query)
        if link_code is not None:
            guest = self._saved(GUEST_KEY, FairGuest.from_json)
            host = self._saved(HOST_KEY, FairHost.from_json)
            if guest is not None and _same_code(link_code, guest.code):
                self._claim_saved(guest)
            elif host is not None and _same_code(link_code, host.code):
                self._claim_saved(host)  # the host's own join link: its room
            else:
                self.open_lobby(None, link_code, host_from_query(query))
            return True
        if local_match:
            return False
        host = self._saved(HOST_KEY, FairHost.from_json)
        if host is not None:
            self._claim_saved(host)
            return True
        guest = self._saved(GUEST_KEY, FairGuest.from_json)
        if guest is not None:
            self._claim_saved(guest)
            return True
        if self.set_aside is not None:
            self.open_lobby(None)  # says what was set aside
            return True
        return False

    # ---- one tab per seat ----------------------------------------------------------------------

    def _claim(self, code: str, seat: int, run: Callable[[], None]) -> None:
        """Run a seat (`run()`) once this tab holds its lock; meanwhile, or while another tab
        runs it, the ``elsewhere`` screen shows."""
        self.phase, self.error = "tab", None
        self.guard.claim(code, seat, run, self._moved)
        self.controller.render()

    def _claim_saved(self, seat: FairHost | FairGuest) -> None:
        """Resume the saved `seat` once this tab holds its lock, from what storage holds
        then (another tab may have written since: it is read again)."""
        key, code = seat.save_key, seat.code
        self._claim(code, seat.seat, lambda: self._resume_saved(key, code))

    def _resume_saved(self, key: str, code: str) -> None:
        """The lock is held: the seat saved under `key`, if it is still room `code`'s, starts
        here; else (the room was left meanwhile, or its save set aside) the lobby shows."""
        if key == HOST_KEY:
            host = self._saved(HOST_KEY, FairHost.from_json)
            if host is not None and host.code == code:
                self._start_host(host)
                return
        else:
            guest = self._saved(GUEST_KEY, FairGuest.from_json)
            if guest is not None and guest.code == code:
                self._start_guest(guest)
                return
        self.guard.release()
        self.open_lobby(None, code if key == GUEST_KEY else "")

    def _moved(self) -> None:
        """Another tab took this tab's seat: it halts (nothing more sent or written), the
        controller lets it go, and this tab says the match moved."""
        seat = self.seat
        if seat is not None:
            seat.halt(problem("moved"))
            self.controller.let_go(seat)
            seat.hang_up()
        self.phase = "tab"

    def _runs(self, seat: FairSeat | None) -> bool:
        """Whether `seat` is the seat running here now (the controller's)."""
        return seat is not None and self._current(seat)

    # ---- saves -------------------------------------------------------------------------------

    def _saved(self, key: str, restore: Callable[[Any, float], Saved]) -> Saved | None:
        """`restore(doc, now)` of the save under `key`, or None; a save that can't be loaded
        is set aside (setaside.py) and the reason kept in `set_aside`."""
        storage = self.controller.storage
        text = storage.getItem(key)
        if not isinstance(text, str):  # JavaScript's null is not None
            return None
        try:
            return restore(parse_save(text), self.page.clock())
        except ValueError as exc:
            set_aside(storage, key, text, self.page.stamp(), self.page.log)
            self.set_aside = str(exc)
            return None

    # ---- the host ----------------------------------------------------------------------------

    async def _create_room(self) -> None:
        config = await self._get_config()
        if config is None or not await self._libraries() or self.phase != "lobby":
            return
        setup = self.setup
        options = setup.options if setup is not None else Options()
        first = setup.first_player if setup is not None else 0
        name = (setup.names[0] if setup is not None else "") or self.lobby_name or "Host"
        self.phase, self.error, self.notice = "opening", None, None

        def room_open(code: str) -> None:
            net, self._opening = self._opening, None
            if net is None:
                return

            def run() -> None:
                host = FairHost.create(code, options, first, name, self.page.clock())
                host.load(self.browser.group())
                self._start_host(host, net)

            self._claim(code, HOST_SEAT, run)  # (a fresh code: no other tab holds it)

        self._opening = self.browser.open_room(config, new_code(), True, room_open,
                                               self.controller.render)
        self.controller.render()

    def _start_host(self, host: FairHost, net: RoomNet | None = None) -> None:
        """Hand the room to the controller: on `net` just opened, or on one opened again."""
        self.phase, self.seat, self.set_aside, self.notice = "off", host, None, None
        self._prepare(host)
        self.controller.storage.removeItem(GUEST_KEY)
        self.controller.play(host)
        if net is None:
            self.controller.spawn(self._reopen_room(host))
        else:
            net.host = host
            host.attach(net)
        self.controller.render()

    async def _reopen_room(self, host: FairHost) -> None:
        config = await self._get_config()
        if config is not None and await self._libraries() and self._current(host) \
                and self._load(host):
            net = self.browser.open_room(config, host.code, False, lambda _code: None,
                                         self.controller.render)
            net.host = host
            host.attach(net)

    def _host_waiting(self, lang: str, host: FairHost) -> Markup:
        notice = None
        status = host.transport.status if host.transport is not None else None
        if host.problem():  # e.g. the match stopped before its first deal
            notice = problem_text(lang, host.problem())
        elif status is not None:
            notice = self._net_notice(lang, status)
        elif self.notice == "copied":
            notice = t(lang, "waiting.copied")
        elif self.error is not None:  # e.g. PeerJS could not be loaded (see _libraries)
            notice = self.error
        link = join_link(self.browser.href(), host.code, host.name)
        # a resumed room is shown before the QR code library has loaded: drawn once it has
        qr = self._qr_code(lang, link) if self._libraries_loaded else EMPTY
        return render_host_waiting(lang, host.code, link, qr, self.browser.can_share(), notice)

    def _qr_code(self, lang: str, link: str) -> Markup:
        """The QR code of `link`, drawn once (the waiting room renders again every second),
        in a task after the waiting room's paint (its library's first code takes tens of
        ms): nothing until then."""
        key = (lang, link)
        if self._qr is not None and self._qr[0] == key:
            return self._qr[1]
        self._qr_wanted = key
        self._qr_later.request()
        return EMPTY

    def _draw_qr(self) -> None:
        key, self._qr_wanted = self._qr_wanted, None
        if key is not None:
            lang, link = key
            self._qr = key, qr_svg(self.browser.qr_matrix(link), t(lang, "waiting.qr"))
            self.controller.render()

    def _opening_notice(self, lang: str) -> str | None:
        net = self._opening
        if net is not None and net.status is not None:
            return self._net_notice(lang, net.status)
        return self.error

    def _share(self, host: FairHost) -> None:
        link = join_link(self.browser.href(), host.code, host.name)
        self.browser.share("Lost Cities", link, f"Lost Cities: room {host.code}")

    # ---- the guest ---------------------------------------------------------------------------

    def _join(self, raw_code: str, raw_name: str) -> None:
        self.lobby_code, self.lobby_name = raw_code, raw_name
        try:
            code = normalize_code(raw_code)
        except ValueError as exc:
            self.error = t(self.controller.lang, "lobby.badcode", reason=str(exc))
            return
        name = clean_name(raw_name, NAME_MAX) or t(self.controller.lang, "lobby.name.default")
        saved = self._saved(GUEST_KEY, FairGuest.from_json)
        # joining the same room again: take back the same seat (and its match)
        if saved is not None and saved.code == code:
            self._claim_saved(saved)
            return
        self._claim(code, GUEST_SEAT,
                    lambda: self._start_guest(FairGuest(code, new_token(), name,
                                                        self.page.clock())))

    def _start_guest(self, guest: FairGuest) -> None:
        """Hand the seat to the controller, and dial its room."""
        self.phase, self.seat, self.error, self.set_aside = "off", guest, None, None
        self._prepare(guest)
        self.controller.storage.removeItem(HOST_KEY)
        self.controller.play(guest)
        self.controller.spawn(self._dial(guest))

    async def _dial(self, guest: FairGuest) -> None:
        config = await self._get_config()
        if config is not None and await self._libraries() and self._current(guest) \
                and self._load(guest):
            guest.attach(self.browser.dial(config, guest, self.controller.render))
        self.controller.render()

    def _guest_waiting(self, lang: str, guest: FairGuest) -> Markup:
        notice = None
        status = guest.transport.status if guest.transport is not None else None
        if guest.refused or guest.reload_needed:
            notice = problem_text(lang, guest.refused or guest.reload_needed)
        elif status is not None:
            notice = self._net_notice(lang, status, guest.code)
        elif self.error is not None:  # e.g. PeerJS could not be loaded (see _libraries)
            notice = self.error
        return render_guest_waiting(lang, guest.code, notice, guest.problem())

    # ---- the seat handed over ----------------------------------------------------------------

    def _prepare(self, seat: FairSeat) -> None:
        """What a seat needs of the page: its storage (saved before sending), the log, and
        tasks to take the match's messages in."""
        seat.set_on_warn(self.browser.warn)
        seat.set_store(self.controller.storage)
        seat.set_later(self.browser.next_task)

    def _load(self, seat: FairSeat) -> bool:
        """Give `seat` the page's group (libsodium, loaded with the online libraries); a saved
        match replays. False, with its save set aside and the lobby saying why, if it does
        not."""
        if seat.loaded:
            return True
        try:
            seat.load(self.browser.group())
        except ValueError as exc:  # CorruptSave: the saved match does not replay
            storage = self.controller.storage
            text = storage.getItem(seat.save_key)
            if isinstance(text, str):
                set_aside(storage, seat.save_key, text, self.page.stamp(), self.page.log)
            self.controller.end_match()
            self.set_aside = str(exc)
            self.open_lobby(None)
            self.controller.render()
            return False
        self.controller.render()
        return True

    def _current(self, seat: FairSeat) -> bool:
        """Whether `seat` is still the controller's (the player may have left meanwhile)."""
        session = self.controller.session
        return session is not None and session.seat is seat

    def _waiting(self) -> FairHost | FairGuest | None:
        """The seat handed over, while it is the controller's and waits for its match."""
        seat = self.seat
        return seat if seat is not None and self._current(seat) and not seat.has_match else None

    # ---- network -----------------------------------------------------------------------------

    def _field(self, name: str) -> str:
        """A lobby field's text, cleaned as a name is (lostcities.names): what is typed is
        shown back in the lobby, and a room code ignores what does not show anyway."""
        return clean_name(self.browser.field(name))

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
        if not self.browser.online():
            return t(lang, "lobby.offline")
        if self.broker_ok is False:
            return self._broker_text(lang)
        return None

    async def _get_config(self) -> dict[str, Any] | None:
        if self._config is None:
            try:
                self._config = await self.browser.config()
            except RuntimeError as exc:  # a malformed config or URL parameter
                self.error = str(exc)
                self.controller.render()
                return None
        return self._config

    async def _libraries(self) -> bool:
        """Load PeerJS and the QR code library (`LobbyBrowser.load_libraries`) unless they are
        loaded; False, with the error shown, if one could not be loaded."""
        if not self._libraries_loaded:
            try:
                await self.browser.load_libraries()
            except RuntimeError as exc:  # a script that could not be fetched
                self.error = str(exc)
                self.controller.render()
                return False
            self._libraries_loaded = True
            self.controller.render()
        return True

    async def _probe_broker(self) -> None:
        """Whether the broker answers at all (any HTTP answer counts)."""
        config = await self._get_config()
        if config is None:
            return
        peer = config["peer"]
        scheme = "https" if peer["secure"] else "http"
        url = f"{scheme}://{peer['host']}:{peer['port']}{peer['path']}"
        ok = await self.browser.reachable(url)
        if ok != self.broker_ok:
            self.broker_ok = ok
            if self.phase == "lobby":
                self.controller.render()

    def _network_changed(self) -> None:
        if self.phase == "lobby":
            self.controller.spawn(self._probe_broker())
            self.controller.render()

    def _hang_up(self) -> None:
        """Leaving the page: a room being opened leaves the broker at once (a seat handed
        over is the controller's to hang up)."""
        if self._opening is not None:
            self._opening.close()
            self._opening = None
