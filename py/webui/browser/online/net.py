"""PeerJS from Python (Pyodide only): the host's room and the guest's connection to it.

`HostNet` registers the room's peer id on the broker (a fresh code when a new room's code is
taken; retries when resuming, since the broker may still hold the old socket for a moment) and
hands each incoming data connection to `FairHost`. `GuestNet` dials the room with its secret
token in the connection's metadata and keeps redialling when the channel closes, falls silent
(PeerJS never reports a vanished tab: the heartbeat in `liveness` does) or floods
(webui/online/seat.py).

Every callback given to PeerJS is wrapped in `create_proxy` (architecture.md). Messages travel
as raw JSON text (``serialization: "raw"``): each seat sizes and parses them itself, and
charges them to the connection's budget as they arrive.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import (  # type: ignore[import-not-found]
    JsProxy, create_once_callable, create_proxy, to_js,
)

from webui.online.codes import new_code, peer_id
from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.online.liveness import LOST_AFTER, PING_EVERY
from webui.online.peermeta import token_of

DIAL_TIMEOUT = 6.0
"""Seconds a guest waits for a dialled channel to open before trying again."""
REDIAL_AFTER = 1.5
"""Seconds between a guest's attempts to reach the room."""
REREGISTER_AFTER = 1.0
"""Seconds between a resuming host's attempts to take back its room's peer id."""
BROKER_ERRORS = ("network", "server-error", "socket-error", "socket-closed")


def now() -> float:
    """Seconds on the page's monotonic clock."""
    return float(js.performance.now()) / 1000


def to_text(data: Any) -> str | bytes:
    """A data-channel payload as text (str) or bytes; anything else becomes b"" (refused)."""
    if isinstance(data, str):
        return data
    if isinstance(data, JsProxy) and hasattr(data, "byteLength"):
        return bytes(js.Uint8Array.new(data).to_py())
    return b""


class Callbacks:
    """The proxies one object gave to JavaScript, destroyed together."""

    def __init__(self) -> None:
        self._proxies: list[Any] = []

    def __call__(self, function: Callable[..., Any]) -> Any:
        proxy = create_proxy(function)
        self._proxies.append(proxy)
        return proxy

    @staticmethod
    def later(seconds: float, function: Callable[[], Any]) -> None:
        """Run `function` once after `seconds` (its proxy frees itself after the call)."""
        js.setTimeout(create_once_callable(function), int(seconds * 1000))

    def destroy(self) -> None:
        """Forget every proxy (after the JavaScript side can no longer call them)."""
        for proxy in self._proxies:
            proxy.destroy()
        self._proxies.clear()


def peer_options(config: dict[str, Any]) -> Any:
    """PeerJS options from the resolved window.LC_CONFIG (broker and ICE servers)."""
    options = {**config["peer"], "config": {"iceServers": config["iceServers"]}, "debug": 0}
    return to_js(options, dict_converter=js.Object.fromEntries)


class DataLink:
    """A PeerJS DataConnection as the host's `Link` (and the guest's way to send)."""

    def __init__(self, conn: Any, callbacks: Callbacks) -> None:
        self.conn = conn
        self._callbacks = callbacks

    def send(self, text: str) -> None:
        """Send one message's text; a dead channel is ignored (the heartbeat notices)."""
        try:
            self.conn.send(text)
        except Exception:  # noqa: BLE001 - PeerJS throws on a closed channel
            pass

    def close(self) -> None:
        """Close after a moment, so that a refusal just sent still goes out."""
        self._callbacks.later(0.5, self.conn.close)


