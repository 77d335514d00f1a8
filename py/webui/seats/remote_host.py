"""The host's seat of an online match: the engine's `MatchHost` behind one guest connection.

`OnlineHost` is browser-free. The host's own moves and every message of the guest go through
the same `MatchHost.receive` (validated by lostcities/protocol.py), so the guest only ever gets
what MatchHost sends it: its own view. Its transport (webui/online/net.py's `HostNet`, attached
with `attach`) hands it connections and raw text; this class decides what is accepted and what
is sent, and says when something changed (the controller then shows and saves it).

A guest proves it owns seat 1 with a secret token (sent in the PeerJS connection's metadata):
the first guest binds the seat to its token, and only that token may reconnect.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any, ClassVar, Final, Protocol

import lostcities
from lostcities.errors import CorruptSave
from lostcities.host import MatchHost
from lostcities.protocol import (
    APP_VERSION, FORBIDDEN, MAX_SEED, NO_MATCH, encode, envelope,
)

from webui.online.codes import HOST_KEY, normalize_code
from webui.online.liveness import CLOSE_AFTER_DROPS, Liveness, RateLimit, State
from webui.seats import Refusal, Remote, Seat, refused

HOST_SEAT: Final = 0
GUEST_SEAT: Final = 1
SAVE_FORMAT: Final = "lostcities-online-host"
SAVE_VERSION: Final = 1
TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""A guest token: 16 to 64 URL-safe characters."""

View = dict[str, Any]


class Transport(Protocol):
    """The host's network layer (webui/online/net.py's `HostNet`)."""

    status: str | None
    """What the network layer is going through, for the waiting room (None: all is well)."""

    def close(self, delay: float = 0.0) -> None:
        """Leave the broker and drop the guest, after `delay` seconds."""
        ...


class Link(Protocol):
    """One data connection to the guest, as the network layer gives it."""

    def send(self, text: str) -> None:
        """Send one message's text."""
        ...

    def close(self) -> None:
        """Close the connection (after what was sent has gone out)."""
        ...


def new_token() -> str:
    """A fresh secret guest token."""
    return secrets.token_urlsafe(24)


def refusal(code: str, message: str, seq: int = 1) -> str:
    """The one error message sent on a connection that is refused (before any protocol, or
    mid-match with the connection's next `seq`, when it is closed after it)."""
    error = envelope(seq, "error", None)
    error.update(ref_seq=None, code=code, message=message)
    return encode(error)


