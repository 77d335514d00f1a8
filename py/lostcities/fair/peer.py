"""``FairPeer``: one seat of a fair match, driven by its player's moves and the other seat's
messages, with nothing trusted that the other seat sends.

A transport hands it raw text (``receive``) and the player's moves (``act``), and delivers what
they return, in order, exactly once. The costly work (a shuffle made, or checked, deck by deck)
can go a piece at a time: ``check`` a message, or ``begin`` the match, then ``work`` until it is
done, each piece in a task of its own (``receive`` and ``start`` do it all at once). Any failed
check stops the match: the error (with its evidence) is raised, kept and saved; every later
call raises ``MatchStopped``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from typing import Any, NoReturn

from ..errors import CorruptSave
from ..moves import Move, move_from_json, move_to_json
from ..options import Options
from ..state import State
from ..views import view as engine_view
from .codec import decode, encode
from .derive import SEED_BYTES
from .errors import FairError, MatchStopped, NotAllowed, ProtocolViolation, stopped_from_json
from .group import Group
from .table import Setup, Table
from .wire import MAX_MESSAGE_CHARS, VERSION, Message, Shuffle, dumps, parse

SAVE_FORMAT = "lostcities-fair"
SAVE_VERSION = 2
_SAVE_KEYS = {"format", "version", "seat", "options", "names", "first_player", "secret",
              "started", "transcript", "stopped"}
_EVIDENCE_CHARS = MAX_MESSAGE_CHARS
"""The offending message is kept whole (longer ones were refused unread: their start is kept)."""


class FairPeer:
    """One seat of a fair match.

    ``secret`` is 32 bytes from a secure random source (every key, shuffle and proof of this
    seat derives from it); ``first_player`` ``None`` tosses a coin both seats contribute to.
    Both seats must be built with the same options, names and ``first_player``: the first
    messages check it. ``table_class`` lets a test build a peer that cheats.
    """

    table_class: type[Table] = Table

    def __init__(self, seat: int, options: Options, names: tuple[str, str],
                 first_player: int | None, secret: bytes, group: Group) -> None:
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        if not isinstance(options, Options):
            raise ValueError("options must be an Options value")
        if (not isinstance(names, tuple) or len(names) != 2
                or not all(isinstance(n, str) for n in names)):
            raise ValueError("names must be a tuple of two strings")
        if first_player not in (None, 0, 1) or isinstance(first_player, bool):
            raise ValueError(f"first_player must be 0, 1 or None, not {first_player!r}")
        if not isinstance(secret, bytes) or len(secret) != SEED_BYTES:
            raise ValueError(f"the secret must be {SEED_BYTES} bytes")
        self._setup = Setup(seat, options, names, first_player)
        self._secret = secret
        self._group = group
        self._table = self.table_class(self._setup, secret, group)
        self._seq_in = 0
        self._seq_out = 0
        self._started = False
        self._transcript: list[dict[str, Any]] = []
        self._entry_texts: list[str] = []
        """Each transcript entry's JSON text, made once (a save joins them: `save_text`)."""
        self._out_texts: list[str] = []
        """The text of each message this peer sent, message ``n`` at index ``n - 1``."""
        self._error: FairError | None = None
        self._shown: State | None = None
        """The last state whose every card this seat may see was open (what ``view`` shows)."""
        self._job: Iterator[None] | None = None
        """The work under way (``begin``, or a message ``check`` passed): its pieces."""
        self._job_raw: str | bytes | None = None
        """The message the work under way takes in (the evidence, if it fails)."""
        self._made: list[str] = []
        """What the last work done made to send, until ``finish`` returns it."""

    # ------------------------------------------------------------------ reading

    @property
    def seat(self) -> int:
        """This peer's seat."""
        return self._setup.seat

    @property
    def error(self) -> FairError | None:
        """What stopped the match, if anything did."""
        return self._error

    @property
    def state(self) -> State | None:
        """The engine state this peer holds (hidden cards as hidden ids); for tests and tools."""
        return self._table.state

    def deals(self) -> tuple[State, ...]:
        """The start of every round audited so far, in order, with every card known (each
        page learns the whole deal at a round's audit): what a replay of the match needs."""
        dealt = self._table.dealt
        return tuple(dealt[r] for r in sorted(dealt))

    def offers(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """Both players' job offers, once the match's end has revealed them (None without
        Jobs or before)."""
        table = self._table
        jobs = table.deck("jobs")
        if jobs is None or len(jobs.known) < jobs.size:
            return None
        return table.known_offers()

    @property
    def table(self) -> Table:
        """The protocol state (read it, don't change it)."""
        return self._table

    @property
    def last_received(self) -> int:
        """The number of the last message accepted from the other seat (one under way is
        not, until its work is done)."""
        return self._seq_in

    @property
    def busy(self) -> bool:
        """Whether work is under way (``begin``, or a message ``check`` passed): ``work``
        goes on with it, and nothing of it shows until it is done."""
        return self._job is not None

    @property
    def started(self) -> bool:
        """Whether the match's start is done (its first messages made)."""
        return self._started

    def sent_after(self, seq: int) -> list[str]:
        """This peer's messages numbered above ``seq``, to send again after a reconnection."""
        return self._out_texts[max(seq, 0):]

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves this peer's player may make now (none while a message is awaited)."""
        return () if self._error else self._table.legal_moves()

    def waiting(self) -> bool:
        """Whether the match waits on the other seat's messages (not on a player)."""
        t = self._table
        return self._error is None and (
            t.state is None or t.pending is not None or bool(t.debts(1 - self.seat)))

    def view(self) -> dict[str, Any] | None:
        """The engine's view for this seat (``None`` while the first deal is being set up),
        with the fair layer's ``legal_moves`` and a ``fair`` status::

            {"seat": 0, "actor": 1, "waiting": false, "stopped": null | {...}}

        While a share is on its way the last complete view is shown, with no legal moves.
        """
        t = self._table
        if self._shown is None:
            return None
        shown = engine_view(self._shown, self.seat)
        actor = t.actor()
        shown["legal_moves"] = [move_to_json(m) for m in self.legal_moves()]
        if t.state is not None and t.state.phase == "jobs":
            shown["to_act"] = actor
            shown["jobs"][self.seat] = t.my_pending_pick()
        shown["fair"] = {"seat": self.seat, "actor": actor, "waiting": self.waiting(),
                         "stopped": None if self._error is None else self._error.to_json()}
        return shown

    # ------------------------------------------------------------------ acting

    def start(self) -> list[str]:
        """The messages that open the match (seat 0 sends the first shuffle); call once."""
        self.begin()
        return self.finish()

    def begin(self) -> None:
        """Begin the match's start, as work under way (``work``); ``NotAllowed`` (nothing
        changes) once it has begun."""
        self._idle()
        if self._started:
            raise NotAllowed("the match has already started")
        self._hold(self._starting(self._table.copy()), None)

    def _starting(self, table: Table) -> Iterator[None]:
        content: dict[str, Any] = {}
        yield from table.flush_pieces(content)
        self._started = True
        self._made = self._commit(table, content, None)

    def act(self, move: Move) -> list[str]:
        """Make the player's move; returns the messages to send. ``NotAllowed`` (nothing
        changes) if the move is not allowed now (nor while work is under way)."""
        self._idle()
        if not self._started:
            raise NotAllowed("start the match first")
        table = self._table.copy()
        content = table.play(move)
        try:
            table.flush(content)
        except Exception as exc:
            self._raise_stop(exc, None)
        return self._commit(table, content, move)

    def receive(self, raw: str | bytes) -> list[str]:
        """Take in one message from the other seat; returns the messages to send back
        (``check``, then ``finish``).

        Raises the ``FairError`` that stops the match if any check fails (and changes
        nothing but the stop).
        """
        self.check(raw)
        return self.finish()

    def check(self, raw: str | bytes) -> None:
        """Check one message from the other seat (its form and its number), and take it in
        as work under way (``work``): its proofs are checked, and this seat's answer made, a
        piece at a time. Raises the ``FairError`` that stops the match if a check fails;
        ``NotAllowed`` (nothing changes) while work is under way."""
        self._idle()
        try:
            message = parse(raw, self._group, check_points=self._table.replaying is None)
            if message.seq != self._seq_in + 1:
                code = "replayed" if message.seq <= self._seq_in else "out-of-order"
                raise ProtocolViolation(
                    code, f"Message {message.seq} arrived when {self._seq_in + 1} was due",
                    {"seq": message.seq, "due": self._seq_in + 1})
        except Exception as exc:
            self._raise_stop(exc, raw)
        self._hold(self._receiving(self._table.copy(), message), raw)

    def _receiving(self, table: Table, message: Message) -> Iterator[None]:
        yield from table.consume_pieces(message)
        content: dict[str, Any] = {}
        yield from table.flush_pieces(content)
        self._made = self._commit(table, content, None, message)

    def _hold(self, job: Iterator[None], raw: str | bytes | None) -> None:
        self._job, self._job_raw, self._made = job, raw, []

    def work(self) -> bool:
        """Do the next piece of the work under way (about one deck's shuffle, made or
        checked); True once it is all done (or none was under way): its messages are then
        made (``finish`` returns them, ``sent_after`` holds them). Raises the ``FairError``
        that stops the match if a check fails (and changes nothing but the stop)."""
        job = self._job
        if job is None:
            return True
        try:
            next(job)
        except StopIteration:
            self._job = None
            return True
        except Exception as exc:
            self._job = None
            self._raise_stop(exc, self._job_raw)
        return False

    def finish(self) -> list[str]:
        """Do the rest of the work under way; returns the messages the work made to send,
        once (they are also in ``sent_after``)."""
        while not self.work():
            pass
        made, self._made = self._made, []
        return made

    def _idle(self) -> None:
        """Refuse to act while the match is stopped, or while work is under way."""
        self._running()
        if self._job is not None:
            raise NotAllowed("the work under way is not done")

    def _commit(self, table: Table, content: dict[str, Any], move: Move | None,
                incoming: Message | None = None) -> list[str]:
        """Keep ``table`` (its work done) and record what came and what goes out."""
        self._table = table
        if table.state is not None and table.visible_known():
            self._shown = table.state
        if incoming is not None:
            self._seq_in = incoming.seq
            self._record({"dir": "in", "msg": incoming.data})
        if not content:
            return []
        self._seq_out += 1
        data = {"fair": VERSION, "seq": self._seq_out, **content}
        entry: dict[str, Any] = {"dir": "out", "msg": data}
        if move is not None:
            entry["move"] = move_to_json(move)
        self._record(entry)
        text = dumps(data)
        self._out_texts.append(text)
        return [text]

    def _record(self, entry: dict[str, Any]) -> None:
        self._transcript.append(entry)
        self._entry_texts.append(json.dumps(entry))

    def _running(self) -> None:
        if self._error is not None:
            raise MatchStopped("stopped", f"The match was stopped: {self._error.message}",
                               self._error.to_json())

    def _raise_stop(self, exc: Exception, raw: object) -> NoReturn:
        """Stop the match on ``exc`` and raise the error kept (a bug becomes ``internal``)."""
        error = self._stop(exc, raw)
        if error is exc:
            raise error
        raise error from exc

    def _stop(self, exc: Exception, raw: object) -> FairError:
        """Stop the match on ``exc`` (a bug becomes an ``internal`` error); returns the error."""
        if isinstance(exc, FairError):
            error = exc
        else:  # a bug must stop the match, not corrupt it
            error = FairError("internal", f"Internal error ({type(exc).__name__}): the match "
                              "stopped", {"error": repr(exc)[:_EVIDENCE_CHARS]})
        if raw is not None:
            text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
            error.evidence.setdefault("message", text[:_EVIDENCE_CHARS])
        error.evidence.setdefault("after_seq", self._seq_in)
        self._error = error
        return error

    # ------------------------------------------------------------------ saving

    def save(self) -> dict[str, Any]:
        """Everything needed to resume exactly (JSON-ready): this seat's secret, its setup and
        the transcript of messages. Holds this seat's secret: keep it on this page."""
        return {**self._save_head(), "transcript": json.loads(json.dumps(self._transcript))}

    def save_text(self) -> str:
        """``save()`` as JSON text, joined from each entry's text made once as it came: cheap
        however long the transcript (a page writes it after every change)."""
        head = json.dumps(self._save_head())
        return head[:-1] + ', "transcript": [' + ", ".join(self._entry_texts) + "]}"

    def _save_head(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "seat": self.seat,
            "options": self._setup.options.to_json(), "names": list(self._setup.names),
            "first_player": self._setup.first_player, "secret": encode(self._secret),
            "started": self._started,
            "stopped": None if self._error is None else self._error.to_json(),
        }

    @classmethod
    def restore(cls, data: object, group: Group) -> FairPeer:
        """A peer from ``save`` output, replayed message by message (every check again);
        ``CorruptSave`` if anything is malformed or does not replay to the same messages."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise CorruptSave("not a saved fair match")
        if data.get("version") != SAVE_VERSION or set(data) != _SAVE_KEYS:
            raise CorruptSave("a saved fair match of another version, or with missing fields")
        try:
            names = data["names"]
            if not isinstance(names, list) or len(names) != 2:
                raise ValueError("names must be two strings")
            peer = cls(data["seat"], Options.from_json(data["options"]),
                       (names[0], names[1]), data["first_player"],
                       decode(data["secret"], SEED_BYTES), group)
            stopped = None if data["stopped"] is None else stopped_from_json(data["stopped"])
        except ValueError as exc:
            raise CorruptSave(f"a saved fair match is malformed: {exc}") from None
        if not isinstance(data["started"], bool) or not isinstance(data["transcript"], list):
            raise CorruptSave("a saved fair match is malformed")
        try:
            peer._replay(data["started"], data["transcript"])
        except (FairError, NotAllowed, ValueError, KeyError, TypeError) as exc:
            raise CorruptSave(f"a saved fair match does not replay: {exc}") from None
        peer._error = stopped
        return peer

    def _replay(self, started: bool, transcript: list[Any]) -> None:
        """Replay a saved transcript through ``start``, ``receive`` and ``act``: every message
        this seat sent must come out again. Its own shuffles (and their proofs) are taken from
        the save rather than recomputed, and the points, proofs and audits it checked when the
        messages first came are not checked again: a reload costs about a share per message."""
        sent: dict[tuple[int, int], Shuffle] = {}
        for entry in transcript:
            if isinstance(entry, dict) and entry.get("dir") == "out" \
                    and isinstance(entry.get("msg"), dict):
                shuffle = parse(dumps(entry["msg"]), self._group, False).shuffle
                if shuffle is not None:
                    sent[(shuffle.batch, shuffle.step)] = shuffle
        self._table.replaying = sent
        self._replay_entries(started, transcript)
        self._table.replaying = None

    def _replay_entries(self, started: bool, transcript: list[Any]) -> None:
        expected: deque[str] = deque(self.start() if started else ())
        for entry in transcript:
            if not isinstance(entry, dict) or entry.get("dir") not in ("in", "out") \
                    or not isinstance(entry.get("msg"), dict):
                raise ValueError("a transcript entry is malformed")
            if entry["dir"] == "in":
                if expected:
                    raise ValueError("the transcript misses a message this seat sent")
                expected.extend(self.receive(dumps(entry["msg"])))
                continue
            if not expected:
                if "move" not in entry:
                    raise ValueError("a message this seat sent has no move")
                expected.extend(self.act(move_from_json(entry["move"])))
            if json.loads(expected.popleft()) != entry["msg"]:
                raise ValueError("a message this seat sent does not replay")
        if expected:
            raise ValueError("the transcript misses a message this seat sent")