class HostNet:
    """The host's room on the broker; `status` says what is going on, for the waiting screen.

    `on_room(code)` runs once the peer id is registered (the code may differ from the one
    asked for, for a new room); `on_change()` whenever `status` changes.
    """

    def __init__(self, config: dict[str, Any], code: str, fresh: bool,
                 on_room: Callable[[str], None], on_change: Callable[[], None]) -> None:
        self.config = config
        self.code = code
        self.fresh = fresh
        self.status: str | None = None
        """None, "taken" (new code tried), "held" (resuming: retrying) or "broker"."""
        self.registered = False
        self.host: FairHost | None = None
        self._on_room = on_room
        self._on_change = on_change
        self._callbacks = Callbacks()
        self._peer: Any = None
        self._closed = False
        self._register()

    def _register(self) -> None:
        cb = self._callbacks
        peer = js.Peer.new(peer_id(self.code), peer_options(self.config))
        self._peer = peer
        peer.on("open", cb(lambda _id: self._opened(peer)))
        peer.on("error", cb(lambda err: self._error(peer, err)))
        peer.on("connection", cb(self._connection))
        peer.on("disconnected", cb(lambda *_: self._broker_lost(peer)))

    def _opened(self, peer: Any) -> None:
        if peer is not self._peer or self._closed:
            return
        first = not self.registered
        self.registered, self.status = True, None
        if first:
            self._on_room(self.code)
        self._on_change()

    def _error(self, peer: Any, err: Any) -> None:
        if peer is not self._peer or self._closed:
            return
        kind = str(getattr(err, "type", ""))
        if kind == "unavailable-id":
            peer.destroy()
            if self.fresh and not self.registered:
                self.code, self.status = new_code(), "taken"
                self._register()
            else:
                self.status = "held"
                self._callbacks.later(REREGISTER_AFTER, self._retry)
        elif kind in BROKER_ERRORS:
            self.status = "broker"
            if not self.registered:
                peer.destroy()
                self._callbacks.later(3.0, self._retry)
        self._on_change()

    def _retry(self) -> None:
        if not self._closed:
            self._register()

    def _broker_lost(self, peer: Any) -> None:
        """The broker's socket dropped: data channels live on; come back for new guests."""
        if peer is self._peer and not self._closed and not peer.destroyed:
            self._callbacks.later(1.0, lambda: None if self._closed or peer.destroyed
                                  else peer.reconnect())

    def _connection(self, conn: Any) -> None:
        link = DataLink(conn, self._callbacks)
        cb = self._callbacks

        def opened(*_: Any) -> None:
            host = self.host
            if host is None:  # the room is open but its match is not set up: refuse
                conn.close()
                return
            token = token_of(conn.metadata)  # read alone: the rest is the peer's, unchecked
            meta = None if token is None else {"token": token}
            if host.accept(link, meta, now()) is not None:
                link.close()

        def data(payload: Any) -> None:
            arrived = now()  # when it came, before any work on it (liveness.RateLimit)
            host = self.host
            if host is not None:
                host.receive(link, to_text(payload), arrived, clock=now)

        conn.on("open", cb(opened))
        conn.on("data", cb(data))
        def closed(*_: Any) -> None:
            if self.host is not None:
                self.host.closed(link)

        conn.on("close", cb(closed))
        conn.on("error", cb(closed))

    def close(self, delay: float = 0.0) -> None:
        """Leave the broker and drop the guest (e.g. the player leaves the room), after
        `delay` seconds (so that a last message just sent still goes out)."""
        self._closed = True
        if delay:
            self._callbacks.later(delay, self.close)
            return
        if self._peer is not None:
            self._peer.destroy()
        self._callbacks.destroy()


