"""The seats of an online match: a fair match (`lostcities.fair.FairPeer`) over one connection.

Both pages run a `FairPeer` for their own seat, and neither holds the other's cards: the deck is
shuffled and dealt by both (docs/fair-play.md), every message is checked on arrival, and a
failed check stops the match on the page that saw it, with the evidence in its save. In the
match the two seats are equals (`FairSeat`, here); the room's host (webui/online/host.py,
seat 0) only keeps the lobby's role: its room code, and which guest (webui/online/guest.py,
seat 1, known by a secret token) may join.

Around the fair messages the pages exchange control messages (webui/online/control.py): the
guest's ``hello`` and the host's ``welcome`` on every new connection say which match each page
holds and the last fair message each accepted, and each then resends what the other missed
(`FairPeer.sent_after`): a reload of either page or a dropped connection resumes exactly.

Save before send: every message this page's `FairPeer` makes (its player's move, a new match's
first, an answer computed from its secret on the other page's input) is written to storage
with the seat (its secret and transcript: `FairPeer.save_text`) before it goes on the wire, and
a resend after a reconnection sends only what is saved. If storage refuses the write, the seat
halts (`halt`, ``unsaved``): it sends nothing more, reads nothing more, hangs up, and says why.
So a page never answers one input twice: a page that dies between making an answer and saving
it has sent nothing, and on reload makes it again, byte for byte, once the other page resends
its input. A seat whose tab lost it to another tab halts the same way (``moved``) and writes
nothing more either (webui/online/seatlock.py). What the save holds, and how one read back is
checked, is webui/online/save.py's.

While the match waits on a message the other page owes (`FairPeer.waiting`), the seat times
its silence (webui/online/liveness.py `Owed`): after two minutes the player may end the match
as abandoned by the other (`Remote.offer_end`) or keep waiting (`keep_waiting`).

A room's matches are numbered (``match``): a later match in the same room (a rematch) is a new
`FairPeer` begun by `_begin` with the next number, agreed over control messages. Once a match
ended, each player may ask for a rematch (`ask_rematch`): the page saves the request, then
sends ``rematch`` with its series (webui/match/series.py); once a page has both its own
request and the other's, it checks that both series agree and begins the next match: the same
options and names, the player who did not start this match starting, the agreed series carried
(`carried`, saved). The rematch's decisions are webui/online/rematch.py's; the seat holds its
state and sends its messages. A page's request goes out before its new match's
first message, so the other page always hears it first; a request is sent again on each new
connection, and a page left behind at a rematch by a dropped connection is caught up at the
hello and welcome (the page ahead sends its consent, then the new match).

Browser-free: the transport (webui/browser/online/net.py) hands the seat connections and raw
text, the page's storage is handed in (`set_store`), and the group (`load`).
"""

from __future__ import annotations

import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar, Final, Protocol

from lostcities import Deal, Dealt, Move as LcMove, move_from_json, why_illegal
from lostcities.errors import CorruptSave
from lostcities.fair import FairError, FairPeer, Group, NotAllowed

from webui.kernel.setaside import Storage, set_aside
from webui.match.seats import (
    Move, Problem, Refusal, Seat, View, problem, refusal_of, refused,
)
from webui.match.series import Series
from webui.online import control, rematch, save
from webui.online.codes import normalize_code
from webui.online.control import Control, ControlError, MatchSetup, check_name
from webui.online.liveness import LOST, PING_EVERY, Liveness, Owed, RateLimit, State

TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""A guest token: 16 to 64 URL-safe characters."""
SECRET_BYTES: Final = 32


def new_token() -> str:
    """A fresh secret guest token."""
    return secrets.token_urlsafe(24)


class Link(Protocol):
    """One data connection to the other page, as the network layer gives it."""

    def send(self, text: str) -> None:
        """Send one message's text."""
        ...

    def close(self) -> None:
        """Close the connection (after what was sent has gone out)."""
        ...


