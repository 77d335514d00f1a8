"""A guest of a room: seat 1 of an online match. It dials the room with its secret token, says
hello on each connection, builds its match from the host's welcome, and is told when the host
refuses it, runs another version or leaves for good.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from lostcities.errors import CorruptSave
from lostcities.protocol import APP_VERSION, FORBIDDEN, VERSION_MISMATCH

from webui.match.seats import Problem, Remote, problem
from webui.online import control
from webui.online.codes import GUEST_KEY, GUEST_SEAT, HOST_SEAT
from webui.online.control import Control, ControlError
from webui.online.liveness import RateLimit, State
from webui.online.save import check_doc, checked, saved_str
from webui.online.seat import TOKEN_RE, FairSeat, Transport


class FairGuest(FairSeat):
    """A guest of a room: seat 1. It dials the room with its token (webui/browser/online/net.py's
    `GuestNet`), says hello on each connection and builds its match from the host's
    welcome."""

    save_key: ClassVar[str] = GUEST_KEY
    seat: ClassVar[int] = GUEST_SEAT
    role: ClassVar[str] = "guest"

    def __init__(self, code: str, token: str, name: str, now: float) -> None:
        super().__init__(code, name, now)
        if not TOKEN_RE.fullmatch(token):
            raise ValueError("bad guest token")
        self.token = token
        self.reload_needed: Problem | None = None
        """Set when the host runs another version: this page must reload."""
        self.refused: Problem | None = None
        """Set when the host refused this guest (e.g. the room has another guest)."""
        self.joined = False
        """Whether the host has ever welcomed this guest (a room was found)."""
        self.host_away: str | None = None
        """How the host is gone: "closed" (its page is closed: the room is not on the broker;
        it resumes when the host opens it again) or "left" (the host left for good)."""
        self.drop_link = False
        """Set when the current connection must be dropped and dialled again (a flood)."""
        self._dialled: Callable[[str], None] | None = None

    # ---- the connection ------------------------------------------------------------------

    def opened(self, send: Callable[[str], None], now: float) -> None:
        """A channel to the host opened: say hello (which match, what was received); nothing
        once halted."""
        if self.halted is not None:
            return
        self._dialled, self._send, self.drop_link = send, None, False
        self._settle()  # what an earlier channel brought, taken before the hello says what was
        self.host_away = None
        self.live.opened(now)
        self.limit = RateLimit(now)
        last = 0 if self.peer is None else self.peer.last_received
        send(control.hello(APP_VERSION, self.name, self.match_no, last))
        self._changed()

    def closed(self) -> None:
        """The channel closed: nothing is sent until the next `opened`."""
        self._dialled = None
        self._unlink()
        self._changed()

    def host_closed(self) -> None:
        """The broker says the room is not there: once joined, the host's page is closed."""
        if self.joined and self.host_away is None:
            self.host_away = "closed"
            self._changed()

    def ping(self) -> None:
        """A heartbeat, once the host welcomed this guest on the channel."""
        if self._send is not None:
            self._send(control.ping())

    def receive(self, raw: str | bytes, now: float,
                clock: Callable[[], float] | None = None) -> None:
        """A message from the host, arrived at `now`; never raises."""
        if self._dialled is None or self.drop_link or self.halted is not None \
                or not self._heard(now, len(raw)):
            return
        if self._send is None:
            self._before_welcome(raw)
            self._changed()
        else:
            self._take(raw, now)
        if clock is not None:
            self.limit.handled(clock())

    def _before_welcome(self, raw: str | bytes) -> None:
        try:
            message = control.parse(raw)
        except ControlError as exc:
            self.error = problem("malformed", reason=str(exc))
            return
        if message is None:
            self.error = problem("before-welcome")
        elif message.kind == "refused":
            self._refused(message)
        elif message.kind == "welcome":
            self._welcome(message)
        elif message.kind == "bye":
            self.host_away = "left"
        elif message.kind == "rematch":  # a host ahead: its consent comes before its welcome
            self._hear_rematch(message)
        elif message.kind != "ping":
            self.error = problem("unexpected", kind=message.kind)

    def _refused(self, message: Control) -> None:
        if message.code == VERSION_MISMATCH:
            self.reload_needed = problem("reload")
        elif message.code == FORBIDDEN and not self.joined:
            self.refused = problem("turned-away", message=message.message)
        else:
            self.error = problem("host-refused", message=message.message)

    def _welcome(self, message: Control) -> None:
        setup = message.setup
        assert setup is not None and self._dialled is not None
        if message.app != APP_VERSION:
            self.reload_needed = problem("reload")
            return
        consent = self._consent(message.match)
        if self.peer is None:
            if setup.names[GUEST_SEAT] != self.name:
                self.error = problem("other-name")
                return
            if self.group is None:
                self.error = problem("not-ready")
                return
            self._begin(setup, message.match)
            if self.halted is not None:  # storage refused the new match: nothing is sent
                return
        elif consent is not None:
            # the host was left behind at the rematch: this page's consent, then the new match
            self.joined, self.error = True, None
            self._dialled(consent)
            self._greeted(self._dialled, 0)
            return
        elif (message.match, setup) != (self.match_no, self.setup):
            self.error = problem("other-match")
            return
        self.joined, self.error = True, None
        self._greeted(self._dialled, message.last)

    def _control(self, message: Control) -> bool:
        """The host's goodbye, or its refusal of this connection (a flood: it is closed)."""
        if message.kind == "bye":
            self.host_away = "left"  # the room is gone for good
        elif message.kind == "refused":
            self._refused(message)
        else:
            return super()._control(message)
        self._changed()
        return True

    def _flooded(self) -> None:
        self.drop_link = True
        self.error = problem("flooded")

    def connection(self, now: float) -> State:
        """The host's connection state, as both screens show it."""
        return self.live.state(now)

    # ---- the Seat interface ----------------------------------------------------------------

    def attach(self, transport: Transport) -> None:
        """Play over `transport` (the dialled room) from now on."""
        self.transport = transport

    def remote(self, now: float) -> Remote:
        """The host's connection, for the badge over the table."""
        opponent = None if self.setup is None else self.setup.names[HOST_SEAT]
        return Remote(self.connection(now), opponent, self.code, self.problem(),
                      self.reload_needed, self.host_away, self.waiting(),
                      **self._remote_extras(now))

    def match_on(self) -> bool:
        """Not once the host has left for good."""
        return self.host_away != "left" and super().match_on()

    def _room_open(self) -> bool:
        """No rematch once the host has left for good."""
        return self.host_away != "left"

    def keeps_save(self) -> bool:
        """Not once the host refused this guest or left for good."""
        return not self.refused and self.host_away != "left"

    def tick(self, now: float) -> None:
        """Once a second: the transport's heartbeat (a halted seat hangs up instead)."""
        if self.halted is not None:
            self.hang_up()
            return
        tick = getattr(self.transport, "tick", None)
        if tick is not None:
            tick()

    def hang_up(self) -> None:
        """Hang up at once (the page is being left: the seat is taken back on reload)."""
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    def leave(self) -> None:
        """The guest leaves for good: the host sees the connection go. A match a failed check
        stopped is set aside first."""
        self._leaving()
        self.hang_up()

    # ---- saving ----------------------------------------------------------------------------

    def _role_json(self) -> dict[str, Any]:
        return {"token": self.token}

    @classmethod
    def from_json(cls, doc: object, now: float) -> FairGuest:
        """A seat from `to_json` output, its match replayed by `load`; CorruptSave saying
        what is wrong."""
        data = check_doc(doc, "guest")
        token = data.get("token")
        if not isinstance(token, str):
            raise CorruptSave("saved room: bad guest token")
        guest = checked(lambda: cls(saved_str(data, "code"), token, saved_str(data, "name"), now),
                         "seat")
        guest._restore_common(data)
        if guest.setup is not None and guest.setup.names[GUEST_SEAT] != guest.name:
            raise CorruptSave("saved room: the match is not this player's")
        return guest
