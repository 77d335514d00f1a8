"""The guest's seat of an online match: sends moves, shows the views the host sends.

`OnlineGuest` is browser-free; its transport (webui/online/net.py's `GuestNet`, attached with
`attach`) dials the room and hands it what arrives. It numbers its messages (a fresh
connection starts again from seq 1, as MatchHost expects), checks every host message (JSON
object, protocol version, rising seq, known type) before using it, checks every view against
the schema of `lostcities.view` (`lostcities.viewcheck`: a view that is not one is refused and
changes nothing), and keeps what it needs to rejoin: room code, seat, token.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final, Protocol

from lostcities.errors import CorruptSave
from lostcities.protocol import (
    APP_VERSION, FORBIDDEN, NO_MATCH, REPLAYED, VERSION_MISMATCH, ProtocolError, encode,
    envelope, parse_host_message,
)
from lostcities.viewcheck import ViewError, check_match_end, check_view

from webui.online.codes import GUEST_KEY, normalize_code
from webui.online.liveness import Liveness, State
from webui.seats import Refusal, Remote, Seat, refused
from webui.seats.remote_host import GUEST_SEAT, TOKEN_RE

SAVE_FORMAT: Final = "lostcities-online-guest"
SAVE_VERSION: Final = 1

RELOAD_TEXT: Final = "The host runs another version of the game: reload the page to update."

View = dict[str, Any]


class Transport(Protocol):
    """The guest's network layer (webui/online/net.py's `GuestNet`)."""

    status: str | None
    """What the network layer is going through, for the waiting room (None: all is well)."""

    def tick(self) -> None:
        """Once a second: ping the host, give up on a silent channel and dial again."""
        ...

    def close(self) -> None:
        """Hang up for good."""
        ...


class OnlineGuest(Seat):
    """The guest's match: seat 1, as the host tells it: the guest's `Seat`."""

    mode: ClassVar[str] = "online"
    save_key: ClassVar[str] = GUEST_KEY

    def __init__(self, code: str, token: str, name: str, now: float) -> None:
        self.code = normalize_code(code)
        if not TOKEN_RE.fullmatch(token):
            raise ValueError("bad guest token")
        self.token = token
        self.name = name
        self.seat = GUEST_SEAT
        self.local_players: frozenset[int] = frozenset({GUEST_SEAT})
        self.live = Liveness(now)
        self.error: str | None = None
        """The host's last refusal (or a problem with its messages), shown to the player."""
        self.reload_needed: str | None = None
        """Set when the host runs another version: this page must reload."""
        self.refused: str | None = None
        """Set when the host refused this connection (e.g. the room has another guest)."""
        self.joined = False
        """Whether the host has ever welcomed this guest (a room was found)."""
        self.host_away: str | None = None
        """How the host is gone: "closed" (its game is closed: the room is not on the broker;
        it resumes if the host opens the game again) or "left" (the host left for good)."""
        self._view: View | None = None
        self._seq = 0
        self._last_in = 0
        self._pending: int | None = None
        self._welcomed = False
        """Whether the host welcomed this guest on the current connection."""
        self._send: Callable[[str], None] | None = None
        self.transport: Transport | None = None

    # ---- the Seat interface ----------------------------------------------------------------

    @property
    def has_match(self) -> bool:
        """Whether a view has arrived (the match is on)."""
        return self._view is not None

    def view(self) -> View:
        """The last view the host sent. Raises LookupError before the first one."""
        if self._view is None:
            raise LookupError("no view from the host yet")
        return self._view

    def submit(self, move: dict[str, Any]) -> Refusal | None:
        """Send a move to the host; None when sent (the host's answer updates the view)."""
        if self._send is None or not self.live.is_open:
            return refused("offline")
        if self._pending is not None:
            return refused("awaiting-answer")
        if self._view is None:
            return refused("not-started")
        self.error = None
        self._pending = self._seq + 1  # set first: the answer may come back at once
        self._next(envelope(0, "move", None, move=move))
        return None

    # ---- the transport -----------------------------------------------------------------------

    def attach(self, transport: Transport) -> None:
        """Play over `transport` (the dialled room) from now on."""
        self.transport = transport

    def remote(self, now: float) -> Remote:
        """The host's connection, for the badge over the table."""
        opponent = self._view["names"][1 - self.seat] if self._view is not None else None
        return Remote(self.connection(now), opponent, self.code, self.error,
                      self.reload_needed, self.host_away)

    def match_on(self) -> bool:
        """Whether leaving now would end a match still being played (not once the host has
        left for good)."""
        return self.host_away != "left" and super().match_on()

    def keeps_save(self) -> bool:
        """Whether the seat is worth taking back on the next visit: not once the host
        refused it or left for good."""
        return not self.refused and self.host_away != "left"

    def tick(self, now: float) -> None:
        """Once a second: the transport's heartbeat."""
        if self.transport is not None:
            self.transport.tick()

    def hang_up(self) -> None:
        """Hang up at once (the page is being left: the seat is taken back on reload)."""
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    def leave(self) -> None:
        """The guest leaves for good: the host sees the connection go."""
        self.hang_up()

    # ---- the connection ----------------------------------------------------------------------

    def opened(self, send: Callable[[str], None], now: float) -> None:
        """A channel to the host opened: start again from seq 1 with a hello."""
        self._send = send
        self._seq = self._last_in = 0
        self._pending = None
        self._welcomed = False
        self.host_away = None
        self.live.opened(now)
        self._next(envelope(0, "hello", None, name=self.name, app=APP_VERSION))
        self._changed()

    def closed(self) -> None:
        """The channel closed: nothing is sent until the next `opened`."""
        self._send = None
        self._pending = None
        self.live.closed()
        self._changed()

    def host_closed(self) -> None:
        """The broker says the room is not there: once joined, the host's game is closed."""
        if self.joined and self.host_away is None:
            self.host_away = "closed"
            self._changed()

    def ping(self) -> None:
        """Send a heartbeat: only once the host welcomed us on this channel (a ping before,
        or after a refusal, would only be refused in turn)."""
        if self._send is not None and self._welcomed and not (self.reload_needed or self.refused):
            self._next(envelope(0, "ping", None))

    def connection(self, now: float) -> State:
        """The host's connection state, as both screens show it."""
        return self.live.state(now)

    def _next(self, message: dict[str, Any]) -> int:
        assert self._send is not None
        self._seq += 1
        message["seq"] = self._seq
        self._send(encode(message))
        return self._seq

    def receive(self, raw: object, now: float) -> None:
        """One message from the host: checked, then used; anything odd is ignored or shown.

        A ``pong`` only says the host is there: nothing to redraw (the page's once-a-second
        tick redraws the badge when the connection state changes).
        """
        self.live.heard(now)
        message = self._check(raw)
        if message is None:
            self._changed()
            return
        kind, ref = message["type"], message.get("ref_seq")
        if ref is not None and ref == self._pending:
            self._pending = None
        if kind == "pong":
            return
        if kind == "welcome":
            self.joined = self._welcomed = True
            if message.get("app") != APP_VERSION:
                self.reload_needed = RELOAD_TEXT
            if message.get("seat") in (0, 1):
                self.seat = message["seat"]
                self.local_players = frozenset({self.seat})
        elif kind in ("view", "match-end"):
            self._take_view(message)
        elif kind == "error":
            text = str(message.get("message") or message.get("code"))[:300]
            if message.get("code") == VERSION_MISMATCH:
                self.reload_needed = text
            elif message.get("code") == FORBIDDEN and ref is None and not self.joined:
                self.refused = text
            elif message.get("code") == NO_MATCH and ref is None and self.joined:
                self.host_away = "left"  # the host's goodbye: the room is gone for good
            else:
                self.error = f"The host refused: {text}"
        self._changed()

    def _take_view(self, message: dict[str, Any]) -> None:
        """Show the view of a ``view`` or ``match-end`` message once it is checked; a view
        that is not one (`lostcities.viewcheck`) or is another seat's changes nothing."""
        seen = message.get("view")
        try:
            if message["type"] == "match-end":
                check_match_end(seen, message.get("winner"), message.get("totals"))
            else:
                check_view(seen)
        except ViewError as exc:
            self.error = f"The host sent a view that is not valid ({exc}): ignored."
            return
        assert isinstance(seen, dict)
        if seen["player"] != self.seat:
            self.error = "The host sent a view for another seat: ignored."
            return
        self._view = seen
        self.error = None

    def _check(self, raw: object) -> dict[str, Any] | None:
        """The host message (``parse_host_message``), or None with `error`/`reload_needed` set.

        A replayed host message is dropped silently (it changes nothing).
        """
        if not isinstance(raw, str):
            self.error = "The host sent a message that is not text: ignored."
            return None
        try:
            request = parse_host_message(raw, self._last_in)
        except ProtocolError as exc:
            if exc.code == VERSION_MISMATCH:
                self.reload_needed = RELOAD_TEXT
            elif exc.code != REPLAYED:
                self.error = f"The host sent a bad message ({exc.code}): ignored."
            return None
        self._last_in = request.seq
        return {"type": request.type, **request.fields}

    # ---- saving ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """What this page needs to rejoin its seat: room code, seat, token and name."""
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "code": self.code,
                "seat": self.seat, "token": self.token, "name": self.name}

    @classmethod
    def from_json(cls, doc: object, now: float) -> OnlineGuest:
        """Rebuild from `to_json` output; raises ValueError (CorruptSave) saying what is wrong."""
        if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
            raise CorruptSave("not a saved online seat")
        if doc.get("version") != SAVE_VERSION:
            raise CorruptSave(f"unsupported online seat version {doc.get('version')!r}")
        token, name, seat = doc.get("token"), doc.get("name"), doc.get("seat")
        if not isinstance(token, str) or not isinstance(name, str):
            raise CorruptSave("saved seat: bad token or name")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise CorruptSave("saved seat: bad seat")
        guest = cls(str(doc.get("code")), token, name, now)
        guest.seat = seat
        guest.local_players = frozenset({seat})
        return guest