class Transport(Protocol):
    """The network layer of a seat (webui/browser/online/net.py's `HostNet` or `GuestNet`)."""

    status: str | None
    """What the network layer is going through, for the waiting room (None: all is well)."""

    def close(self, delay: float = 0.0) -> None:
        """Hang up (after `delay` seconds)."""
        ...


class FairSeat(Seat):
    """What both seats share: the match (a `FairPeer`), its view and moves, the link's resync,
    liveness and flood limit, and the save. `FairHost` and `FairGuest` add their lobby roles."""

    mode: ClassVar[str] = "online"
    seat: ClassVar[int]
    role: ClassVar[str]

    def __init__(self, code: str, name: str, now: float) -> None:
        self.code = normalize_code(code)
        self.name = check_name(name)
        """This page's player's name."""
        self.local_players = frozenset({self.seat})
        self.live = Liveness(now)
        self.limit = RateLimit(now)
        """The current connection's message budget (a fresh one per connection)."""
        self.transport: Transport | None = None
        self.setup: MatchSetup | None = None
        """The match's setup, once both names are known."""
        self.match_no: int = 0
        """The number of the room's match this page holds (0: none yet)."""
        self.peer: FairPeer | None = None
        self.group: Group | None = None
        self.error: Problem | None = None
        """A problem with the other page's messages that did not stop the match."""
        self._saved_peer: Any = None
        """A resumed save's match, until `load` replays it."""
        self._send: Callable[[str], None] | None = None
        """The connection's send, once the pages greeted each other on it."""
        self._cursor = 0
        """This page's fair messages the other page has (said it has, or was sent since)."""
        self._last_ping = now
        self._view: View | None = None
        self._view_fresh = False
        self._store: Storage | None = None
        self._on_warn: Callable[[str], None] | None = None
        self.carried: Series | None = None
        """The series this match continues, as both pages agreed at its rematch (None for the
        room's first match)."""
        self.asked: Series | None = None
        """The series this page's player asked for a rematch with, after this match."""
        self.heard: Series | None = None
        """The series the other page asked for a rematch with, after this match (it asks
        again on each new connection: not saved)."""
        self.rematch_refused: Problem | None = None
        """Why the other page's last rematch message was refused, if it was (a problem code:
        ``rematch-malformed``, ``rematch-mid-match``, ``rematch-other-match``,
        ``rematch-other-series``, ``rematch-disagree``)."""
        self._ended_view: View | None = None
        """The last match's end, shown while the next match's first deal is on its way."""
        self._saved_out = 0
        """How many of this match's messages storage holds (`_keep_made`): none beyond them
        is sent."""
        self.halted: Problem | None = None
        """Why this page stopped relaying for good (`halt`): ``unsaved`` or ``moved``."""
        self.owed = Owed()
        """The other page's silence while it owes the match a message."""
        self._inbox: deque[tuple[str | bytes, float]] = deque()
        """Messages of greeted connections not taken yet, in order, each with when it came."""
        self._came_at: float | None = None
        """When the message the FairPeer's work under way takes in came (None: the start)."""
        self._later: Callable[[Callable[[], None]], None] | None = None
        """Runs a job in a task of its own (`set_later`); None: all is done at once."""
        self._step_due = False
        """Whether a `_step` waits in a later task."""
        self._left = False
        """Whether the player left the room for good (`leave`): nothing more is taken."""

    # ---- the Seat interface ----------------------------------------------------------------

    @property
    def has_match(self) -> bool:
        """Whether the match shows (its first deal is done)."""
        return self._current_view() is not None

    def view(self) -> View:
        """This seat's view (the engine's, with the fair layer's legal moves and status)."""
        shown = self._current_view()
        if shown is None:
            raise LookupError("the match starts once both pages have shuffled")
        return shown

    def _current_view(self) -> View | None:
        if not self._view_fresh:
            view = None if self.peer is None else self.peer.view()
            if view is not None:
                self._ended_view = None
            self._view = view if view is not None else self._ended_view
            self._view_fresh = True
        return self._view

    def _dirty(self) -> None:
        self._view_fresh = False

    def dealt(self) -> Dealt | None:
        """Every round's deal this page learnt at its audit, and the job offers once the
        match's end revealed them."""
        peer = self.peer
        if peer is None:
            return None
        return Dealt(tuple(Deal.of(start) for start in peer.deals()), peer.offers())

    def submit(self, move: Move) -> Refusal | None:
        """The player's move: made, saved and sent; None, or why not (nothing changes). A
        move storage refuses is not sent: the seat halts (``unsaved``). Made after every
        message that came before it is taken (`_settle`)."""
        self._settle()
        peer = self.peer
        if peer is None or not self.has_match:
            return refused("not-started")
        if peer.error is not None or self.halted is not None:
            return refused("stopped")
        try:
            parsed = move_from_json(move)
        except ValueError as exc:
            return refusal_of(exc)
        try:
            peer.act(parsed)
        except NotAllowed:
            return self._why_not(parsed)
        except FairError:
            self._dirty()
            return refused("stopped")
        self._dirty()
        self._flush()  # saved, then sent
        return None

    def _why_not(self, move: LcMove) -> Refusal:
        """Why the fair layer did not take `move`: the engine's reason, or the other page's
        answer is awaited."""
        peer, state = self.peer, None if self.peer is None else self.peer.state
        if peer is None or state is None or peer.waiting():
            return refused("awaiting-answer")
        why = why_illegal(state, move, self.seat)
        return why.to_json() if why is not None else refused("awaiting-answer")

    def match_on(self) -> bool:
        """Whether leaving now would end a match still being played (not once halted)."""
        return (self.peer is not None and self.peer.error is None and self.halted is None
                and super().match_on())

    @property
    def stopped(self) -> bool:
        """Whether a failed check stopped the match."""
        return self.peer is not None and self.peer.error is not None

    def stop_problem(self) -> Problem | None:
        """What the player is told of the check that stopped the match (None: not stopped):
        ``stopped`` (the other page's message failed it) or ``stopped-own`` (this page's own
        error), with the check's message and code (``check``)."""
        error = self.peer.error if self.peer is not None else None
        if error is None:
            return None
        return problem("stopped-own" if error.code == "internal" else "stopped",
                       message=error.message, check=error.code)

    def waiting(self) -> bool:
        """Whether the match waits on the other page's messages (not once halted)."""
        return self.peer is not None and self.halted is None and self.peer.waiting()

    def problem(self) -> Problem | None:
        """The notice to show: why this page halted, the stop, or the last problem with the
        other page."""
        return self.halted or self.stop_problem() or self.error

    def silence(self, now: float) -> float | None:
        """Seconds the other page has owed the match a message in silence at `now` (None:
        it owes nothing)."""
        self.owed.note(self._owing(now), now)
        return self.owed.silence(now)

    def offer_end(self, now: float) -> bool:
        """Whether the player may end the match as abandoned by the other page at `now`:
        two minutes of owed silence (`Owed`), the match not over (nor stopped, nor halted)."""
        self.owed.note(self._owing(now), now)
        return self.owed.offer(now) and self.match_on()

    def connection(self, now: float) -> State | None:
        """The other page's connection state (None: no other page yet)."""
        raise NotImplementedError

    def _owing(self, now: float) -> bool:
        """Whether the other page owes the match something at `now`: a message (`waiting`),
        or its player's move while the page is gone (no heartbeat: `LOST`). A player whose
        page is there thinks as long as they like."""
        if self.waiting():
            return True
        peer = self.peer
        return (peer is not None and self.halted is None and peer.error is None
                and peer.table.actor() == 1 - self.seat and self.connection(now) == LOST)

    def keep_waiting(self, now: float) -> None:
        """The player keeps waiting: the offer comes back after two more minutes."""
        self.owed.keep_waiting(now)

    def _remote_extras(self, now: float) -> dict[str, Any]:
        """What the badge shows of the other page's owed silence, and of a halt."""
        return {"silent": self.silence(now), "offer_end": self.offer_end(now),
                "halted": None if self.halted is None else self.halted["code"]}

    def set_on_warn(self, callback: Callable[[str], None]) -> None:
        """`callback(text)` runs on what is worth logging (a flood, a save that failed)."""
        self._on_warn = callback

    def _warn(self, text: str) -> None:
        if self._on_warn is not None:
            self._on_warn(text)

    # ---- the match -------------------------------------------------------------------------

    def load(self, group: Group) -> None:
        """Play with `group` (libsodium in the page) from now on; a resumed match is replayed
        from its save (CorruptSave, the save untouched, if it does not replay)."""
        self.group = group
        doc = self._saved_peer
        if doc is not None:
            peer = FairPeer.restore(doc, group)
            if peer.seat != self.seat:
                raise CorruptSave("the saved match is another seat's")
            self.peer, self._saved_peer = peer, None
            self._saved_out = len(peer.sent_after(0))  # all of it came from storage
            if not peer.started and peer.error is None:  # saved before its start was done
                self._start()
        self._dirty()

    @property
    def loaded(self) -> bool:
        """Whether the seat has its group (and its saved match, replayed)."""
        return self.group is not None and self._saved_peer is None

    def _begin(self, setup: MatchSetup, match_no: int) -> None:
        """Begin match `match_no` of the room with a fresh secret, saved before anything of it
        is sent."""
        if self.group is None:
            raise RuntimeError("the seat has no group yet: load it first")
        self.setup, self.match_no = setup, match_no
        self.peer = FairPeer(self.seat, setup.options, setup.names, setup.first_player,
                             secrets.token_bytes(SECRET_BYTES), self.group)
        self._saved_out = 0
        self._start()

    def _start(self) -> None:
        """The match's start (seat 0 shuffles first), as work under way: its secret is
        saved now, its first messages once made, before they are sent."""
        assert self.peer is not None
        self.peer.begin()
        self._came_at = None
        self._dirty()
        self._persist()
        if self._later is None:
            self._settle()
        else:
            self._schedule()

    def _greeted(self, send: Callable[[str], None], last: int) -> None:
        """The pages greeted each other on a connection: the other has this page's messages
        up to `last`; send it the rest, then this page's rematch request, if any."""
        self._send, self._cursor = send, last
        self._flush()
        if self.asked is not None and self.halted is None:
            send(control.rematch(self.match_no, self.asked))

    def _flush(self) -> None:
        """Save what this page's FairPeer made (before any of it leaves), then send the other
        page this page's fair messages it does not have yet and storage holds, in order;
        nothing once halted."""
        if not self._keep_made() or self._send is None or self.peer is None:
            return
        held = max(0, self._saved_out - self._cursor)
        for text in self.peer.sent_after(self._cursor)[:held]:
            self._send(text)
            self._cursor += 1

    def _keep_made(self) -> bool:
        """Write the seat to storage if its FairPeer made messages storage does not hold yet;
        False if the seat is halted (storage refused the write: nothing of it is sent)."""
        peer = self.peer
        if self.halted is not None:
            return False
        if peer is None:
            return True
        made = len(peer.sent_after(self._saved_out))
        if made and not self._persist():
            return False
        self._saved_out += made
        return True

    def halt(self, why: Problem) -> None:
        """Stop relaying for good on this page: nothing more is sent or read, and the
        transport hangs up at the next tick (or at once by `hang_up`). `why`: ``unsaved``
        (storage refused a write: the message is not sent) or ``moved`` (another tab runs the
        seat now: this page writes nothing more either)."""
        if self.halted is None:
            self.halted = why
        if why["code"] == "moved":
            self._store = None
        self._unlink()

    def set_later(self, later: Callable[[Callable[[], None]], None]) -> None:
        """Do the match's costly work a piece a task: `later(job)` runs `job()` in a task of
        its own, after those queued (the page's posted message, which a hidden tab does not
        slow). A fair message is checked as it comes, then its proofs are checked and this
        page's answer made a deck at a time (`FairPeer.work`), as is a match's start;
        messages coming meanwhile wait their turn. Without it (a test's seat) all is done at
        once."""
        self._later = later

    def _take(self, raw: str | bytes, now: float) -> None:
        """A message on a greeted connection, arrived at `now`: queued, and taken in turn
        (`_step`): at once if nothing is under way."""
        self._inbox.append((raw, now))
        if self._later is None:
            self._settle()
        elif not self._step_due:
            self._step()

    def _busy(self) -> bool:
        """Whether messages wait to be taken, or the FairPeer has work under way."""
        return not self._left and self.halted is None and (
            bool(self._inbox) or (self.peer is not None and self.peer.busy))

    def _step(self) -> None:
        """One task's work: the next message taken (checked as it came), or a piece of the
        FairPeer's work under way; a `_step` in a later task goes on."""
        if not self._busy():
            self._inbox.clear()  # (left, or halted: nothing more is read)
            return
        peer = self.peer
        if peer is None or not peer.busy:
            self._take_one(*self._inbox.popleft())
            peer = self.peer
        if peer is not None and peer.busy:
            try:
                done = peer.work()
            except FairError:  # the peer keeps the error and its evidence: shown, and saved
                done = True
            if done:
                self._done()
        self._schedule()

    def _schedule(self) -> None:
        """A `_step` in a later task, if work waits and none is due yet (with `later`)."""
        if self._later is not None and not self._step_due and self._busy():
            self._step_due = True
            self._later(self._due_step)

    def _due_step(self) -> None:
        self._step_due = False
        self._step()

    def _settle(self) -> None:
        """Do all that waits, now: before what reads or acts on the match as received (a
        new connection's greeting, the player's move, a rematch)."""
        while self._busy():
            self._step()

    def _take_one(self, raw: str | bytes, now: float) -> None:
        """A heartbeat, the host's goodbye, a rematch, or the match's. Anything else (a
        malformed or out-of-place control message included) goes to the FairPeer, which
        checks it (`FairPeer.check`) and takes it in as work under way: what fails stops the
        match, the evidence kept."""
        try:
            message = control.parse(raw)
        except ControlError as exc:
            if exc.kind == "rematch":  # refused: the match (over, or not) is not the peer's
                self._refuse_rematch(problem("rematch-malformed", reason=str(exc)))
                self._changed()
                return
            message = None
        if message is not None and (message.kind == "ping" or self._control(message)):
            return
        peer = self.peer
        if peer is None or peer.error is not None:
            return  # a stopped match reads nothing more
        self._came_at = now
        try:
            peer.check(raw)
        except FairError:  # the peer keeps the error and its evidence: shown, and saved
            self._done()
            return
        self.owed.arrived(True, now)  # it spoke: its silence is not counted while this works

    def _done(self) -> None:
        """The FairPeer's work is done (or a failed check stopped the match): the view
        changes, the owed silence starts again if a message came, and what the FairPeer made
        is saved, then sent."""
        self._dirty()
        if self._came_at is not None:
            self.owed.arrived(self.waiting(), self._came_at)
            self._came_at = None
        self._flush()
        self._changed()

    def _control(self, message: Control) -> bool:
        """A control message mid-match other than a ping: True if this seat takes it (a
        rematch, whatever it says: one out of place is refused, and the match untouched)."""
        if message.kind != "rematch":
            return False
        self._hear_rematch(message)
        self._changed()
        return True

    def _heard(self, now: float, size: int) -> bool:
        """A message arrived at `now`: within the connection's budget? (Over it, the
        connection is cut: `_flooded`.)"""
        if not self.limit.allow(now, size):
            self._flooded()
            return False
        self.live.heard(now)
        return True

    def _flooded(self) -> None:
        """Too many messages: the connection is dropped (a resync on the next one loses
        nothing, since no message after a dropped one is read)."""
        raise NotImplementedError

    def _ping(self, now: float) -> None:
        if self.halted is not None and self.transport is not None:
            self.hang_up()  # (not from inside the transport's own callback)
        if self._send is not None and now - self._last_ping >= PING_EVERY:
            self._last_ping = now
            self._send(control.ping())

    def _unlink(self) -> None:
        self._send = None
        self.live.closed()

    # ---- the rematch (its decisions: webui/online/rematch.py) --------------------------------

    @property
    def starting(self) -> bool:
        """Whether a rematch was agreed and its first deal is on its way (the last match's
        end shows meanwhile)."""
        return self._ended_view is not None and self._current_view() is self._ended_view

    def series(self) -> Series | None:
        """The room's series as this page counts it once this match ended (`room_series`);
        while the next match starts, the agreed one. None before the end, or if a check
        stopped the match."""
        view, setup = self._current_view(), self.setup
        if self.starting:
            return self.carried
        if self.stopped:
            return None
        return rematch.room_series(view, setup, self.carried, self.match_no, mode=self.mode,
                                   room=self.code)

    def series_at_end(self, kept: Series | None, recorded: bool) -> Series | None:
        """See `Seat.series_at_end`: the room's series as this page counts it (`series`),
        shown once it holds a match or once this match is recorded."""
        series = self.series()
        return series if series is not None and (recorded or bool(series.results)) else None

    def offers_play_again(self, recorded: bool) -> bool:
        """See `Seat.offers_play_again`: when a rematch may be asked (`may_rematch`)."""
        return self.may_rematch()

    def rematch_state(self) -> str | None:
        """See `Seat.rematch_state`."""
        if self.starting:
            return "starting"
        if self.asked is not None:
            return "asked"
        if self.heard is not None and self.may_rematch():
            return "invited"
        return None

    def may_rematch(self) -> bool:
        """Whether this page's player may ask for (or accept) a rematch now: the match ended
        here with nothing of it awaited, and the player has not asked yet."""
        return (self.asked is None and not self.starting and self.peer is not None
                and not self.peer.waiting() and self.series() is not None
                and self._room_open())

    def _room_open(self) -> bool:
        return True

    def ask_rematch(self) -> bool:
        """The player asks for a rematch, or accepts the other's: saved, then sent (now, or
        on the next connection); once both asked, the next match begins. True: the other page
        was asked (`Seat.ask_rematch`). ValueError (nothing changes) if one can't be asked
        now."""
        self._settle()
        series = self.series()
        if series is None or not self.may_rematch():
            raise ValueError("a rematch can be asked once, when the match is over")
        text = control.rematch(self.match_no, series)  # ValueError: too long to carry
        self.asked, self.rematch_refused = series, None
        if not self._persist():  # a request survives a reload, or is not sent
            return True
        if self._send is not None:
            self._send(text)
        self._agree()
        return True

    def _hear_rematch(self, message: Control) -> None:
        """The other page asks for (or accepts) a rematch after its match `message.match`:
        kept if it is this match's, over here, and of this room's series; else refused (the
        reason kept in `rematch_refused`), and nothing changes."""
        theirs, mine = message.series, self.series()
        assert theirs is not None
        if rematch.repeated(message, self.match_no, self.carried):
            return  # its request for the match begun here, sent again: agreed already
        why = rematch.refusal(message, self.match_no, mine, self.starting)
        if why is not None:
            self._refuse_rematch(why)
        else:
            self.heard, self.rematch_refused = theirs, None
            self._agree()

    def _agree(self) -> None:
        """Once both pages asked: the series both agree on (`rematch.agreement`) is carried
        into the next match, which begins; series that differ are refused (the other page's
        request is dropped, this page's stands)."""
        if self.asked is None or self.heard is None:
            return
        try:
            agreed = rematch.agreement(self.heard, self.asked, self.seat)
        except ValueError as exc:
            self.heard = None
            self._refuse_rematch(problem("rematch-disagree", reason=str(exc)))
            return
        peer, setup = self.peer, self.setup
        assert peer is not None and peer.state is not None and setup is not None
        self._ended_view = self._current_view()
        self.carried, self.asked, self.heard, self.rematch_refused = agreed, None, None, None
        self._cursor = 0  # the other page has nothing of the new match yet
        self._begin(rematch.next_setup(setup, peer.state.first_player),
                    self.match_no + 1)  # saved before its first message is sent
        self._flush()

    def _refuse_rematch(self, why: Problem) -> None:
        self.rematch_refused = why
        self._warn(f"room {self.code}: a rematch message refused: {why}")

    def _consent(self, match: int) -> str | None:
        """What tells a page left behind after match `match` that this page agreed to the
        rematch it asked for (`rematch.consent`), or None."""
        return rematch.consent(self.carried, match, self.match_no)

    # ---- saving (the document's format: webui/online/save.py) -------------------------------

    def set_store(self, storage: Storage) -> None:
        """Save into `storage` (under `save_key`) before sending anything of the match. (A
        seat given no storage, a test's, has nothing to write first.)"""
        self._store = storage

    def _leaving(self) -> None:
        """The player leaves the room for good: nothing waiting is taken any more, and a
        match a failed check stopped has its save (the match up to the last good message, the
        error and its evidence) set aside (webui/kernel/setaside.py), not lost with the room."""
        self._left = True
        self._inbox.clear()
        if self._store is not None and self.stopped:
            set_aside(self._store, self.save_key, self._text(), int(time.time() * 1000),
                      self._warn)

    def _persist(self) -> bool:
        """Write the seat to storage now; False if halted, or if storage refuses (full,
        denied): the seat then halts (``unsaved``) and sends nothing more."""
        if self.halted is not None:
            return False
        if self._store is None:
            return True
        try:
            self._store.setItem(self.save_key, self._text())
        except Exception as exc:  # noqa: BLE001 - storage full or refused: stop, say so
            self._warn(f"room {self.code}: the match could not be saved ({exc!r}): halted")
            self.halt(problem("unsaved", reason=str(exc) or type(exc).__name__))
            return False
        return True

    def to_json(self) -> dict[str, Any]:
        """Everything to resume the seat exactly (its secret: keep it on this page)."""
        peer = self.peer.save() if self.peer is not None else self._saved_peer
        return {**self._head(), "peer": peer}

    def saved_text(self) -> str | None:
        """`to_json` as JSON text, the match's part joined from texts made once
        (`FairPeer.save_text`): a page writes it after every change."""
        return self._text() if self.keeps_save() else None

    def _text(self) -> str:
        return save.room_text(self._head(), self.peer, self._saved_peer)

    def _head(self) -> dict[str, Any]:
        return save.head(role=self.role, code=self.code, name=self.name, match_no=self.match_no,
                         setup=self.setup, carried=self.carried, asked=self.asked,
                         extra=self._role_json())

    def _role_json(self) -> dict[str, Any]:
        return {}

    def _restore_common(self, doc: dict[str, Any]) -> None:
        """The shared part of a save (`from_json`, `save.read_common`); CorruptSave saying
        what is wrong."""
        common = save.read_common(doc, seat=self.seat, mode=self.mode, code=self.code)
        self.match_no, self.setup, self._saved_peer = common.match_no, common.setup, common.peer
        self.carried, self.asked = common.carried, common.asked