class GuestNet:
    """The guest's connection to room `guest.code`, redialled until closed.

    `status`: None, "noroom" (the broker knows no such room yet) or "broker" (unreachable).
    """

    def __init__(self, config: dict[str, Any], guest: FairGuest,
                 on_change: Callable[[], None]) -> None:
        self.config = config
        self.guest = guest
        self.status: str | None = None
        self._on_change = on_change
        self._callbacks = Callbacks()
        self._conn: Any = None
        self._dialled_at = 0.0
        self._last_ping = 0.0
        self._closed = False
        self._redial_pending = False
        self._peer = self._new_peer()

    def _new_peer(self) -> Any:
        cb = self._callbacks
        peer = js.Peer.new(peer_options(self.config))
        peer.on("open", cb(lambda _id: self._dial(peer)))
        peer.on("error", cb(lambda err: self._error(peer, err)))
        peer.on("disconnected", cb(lambda *_: self._broker_lost(peer)))
        return peer

    def _dial(self, peer: Any) -> None:
        if self._closed or peer is not self._peer or peer.disconnected:
            return
        metadata = to_js({"token": self.guest.token}, dict_converter=js.Object.fromEntries)
        options = to_js({"serialization": "raw", "reliable": True, "metadata": metadata},
                        dict_converter=js.Object.fromEntries)
        conn = peer.connect(peer_id(self.guest.code), options)
        self._conn, self._dialled_at = conn, now()
        cb = self._callbacks

        def opened(*_: Any) -> None:
            if conn is self._conn and not self._closed:
                self.status = None
                self.guest.opened(DataLink(conn, self._callbacks).send, now())

        def data(payload: Any) -> None:
            if conn is self._conn and not self._closed:
                arrived = now()  # when it came, before any work on it (liveness.RateLimit)
                guest = self.guest
                guest.receive(to_text(payload), arrived, clock=now)
                if guest.refused or guest.reload_needed or guest.host_away == "left":
                    self._callbacks.later(0, self.close)  # no point in redialling
                elif guest.drop_link:
                    self._callbacks.later(0, self._drop_current)  # a flood: dial again

        conn.on("open", cb(opened))
        conn.on("data", cb(data))
        conn.on("close", cb(lambda *_: self._dropped(conn)))
        conn.on("error", cb(lambda *_: self._dropped(conn)))

    def _dropped(self, conn: Any) -> None:
        if conn is not self._conn or self._closed:
            return
        self._conn = None
        if self.guest.live.is_open:
            self.guest.closed()
        self._redial()

    def _redial(self) -> None:
        if self._redial_pending or self._closed:
            return
        self._redial_pending = True

        def again() -> None:
            self._redial_pending = False
            if self._closed:
                return
            if self._peer.destroyed:
                self._peer = self._new_peer()
            elif self._peer.disconnected:
                self._peer.reconnect()
            else:
                self._dial(self._peer)

        self._callbacks.later(REDIAL_AFTER, again)

    def _error(self, peer: Any, err: Any) -> None:
        if peer is not self._peer or self._closed:
            return
        kind = str(getattr(err, "type", ""))
        if kind == "peer-unavailable":
            if not self.guest.joined:
                self.status = "noroom"
            self.guest.host_closed()
            self._conn = None
            self._redial()
        elif kind in BROKER_ERRORS:
            self.status = "broker"
            if not self.guest.live.is_open:
                peer.destroy()
                self._redial()
        self._on_change()

    def _broker_lost(self, peer: Any) -> None:
        if peer is self._peer and not self._closed and not peer.destroyed:
            self._callbacks.later(1.0, lambda: None if self._closed or peer.destroyed
                                  else peer.reconnect())

    def tick(self) -> None:
        """Once a second: ping, and give up on a silent or never-opening channel."""
        if self._closed:
            return
        t = now()
        guest = self.guest
        if guest.live.is_open:
            if t - self._last_ping >= PING_EVERY:
                self._last_ping = t
                guest.ping()
            if t - guest.live.last_heard >= LOST_AFTER:
                self._drop_current()
        elif self._conn is not None and t - self._dialled_at >= DIAL_TIMEOUT:
            self._drop_current()

    def _drop_current(self) -> None:
        conn = self._conn
        if conn is not None:
            self._dropped(conn)
            conn.close()

    def close(self, delay: float = 0.0) -> None:
        """Hang up for good (leaving the room, or a refusal that redialling cannot fix), after
        `delay` seconds (so that a last message just sent still goes out)."""
        self._closed = True
        if delay:
            self._callbacks.later(delay, self.close)
            return
        if self._conn is not None:
            self._conn.close()
        self._peer.destroy()
        self._callbacks.destroy()
