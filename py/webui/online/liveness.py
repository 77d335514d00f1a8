"""The app-level heartbeat: PeerJS never reports a peer whose tab vanished, so we listen.

Each page sends a ``ping`` every `PING_EVERY` seconds on a connection where both have greeted
(webui/online/control.py); each notes when it last heard the other. `connection_state` turns
that into what both screens show. And each page charges what the other sends to a budget
(`RateLimit`): a flood cuts the connection. While the match waits on a message the other page
owes, `Owed` times its silence: after `ABANDON_AFTER` seconds the player may end the match as
abandoned by the other.
"""

from __future__ import annotations

from typing import Final, Literal

from lostcities.fair.wire import MAX_MESSAGE_CHARS

PING_EVERY: Final = 2.0
"""Seconds between a page's pings."""

QUIET_AFTER: Final = 4.5
"""Seconds of silence (two missed pings) after which an open connection is in doubt."""

LOST_AFTER: Final = 8.0
"""Seconds of silence after which the opponent counts as lost (the issue asks for ~10 s)."""

ABANDON_AFTER: Final = 120.0
"""Seconds the other page may owe the match a message in silence before this page's player may
end the match as abandoned by it (and again after each "keep waiting")."""

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


RATE: Final = 32.0
"""Tokens a second a connection's budget regains while the page is idle (a token per KB: a
page pings every 2 s, and sends a few messages of at most a few KB for each move)."""

BURST: Final = 256
"""Tokens the other page may spend at once: a round's shuffles, or what it resends after a
reconnection."""

BYTES_PER_TOKEN: Final = 1024
"""A message costs one token per this many bytes, at least one: parsing work grows with size."""

MAX_COST: Final = MAX_MESSAGE_CHARS / BYTES_PER_TOKEN
"""The most one message costs: anything larger is refused by its size, before any parsing
(`lostcities.fair.wire.parse`)."""


def message_cost(size: int) -> float:
    """The tokens a message of `size` bytes (or characters) costs: 1 up to BYTES_PER_TOKEN,
    then in proportion, up to MAX_COST."""
    return min(MAX_COST, max(1.0, size / BYTES_PER_TOKEN))


class RateLimit:
    """A token bucket: `burst` tokens at once, regained at `rate` a second; counts its drops.

    Time spent handling the other page's messages regains nothing. In the page, messages that
    arrive while it is busy are delivered one after another once it is free, each stamped
    with that later time; a bucket that refilled by those stamps would give a peer whose
    messages are slow to handle the budget for more of them. So the bucket only counts the
    page's time between handling one message (`handled`) and the next arrival (`allow`), and
    each message costs tokens in proportion to its size (`message_cost`).
    """

    def __init__(self, now: float, rate: float = RATE, burst: int = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.dropped = 0
        """Messages refused so far on this connection."""
        self._at = now
        """Until when the bucket has been refilled (or the host was busy)."""

    def allow(self, now: float, size: int = 0) -> bool:
        """Whether a message of `size` bytes arriving at `now` may be handled (else it is
        counted as dropped)."""
        self.tokens = min(float(self.burst), self.tokens + max(0.0, now - self._at) * self.rate)
        self._at = max(self._at, now)
        cost = message_cost(size)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        self.dropped += 1
        return False

    def handled(self, now: float) -> None:
        """The message allowed last was handled by `now`: the time it took regains nothing."""
        self._at = max(self._at, now)



class Owed:
    """How long the other page has owed the match a message in silence, on a caller's clock:
    from when the debt began or its last message arrived, whichever is later (a heartbeat pays
    nothing); and whether the player may now end the match as abandoned by it (`offer`)."""

    def __init__(self) -> None:
        self.since: float | None = None
        """When the silence began (None: the other page owes nothing)."""
        self.patience: float | None = None
        """No offer before this time (the player chose to keep waiting)."""

    def note(self, owing: bool, now: float) -> None:
        """Whether the other page owes a message at `now`: a debt begins, goes on or ends."""
        if not owing:
            self.since = self.patience = None
        elif self.since is None:
            self.since = now

    def arrived(self, owing: bool, now: float) -> None:
        """A message of the match arrived at `now` (`owing`: another is still owed): the
        silence starts again, and the offer waits its whole time again."""
        self.since = now if owing else None
        self.patience = None

    def silence(self, now: float) -> float | None:
        """Seconds of owed silence at `now` (None: nothing is owed)."""
        return None if self.since is None else max(0.0, now - self.since)

    def offer(self, now: float) -> bool:
        """Whether the player may end the match as abandoned by the other page at `now`."""
        silence = self.silence(now)
        return (silence is not None and silence >= ABANDON_AFTER
                and (self.patience is None or now >= self.patience))

    def keep_waiting(self, now: float) -> None:
        """The player keeps waiting: the offer comes back after `ABANDON_AFTER` more seconds
        of silence."""
        if self.since is not None:
            self.patience = now + ABANDON_AFTER
