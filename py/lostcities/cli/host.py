"""MatchHost: the authoritative match behind the wire protocol, for any transport.

The host holds the one true state. Transports hand it raw text with `receive(peer, raw)` and
deliver the messages it returns; nothing else reaches the state. Every message is validated
(protocol.py), and each seat is only ever sent its own view (`lostcities.view`), never the state.

Two kinds of peer:

* seats ``0`` and ``1`` (the online host: each connection is bound to one seat);
* `CONTROLLER`, one program driving both seats and naming ``"seat"`` in each message (the
  command-line protocol, ``python -m lostcities protocol``). Only a controller may ``start``.

docs/protocol.md describes the messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..engine import DEFAULT_NAMES, apply, legal_moves, new_match
from ..errors import CorruptSave, IllegalMove
from ..moves import move_from_json, move_to_json
from ..names import clean_name
from ..options import Options
from ..protocol import (
    APP_VERSION, BAD_MESSAGE, BAD_MOVE, FORBIDDEN, ILLEGAL_MOVE, INTERNAL, NO_HELLO, NO_MATCH,
    NOT_YOUR_TURN, PROTOCOL_VERSION, VERSION_MISMATCH, ProtocolError, Request, envelope,
    parse_request,
)
from ..serial import state_from_json, state_to_json
from ..state import State
from ..views import view

CONTROLLER: Final = -1
"""The peer id of a program that drives both seats (the command-line protocol)."""

SNAPSHOT_FORMAT: Final = "lostcities-host"
SNAPSHOT_VERSION: Final = 1

Outgoing = tuple[int, dict[str, Any]]
"""A message to deliver: (recipient peer, JSON-ready message)."""


@dataclass
class _Session:
    """What the host remembers about one peer's connection."""

    greeted: bool = False
    name: str | None = None
    last_in: int = 0
    """Highest seq accepted from the peer."""
    last_out: int = 0
    """Seq of the last message sent to the peer."""


