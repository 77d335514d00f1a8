"""The app-level heartbeat: PeerJS never reports a peer whose tab vanished, so we listen.

The guest sends a ``ping`` every `PING_EVERY` seconds and the host answers ``pong``; each side
notes when it last heard the other. `connection_state` turns that into what both screens show.
"""

from __future__ import annotations

from typing import Final, Literal

PING_EVERY: Final = 2.0
"""Seconds between the guest's pings."""

QUIET_AFTER: Final = 4.5
"""Seconds of silence (two missed pings) after which an open connection is in doubt."""

LOST_AFTER: Final = 8.0
"""Seconds of silence after which the opponent counts as lost (the issue asks for ~10 s)."""

CONNECTED: Final = "connected"
RECONNECTING: Final = "reconnecting"
LOST: Final = "lost"

State = Literal["connected", "reconnecting", "lost"]


def connection_state(is_open: bool, silence: float) -> State:
    """What the screen shows, given whether a channel is open and the seconds since the peer
    was last heard (or since we started waiting for it, when never heard).

    ``connected``: open and heard within `QUIET_AFTER`; ``lost``: silent for `LOST_AFTER` or
    more; ``reconnecting`` in between (or while a closed channel is being re-established).
    """
    if silence >= LOST_AFTER:
        return LOST
    if is_open and silence < QUIET_AFTER:
        return CONNECTED
    return RECONNECTING


class Liveness:
    """When the peer was last heard and whether a channel is open, on a caller's clock."""

    def __init__(self, now: float) -> None:
        self.is_open = False
        self.last_heard = now
        """Time of the last message from the peer, or when we started waiting for one."""

    def heard(self, now: float) -> None:
        """A message from the peer arrived."""
        self.last_heard = now

    def opened(self, now: float) -> None:
        """A channel to the peer opened: it counts as hearing from it."""
        self.is_open = True
        self.last_heard = now

    def closed(self) -> None:
        """The channel closed (silence keeps counting from the last message)."""
        self.is_open = False

    def state(self, now: float) -> State:
        """`connection_state` now."""
        return connection_state(self.is_open, now - self.last_heard)


RATE: Final = 10.0
"""Messages a second a guest may send over time (it pings every 2 s and moves by clicks)."""

BURST: Final = 20
"""Messages a guest may send at once (a reconnect's hello and the moves right after)."""

CLOSE_AFTER_DROPS: Final = 40
"""Messages dropped over the rate after which the host closes the connection (a flood)."""


class RateLimit:
    """A token bucket: `burst` messages at once, then `rate` a second; counts what it drops."""

    def __init__(self, now: float, rate: float = RATE, burst: int = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.dropped = 0
        """Messages refused so far on this connection."""
        self._at = now

    def allow(self, now: float) -> bool:
        """Whether a message arriving at `now` may be handled (else it is counted as dropped)."""
        self.tokens = min(float(self.burst), self.tokens + (now - self._at) * self.rate)
        self._at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False