class OnlineHost(Seat):
    """The host's match: seat 0 plays on this page, seat 1 over one `Link` at a time.

    The `Seat` of seat 0. The match starts when the first guest says hello.
    """

    mode: ClassVar[str] = "online"
    save_key: ClassVar[str] = HOST_KEY
    local_players: frozenset[int] = frozenset({HOST_SEAT})

    def __init__(self, code: str, options: lostcities.Options, first_player: int | None,
                 host_name: str, seed: int, now: float) -> None:
        self.code = normalize_code(code)
        self.options = options
        self.first_player = first_player
        self.host_name = host_name
        self.seed = seed
        self.token: str | None = None
        self._match = MatchHost()
        self._local_seq = 0
        self._link: Link | None = None
        self.live = Liveness(now)
        self.limit = RateLimit(now)
        """The guest connection's message budget (a fresh one per connection)."""
        self.transport: Transport | None = None
        self._on_warn: Callable[[str], None] | None = None
        self._view: tuple[lostcities.State, View] | None = None
        """The host's view and the state it shows (states are immutable: reused while the
        state is the same object; MatchHost's own view message for seat 0 fills it)."""
        self._greet_local()

    @classmethod
    def create(cls, code: str, options: lostcities.Options, first_player: int | None,
               host_name: str, now: float) -> OnlineHost:
        """A new room with a random seed (the match starts when the guest arrives)."""
        return cls(code, options, first_player, host_name, secrets.randbelow(MAX_SEED), now)

    def _greet_local(self) -> None:
        self._match.connect(HOST_SEAT)
        self._local_seq = 1
        hello = encode(envelope(1, "hello", None, name=self.host_name, app=APP_VERSION))
        out = self._match.receive(HOST_SEAT, hello)
        if out[0][1]["type"] != "welcome":
            raise ValueError(f"the host cannot seat itself: {out[0][1].get('message')}")

    # ---- the Seat interface (seat 0) -------------------------------------------------------

    @property
    def has_match(self) -> bool:
        """Whether the match has started (a guest has joined)."""
        return self._match.state is not None

    @property
    def state(self) -> lostcities.State | None:
        """The full state: for this page only (tests read hidden cards from the save)."""
        return self._match.state

    def view(self) -> View:
        """The host's own view. Raises LookupError before the match starts."""
        state = self._match.state
        if state is None:
            raise LookupError("the match starts when the guest joins")
        if self._view is None or self._view[0] is not state:
            self._view = (state, lostcities.view(state, HOST_SEAT))
        return self._view[1]

    def submit(self, move: dict[str, Any]) -> Refusal | None:
        """The host's move, validated by MatchHost like any other; None or the refusal."""
        if self._match.state is None:
            return refused("not-started")
        self._local_seq += 1
        try:
            text = encode(envelope(self._local_seq, "move", None, move=move))
        except (TypeError, ValueError):
            return refused("not-a-move")
        out = self._match.receive(HOST_SEAT, text)
        errors = [m for p, m in out if p == HOST_SEAT and m["type"] == "error"]
        self._send_guest(out)
        return (errors[0].get("refusal") or refused("not-a-move")) if errors else None

    def set_on_warn(self, callback: Callable[[str], None]) -> None:
        """`callback(text)` runs when the guest misbehaves in a way worth logging (a flood)."""
        self._on_warn = callback

    # ---- the transport -----------------------------------------------------------------------

    def attach(self, transport: Transport) -> None:
        """Play over `transport` (the room on the broker) from now on."""
        self.transport = transport

    def remote(self, now: float) -> Remote:
        """The guest's connection, for the badge over the table."""
        return Remote(self.connection(now) or "reconnecting", self.guest_name, self.code)

    def hang_up(self) -> None:
        """Leave the broker at once (the page is being left: the room resumes on reload)."""
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    def leave(self) -> None:
        """The host leaves the room for good: the guest is told (``no-match``) and let go,
        then the room leaves the broker (a moment later, so that the goodbye goes out)."""
        if self._link is not None:
            self._last_words(self._link, NO_MATCH, "the host left the room: the match is over")
        if self.transport is not None:
            self.transport.close(delay=0.5)
            self.transport = None

    # ---- the guest's connection -----------------------------------------------------------

    @property
    def guest_name(self) -> str | None:
        """The guest's name once it has joined (from the match or its hello)."""
        state = self._match.state
        return state.names[GUEST_SEAT] if state is not None else self._match.name_of(GUEST_SEAT)

    def accept(self, link: Link, metadata: object, now: float) -> str | None:
        """A new connection: None if it now holds seat 1, else the refusal text sent on it.

        `metadata` is the connection's PeerJS metadata: ``{"token": "..."}``. A refused link
        gets one ``error`` message (the caller closes it); the match is untouched.
        """
        token = metadata.get("token") if isinstance(metadata, dict) else None
        if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
            text = refusal(FORBIDDEN, "this connection has no valid guest token:"
                           " open the join link or type the room code")
            link.send(text)
            return text
        if self.token is not None and not secrets.compare_digest(token, self.token):
            text = refusal(FORBIDDEN, f"room {self.code} already has a guest")
            link.send(text)
            return text
        if self._link is not None:
            self._link.close()  # a reconnecting guest replaces its stale connection
        if self.token is None:
            self.token = token
        self._link = link
        self._match.connect(GUEST_SEAT)
        self.live.opened(now)
        self.limit = RateLimit(now)
        self._changed()
        return None

    def receive(self, link: Link, raw: str | bytes, now: float,
                clock: Callable[[], float] | None = None) -> None:
        """A message from the guest, arrived at `now`: MatchHost validates and answers it;
        never raises. `clock` (the same clock) is read once it is handled: the time handling
        took regains no flood budget (liveness.RateLimit).

        Messages over the rate limit are dropped unread (no answer); a connection that keeps
        flooding gets one error and is closed (the guest may dial again, with a fresh budget).
        """
        if link is not self._link:
            return  # a replaced connection: ignore
        if not self.limit.allow(now, len(raw)):
            self._flooded(link)
            return
        self.live.heard(now)
        before, greeted = self._match.state, self._match.is_greeted(GUEST_SEAT)
        out = self._match.receive(GUEST_SEAT, raw)
        self._send_guest(out)
        if self._match.state is None and self._match.is_greeted(GUEST_SEAT):
            self._start()
        if self._match.state is not before or greeted != self._match.is_greeted(GUEST_SEAT):
            self._changed()
        if clock is not None:
            self.limit.handled(clock())

    def closed(self, link: Link) -> None:
        """The guest's connection closed (PeerJS saw it go)."""
        if link is self._link:
            self._link = None
            self._match.disconnect(GUEST_SEAT)
            self.live.closed()
            self._changed()

    def _flooded(self, link: Link) -> None:
        dropped = self.limit.dropped
        if dropped == 1 and self._on_warn is not None:
            self._on_warn(f"guest of room {self.code}: over {self.limit.rate:g} messages a"
                          " second, dropping the excess")
        if dropped < CLOSE_AFTER_DROPS:
            return
        text = (f"too many messages (over {self.limit.rate:g} a second, {dropped} dropped):"
                " connection closed")
        if self._on_warn is not None:
            self._on_warn(f"guest of room {self.code}: {text}")
        self._last_words(link, FORBIDDEN, text)

    def _last_words(self, link: Link, code: str, text: str) -> None:
        """One error (numbered after what this connection was sent), then close it."""
        sent = self._match.snapshot()["peers"][str(GUEST_SEAT)]["last_out"]
        link.send(refusal(code, text, sent + 1))
        link.close()
        self.closed(link)

    def connection(self, now: float) -> State | None:
        """The guest's connection state, or None while no guest has ever joined."""
        if self.token is None:
            return None
        return self.live.state(now)

    def _start(self) -> None:
        names = (self.host_name, self._match.name_of(GUEST_SEAT) or "Guest")
        try:
            out = self._match.start(self.options, self.seed, self.first_player, names)
        except ValueError as exc:  # e.g. a name the engine refuses: tell the guest
            if self._link is not None:
                self._link.send(refusal(FORBIDDEN, f"cannot start the match: {exc}"))
            return
        self._send_guest(out)

    def _send_guest(self, out: list[tuple[int, dict[str, Any]]]) -> None:
        """Send the guest its messages; keep the view MatchHost made for the host's seat."""
        for peer, message in out:
            if peer == GUEST_SEAT and self._link is not None:
                self._link.send(encode(message))
            elif peer == HOST_SEAT and "view" in message and self._match.state is not None:
                self._view = (self._match.state, message["view"])

    # ---- saving ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything to resume the room exactly (holds hidden cards: keep it on this page)."""
        return {
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "code": self.code,
            "token": self.token, "local_seq": self._local_seq,
            "options": self.options.to_json(), "first_player": self.first_player,
            "host_name": self.host_name, "seed": self.seed,
            "match": self._match.snapshot(),
        }

    @classmethod
    def from_json(cls, doc: object, now: float) -> OnlineHost:
        """Resume from `to_json` output; raises ValueError (CorruptSave) saying what is wrong."""
        if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
            raise CorruptSave("not a saved online room")
        if doc.get("version") != SAVE_VERSION:
            raise CorruptSave(f"unsupported online room version {doc.get('version')!r}")
        token, local_seq, first = doc.get("token"), doc.get("local_seq"), doc.get("first_player")
        if token is not None and not (isinstance(token, str) and TOKEN_RE.fullmatch(token)):
            raise CorruptSave("saved room: bad guest token")
        if isinstance(local_seq, bool) or not isinstance(local_seq, int) or local_seq < 1:
            raise CorruptSave("saved room: bad local seq")
        if first not in (None, 0, 1) or isinstance(first, bool):
            raise CorruptSave("saved room: bad first player")
        seed, name = doc.get("seed"), doc.get("host_name")
        if isinstance(seed, bool) or not isinstance(seed, int) or not isinstance(name, str):
            raise CorruptSave("saved room: bad seed or name")
        host = cls(str(doc.get("code")), lostcities.Options.from_json(doc.get("options")),
                   first, name, seed, now)
        host._match = MatchHost.restore(doc.get("match"))
        if not host._match.is_greeted(HOST_SEAT):
            raise CorruptSave("saved room: the host's seat is not seated")
        host._match.disconnect(GUEST_SEAT)  # the guest must connect and say hello again
        host.token = token
        host._local_seq = local_seq
        return host