class MatchHost:
    """The authoritative match: validates every incoming message and answers with views.

    ``MatchHost()`` serves seats 0 and 1 (the online host); ``MatchHost(controller=True)`` serves
    one `CONTROLLER` that plays both seats (the command-line protocol). `app_version` is the
    version a peer's ``hello`` must announce.
    """

    def __init__(self, *, app_version: str = APP_VERSION, controller: bool = False) -> None:
        self._app = app_version
        self._controller = controller
        peers = (CONTROLLER,) if controller else (0, 1)
        self._sessions: dict[int, _Session] = {p: _Session() for p in peers}
        self._state: State | None = None

    # ---- reading ------------------------------------------------------------------------

    @property
    def state(self) -> State | None:
        """The current state (None before a match starts). For the host's own use only:
        never send it to a peer."""
        return self._state

    @property
    def peers(self) -> tuple[int, ...]:
        """The peer ids this host serves: ``(0, 1)`` or ``(CONTROLLER,)``."""
        return tuple(self._sessions)

    def is_greeted(self, peer: int) -> bool:
        """Whether `peer` said a valid ``hello`` on its current connection."""
        return self._session(peer).greeted

    def name_of(self, peer: int) -> str | None:
        """The name `peer` gave in its last ``hello`` (None before one)."""
        return self._session(peer).name

    # ---- transport events ---------------------------------------------------------------

    def connect(self, peer: int) -> None:
        """A new connection for `peer` (first or after a drop): it starts again from ``hello``
        and seq 1, and the host numbers its messages to it from 1."""
        self._sessions[self._check_peer(peer)] = _Session()

    def disconnect(self, peer: int) -> None:
        """`peer`'s connection closed: nothing is sent to it until it says ``hello`` again."""
        self._session(peer).greeted = False

    # ---- starting ------------------------------------------------------------------------

    def start(
        self,
        options: Options,
        seed: int,
        first_player: int | None = 0,
        names: tuple[str, str] = DEFAULT_NAMES,
    ) -> list[Outgoing]:
        """Start a new match (replacing any current one); returns each greeted seat's view.

        Raises ValueError on bad arguments (see `lostcities.new_match`).
        """
        state = new_match(options, seed=seed, first_player=first_player, names=names)
        out = self._broadcast(state, exclude=None)
        self._state = state
        return out

    # ---- messages ------------------------------------------------------------------------

    def receive(self, peer: int, raw: str | bytes) -> list[Outgoing]:
        """Handle one message from `peer`; return the messages to deliver, in order.

        Never raises on bad input: anything refused yields one ``error`` message to `peer`
        and changes nothing. (An unknown `peer` id is a programming error: ValueError.)
        """
        session = self._session(peer)
        ref_seq: int | None = None
        try:
            request = parse_request(raw, session.last_in)
            ref_seq = request.seq
            out = self._dispatch(peer, session, request)
        except ProtocolError as exc:
            return [self._error(peer, exc.code, exc.message, exc.ref_seq, exc.refusal)]
        except Exception as exc:  # a bug must never take the transport down (nor leak state)
            message = f"internal error ({type(exc).__name__}); the match is unchanged"
            return [self._error(peer, INTERNAL, message, ref_seq)]
        session.last_in = request.seq
        return out

    def _dispatch(self, peer: int, session: _Session, request: Request) -> list[Outgoing]:
        fields, seq = request.fields, request.seq
        if request.type == "hello":
            return self._hello(peer, session, request)
        if not session.greeted:
            raise ProtocolError(NO_HELLO, 'say "hello" first', seq)
        if request.type == "ping":
            extra = {"t": fields["t"]} if "t" in fields else {}
            return [(peer, self._message(peer, "pong", seq, **extra))]
        if request.type == "start":
            return self._start_request(peer, request)
        seat = self._seat_of(peer, request)
        state = self._state
        if state is None:
            raise ProtocolError(NO_MATCH, "no match has started yet", seq)
        if request.type == "get-view":
            return [(peer, self._view_message(peer, state, seat, seq))]
        if request.type == "get-legal-moves":
            acting = state.to_act == seat or state.to_act is None
            moves = [move_to_json(m) for m in legal_moves(state)] if acting else []
            return [(peer, self._message(peer, "legal-moves", seq, seat=seat, moves=moves))]
        return self._move(peer, seat, state, request)

    def _hello(self, peer: int, session: _Session, request: Request) -> list[Outgoing]:
        fields, seq = request.fields, request.seq
        app = fields.get("app")
        if app is None and peer != CONTROLLER:
            raise ProtocolError(BAD_MESSAGE, 'hello needs the field "app" (the app version)', seq)
        if app is not None and app != self._app:
            raise ProtocolError(
                VERSION_MISMATCH,
                f"this page runs version {app} but the host runs {self._app}:"
                " reload the page to update",
                seq,
            )
        if "seat" in fields:
            if peer == CONTROLLER:
                raise ProtocolError(
                    FORBIDDEN, 'the controller plays both seats: name the "seat" in each'
                    " move, get-view and get-legal-moves instead", seq)
            if fields["seat"] != peer:
                raise ProtocolError(FORBIDDEN, f"this connection plays seat {peer}", seq)
        welcome = self._message(
            peer, "welcome", seq, protocol=PROTOCOL_VERSION, app=self._app,
            seat=None if peer == CONTROLLER else peer, match=self._state is not None,
        )
        out: list[Outgoing] = [(peer, welcome)]
        if peer != CONTROLLER and self._state is not None:  # resync a (re)joining seat
            out.append((peer, self._view_message(peer, self._state, peer, None)))
        session.greeted = True
        session.name = clean_name(fields["name"])  # protocol._name: never empty once cleaned
        return out

    def _start_request(self, peer: int, request: Request) -> list[Outgoing]:
        fields, seq = request.fields, request.seq
        if peer != CONTROLLER:
            raise ProtocolError(FORBIDDEN, "only the host starts a match", seq)
        try:
            options = Options.from_json(fields["options"])
            names = fields.get("names", DEFAULT_NAMES)
            state = new_match(
                options, seed=fields["seed"], first_player=fields.get("first_player", 0),
                names=(clean_name(names[0]), clean_name(names[1])),
            )
        except ValueError as exc:
            raise ProtocolError(BAD_MESSAGE, f"cannot start: {exc}", seq) from None
        seat = 0 if state.to_act is None else state.to_act
        reply = (peer, self._view_message(peer, state, seat, seq))
        self._state = state
        return [reply]

    def _move(self, peer: int, seat: int, state: State, request: Request) -> list[Outgoing]:
        seq = request.seq
        try:
            move = move_from_json(request.fields["move"])
        except ValueError as exc:
            raise ProtocolError(BAD_MOVE, str(exc), seq) from None
        if state.to_act is not None and state.to_act != seat:
            raise ProtocolError(
                NOT_YOUR_TURN, f"it is {state.names[state.to_act]}'s turn, not yours", seq)
        try:
            new_state = apply(state, move)
        except IllegalMove as exc:
            raise ProtocolError(ILLEGAL_MOVE, str(exc), seq, exc.refusal.to_json()) from None
        except ValueError as exc:
            raise ProtocolError(BAD_MOVE, str(exc), seq) from None
        out = [(peer, self._view_message(peer, new_state, seat, seq))]
        out += self._broadcast(new_state, exclude=peer)
        self._state = new_state
        return out

    # ---- building messages ---------------------------------------------------------------

    def _seat_of(self, peer: int, request: Request) -> int:
        seat = request.fields.get("seat")
        if peer == CONTROLLER:
            if seat is None:
                raise ProtocolError(
                    BAD_MESSAGE, f'{request.type} from the controller needs the field "seat"',
                    request.seq)
            return int(seat)
        if seat is not None and seat != peer:
            raise ProtocolError(FORBIDDEN, f"this connection plays seat {peer}", request.seq)
        return peer

    def _message(self, peer: int, kind: str, ref_seq: int | None, **fields: Any) -> dict[str, Any]:
        session = self._sessions[peer]
        session.last_out += 1
        return envelope(session.last_out, kind, ref_seq, **fields)

    def _error(self, peer: int, code: str, message: str, ref_seq: int | None,
               refusal: dict[str, Any] | None = None) -> Outgoing:
        error = self._message(peer, "error", None)
        error.update(ref_seq=ref_seq, code=code, message=message)
        if refusal is not None:
            error["refusal"] = refusal
        return (peer, error)

    def _view_message(
        self, peer: int, state: State, seat: int, ref_seq: int | None
    ) -> dict[str, Any]:
        """`seat`'s view, as ``view`` or, once the match is over, ``match-end``."""
        seen = view(state, seat)
        if state.phase == "match-end":
            return self._message(
                peer, "match-end", ref_seq, view=seen, winner=seen["winner"],
                totals=seen["totals"],
            )
        return self._message(peer, "view", ref_seq, view=seen)

    def _broadcast(self, state: State, exclude: int | None) -> list[Outgoing]:
        """`state` as seen by every greeted seat peer except `exclude`."""
        return [
            (p, self._view_message(p, state, p, None))
            for p, s in self._sessions.items()
            if p != CONTROLLER and p != exclude and s.greeted
        ]

    # ---- peers ---------------------------------------------------------------------------

    def _check_peer(self, peer: int) -> int:
        if isinstance(peer, bool) or peer not in self._sessions:
            raise ValueError(f"unknown peer {peer!r}: this host serves {self.peers}")
        return peer

    def _session(self, peer: int) -> _Session:
        return self._sessions[self._check_peer(peer)]

    # ---- saving --------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to resume exactly: the state and each peer's session (JSON-ready).

        Holds hidden cards: keep it on the host, never send it.
        """
        return {
            "format": SNAPSHOT_FORMAT,
            "version": SNAPSHOT_VERSION,
            "controller": self._controller,
            "state": None if self._state is None else state_to_json(self._state),
            "peers": {
                str(p): {"greeted": s.greeted, "name": s.name, "last_in": s.last_in,
                         "last_out": s.last_out}
                for p, s in self._sessions.items()
            },
        }

    @classmethod
    def restore(cls, data: object, *, app_version: str = APP_VERSION) -> MatchHost:
        """A host from `snapshot` output; CorruptSave on anything corrupt or foreign."""
        if not isinstance(data, dict):
            raise CorruptSave("a host snapshot must be an object")
        if data.get("format") != SNAPSHOT_FORMAT:
            raise CorruptSave("not a Lost Cities host snapshot")
        if data.get("version") != SNAPSHOT_VERSION:
            raise CorruptSave(f"unsupported host snapshot version {data.get('version')!r}")
        if set(data) != {"format", "version", "controller", "state", "peers"}:
            raise CorruptSave("host snapshot has missing or unexpected fields")
        controller = data["controller"]
        if not isinstance(controller, bool):
            raise CorruptSave("host snapshot: controller must be true or false")
        host = cls(app_version=app_version, controller=controller)
        peers = data["peers"]
        if not isinstance(peers, dict) or set(peers) != {str(p) for p in host.peers}:
            raise CorruptSave("host snapshot: peers do not match the host kind")
        for peer in host.peers:
            host._sessions[peer] = _session_from_json(peers[str(peer)])
        if data["state"] is not None:
            host._state = state_from_json(data["state"])
        return host


def _session_from_json(data: object) -> _Session:
    if not isinstance(data, dict) or set(data) != {"greeted", "name", "last_in", "last_out"}:
        raise CorruptSave("host snapshot: a peer record is malformed")
    greeted, name = data["greeted"], data["name"]
    counters = (data["last_in"], data["last_out"])
    if not isinstance(greeted, bool) or not (name is None or isinstance(name, str)):
        raise CorruptSave("host snapshot: a peer record is malformed")
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counters):
        raise CorruptSave("host snapshot: seq counters must be whole numbers >= 0")
    if name is not None:
        name = clean_name(name) or None  # saved before names were cleaned: as if none given
    return _Session(greeted=greeted, name=name, last_in=counters[0], last_out=counters[1])
