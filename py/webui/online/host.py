"""The room's host: seat 0 of an online match, and the lobby's role: the room code, and which
guest may join (the first valid token binds the seat). On each new connection the guest says
hello and the host welcomes it (or refuses it): which match each page holds, and what each
has received, so that each resends what the other missed.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, ClassVar

from lostcities import Options
from lostcities.errors import CorruptSave
from lostcities.protocol import APP_VERSION, FORBIDDEN, NO_MATCH, VERSION_MISMATCH

from webui.match.seats import Remote
from webui.online import control
from webui.online.codes import GUEST_SEAT, HOST_KEY, HOST_SEAT
from webui.online.control import ControlError, MatchSetup
from webui.online.liveness import RateLimit, State
from webui.online.save import check_doc, checked, saved_str
from webui.online.seat import TOKEN_RE, FairSeat, Link, Transport


class FairHost(FairSeat):
    """The room's host: seat 0. It picks the options, shows the code, and lets one guest in
    (the first valid token binds the seat); the match begins when that guest says hello."""

    save_key: ClassVar[str] = HOST_KEY
    seat: ClassVar[int] = HOST_SEAT
    role: ClassVar[str] = "host"

    def __init__(self, code: str, options: Options, first_player: int | None, name: str,
                 now: float) -> None:
        super().__init__(code, name, now)
        if first_player not in (None, 0, 1) or isinstance(first_player, bool):
            raise ValueError("the first player must be 0, 1 or None")
        self.options = options
        self.first_player = first_player
        self.token: str | None = None
        self._link: Link | None = None

    @classmethod
    def create(cls, code: str, options: Options, first_player: int | None, name: str,
               now: float) -> FairHost:
        """A new room (its match begins when the guest arrives)."""
        return cls(code, options, first_player, name, now)

    @property
    def guest_name(self) -> str | None:
        """The guest's name once a match began."""
        return None if self.setup is None else self.setup.names[GUEST_SEAT]

    # ---- connections ---------------------------------------------------------------------

    def accept(self, link: Link, metadata: object, now: float) -> str | None:
        """A new connection: None if it may now speak for seat 1, else the refusal sent on it
        (the caller closes it). `metadata`: ``{"token": "..."}`` from PeerJS."""
        if self.halted is not None:
            return "this page has stopped relaying"  # (nothing is sent on it)
        token = metadata.get("token") if isinstance(metadata, dict) else None
        if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
            return self._refuse(link, FORBIDDEN, "this connection has no valid guest token:"
                                " open the join link or type the room code")
        if self.token is not None and not secrets.compare_digest(token, self.token):
            return self._refuse(link, FORBIDDEN, f"room {self.code} already has a guest")
        if self._link is not None:
            self._link.close()  # a reconnecting guest replaces its stale connection
        self.token = self.token or token
        self._link, self._send = link, None
        self.live.opened(now)
        self.limit = RateLimit(now)
        self._changed()
        return None

    def receive(self, link: Link, raw: str | bytes, now: float,
                clock: Callable[[], float] | None = None) -> None:
        """A message from the guest, arrived at `now`; never raises. `clock` (the same clock)
        is read once it is handled: the time handling took regains no flood budget."""
        if link is not self._link or self.halted is not None or not self._heard(now, len(raw)):
            return
        if self._send is None:
            self._hello(link, raw)
        else:
            self._take(raw, now)
        if clock is not None:
            self.limit.handled(clock())

    def _hello(self, link: Link, raw: str | bytes) -> None:
        """The first message on a connection must be the guest's hello. (Messages of an
        earlier connection still waiting are taken first: the welcome says what was.)"""
        self._settle()
        try:
            hello = control.parse(raw)
        except ControlError as exc:
            self._refuse(link, FORBIDDEN, f"a malformed hello: {exc}", close=True)
            return
        if hello is None or hello.kind != "hello":
            self._refuse(link, FORBIDDEN, "the first message must be a hello", close=True)
            return
        if hello.app != APP_VERSION:
            self._refuse(link, VERSION_MISMATCH, f"this room runs version {APP_VERSION}:"
                         " reload the page to update", close=True)
            return
        last, consent = hello.last, self._consent(hello.match)
        if self.peer is None:
            if hello.match != 0 or self.group is None:
                self._refuse(link, NO_MATCH, "this room holds no match of your page",
                             close=True)
                return
            self._begin(MatchSetup(self.options, (self.name, hello.name), self.first_player), 1)
        elif consent is not None:
            # the guest was left behind at the rematch: this page's consent comes first
            link.send(consent)
            last = 0
        elif hello.match == self.match_no + 1 and self.asked is not None:
            # the guest went ahead, agreeing to this page's request: its consent comes next,
            # and nothing of this match is sent again
            last = len(self.peer.sent_after(0))
        elif hello.match != self.match_no and not (
                hello.match == 0 and self.peer.last_received == 0):
            # (a guest whose page lost its match before sending anything may begin it again)
            self._refuse(link, NO_MATCH, "this room holds another match than your page",
                         close=True)
            return
        assert self.peer is not None and self.setup is not None
        if self.halted is not None:  # storage refused the new match: nothing is sent
            return
        link.send(control.welcome(APP_VERSION, self.match_no, self.peer.last_received,
                                  self.setup))
        self._greeted(link.send, last)
        self._changed()

    def closed(self, link: Link) -> None:
        """The guest's connection closed (PeerJS saw it go)."""
        if link is self._link:
            self._link = None
            self._unlink()
            self._changed()

    def _refuse(self, link: Link, code: str, text: str, close: bool = False) -> str:
        message = control.refused(code, text)
        link.send(message)
        if close:
            link.close()
            self.closed(link)
        return message

    def _flooded(self) -> None:
        link = self._link
        if link is None:
            return
        text = f"too many messages (over {self.limit.rate:g} a second): connection closed"
        self._warn(f"guest of room {self.code}: {text}")
        self._refuse(link, FORBIDDEN, text, close=True)

    # ---- the Seat interface ----------------------------------------------------------------

    def attach(self, transport: Transport) -> None:
        """Play over `transport` (the room on the broker) from now on."""
        self.transport = transport

    def connection(self, now: float) -> State | None:
        """The guest's connection state, or None while no guest has ever joined."""
        return None if self.token is None else self.live.state(now)

    def remote(self, now: float) -> Remote:
        """The guest's connection, for the badge over the table."""
        return Remote(self.connection(now) or "reconnecting", self.guest_name, self.code,
                      self.problem(), waiting=self.waiting(), **self._remote_extras(now))

    def tick(self, now: float) -> None:
        """Once a second: the heartbeat."""
        self._ping(now)

    def hang_up(self) -> None:
        """Leave the broker at once (the page is being left: the room resumes on reload)."""
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    def leave(self) -> None:
        """The host leaves the room for good: the guest is told (``bye``), then the room
        leaves the broker (a moment later, so that the goodbye goes out). A match a failed
        check stopped is set aside first."""
        self._leaving()
        if self._link is not None:
            if self.halted is None:
                self._link.send(control.bye())
            self._link.close()
        if self.transport is not None:
            self.transport.close(delay=0.5)
            self.transport = None

    # ---- saving ----------------------------------------------------------------------------

    def _role_json(self) -> dict[str, Any]:
        return {"token": self.token, "options": self.options.to_json(),
                "first_player": self.first_player}

    @classmethod
    def from_json(cls, doc: object, now: float) -> FairHost:
        """A room from `to_json` output, its match replayed by `load`; CorruptSave saying
        what is wrong."""
        data = check_doc(doc, "host")
        token = data.get("token")
        if token is not None and not (isinstance(token, str) and TOKEN_RE.fullmatch(token)):
            raise CorruptSave("saved room: bad guest token")
        options = checked(lambda: Options.from_json(data.get("options")), "options")
        host = checked(lambda: cls(saved_str(data, "code"), options, data.get("first_player"),
                                    saved_str(data, "name"), now), "room")
        host.token = token
        host._restore_common(data)
        setup = host.setup  # (in a rematch, the player who did not start the last one starts)
        if setup is not None and ((setup.options, setup.names[0]) != (options, host.name) or (
                host.match_no == 1 and setup.first_player != host.first_player)):
            raise CorruptSave("saved room: the match is not the room's")
        return host
