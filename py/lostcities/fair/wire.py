"""The messages between two fair peers: JSON, checked field by field on arrival.

A message is one JSON object::

    {"fair": 1, "seq": 7,                      # protocol version; 1, 2, 3... per sender
     "shuffle": {"batch": 2, "step": 1, "decks": {"cards": "<n points>", ...},
                 "proofs": {"cards": "<the shuffle's proof>", ...},
                 "setup": "<hex>"},                          # batch 1 only
     "move": {"type": "play", "card": "R7"},   # a move (seat 0's job pick carries no job)
     "pos": 31,                                # the position a move takes a card or job from
     "commit": "<16 bytes>",                   # seat 0's commitment to its job pick
     "pick": [1, "<key>"],                     # seat 0 opening that pick
     "shares": {"cards": [[31, "<share>"], ...]},  # shares it owes, by deck, position
     "reveal": {"2": "<seed>"}}                # scope seeds, at a round's end

Bytes are unpadded base64url (a vector of points is one text); every point is checked to be
in the group, every scalar to be canonical, every proof to have its exact size. Anything else
refuses the whole message with ``ProtocolViolation("bad-message")``. Which parts a message
must carry is the peer's business (``lostcities.fair.table``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..moves import Move, move_from_json
from .codec import decode, decode_vector, encode, split
from .derive import COMMIT_BYTES, SEED_BYTES
from .errors import ProtocolViolation
from .group import POINT_BYTES, SCALAR_BYTES, Group, is_canonical, is_scalar
from .items import DECK_NAMES, MAX_DECK
from .proofs import SHARE_BYTES, ShuffleProof, shuffle_proof_bytes

VERSION = 3
MAX_MESSAGE_CHARS = 65_536
MAX_BATCH = 5
_FIELDS = frozenset({"fair", "seq", "shuffle", "move", "pos", "commit", "pick", "shares",
                     "reveal"})
_CONTENT = _FIELDS - {"fair", "seq", "pos", "commit"}
_HEX = re.compile(r"[0-9a-f]{32}")


@dataclass(frozen=True)
class Shuffle:
    """One shuffle step of one batch of decks."""

    batch: int
    step: int
    decks: dict[str, tuple[bytes, ...]]
    proofs: dict[str, ShuffleProof]
    setup: str | None = None


@dataclass(frozen=True)
class Message:
    """A checked message (``data`` is the JSON it was read from)."""

    seq: int
    data: dict[str, Any]
    shuffle: Shuffle | None = None
    move: Move | None = None
    hidden_pick: bool = False
    pos: int | None = None
    commit: bytes | None = None
    pick: tuple[int, bytes] | None = None
    shares: dict[str, dict[int, bytes]] = field(default_factory=dict)
    reveal: dict[int, bytes] = field(default_factory=dict)


def _bad(message: str, **evidence: Any) -> ProtocolViolation:
    return ProtocolViolation("bad-message", f"A malformed message: {message}", evidence)


def _int(value: object, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(f"{what} must be a whole number from {lo} to {hi}")
    return value


def _dict(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(f"{what} must be an object")
    return value


def _bytes(value: object, size: int, what: str) -> bytes:
    try:
        return decode(value, size)
    except ValueError as exc:
        raise _bad(f"{what}: {exc}") from None


def _key(value: object, what: str) -> bytes:
    key = _bytes(value, SCALAR_BYTES, what)
    if not is_scalar(key):
        raise _bad(f"{what} is not a canonical non-zero scalar")
    return key


def _deck_name(name: object) -> str:
    if not isinstance(name, str) or name not in DECK_NAMES:
        raise _bad(f"unknown deck {name!r}")
    return name


def _vector(value: object, size: int, what: str) -> tuple[bytes, ...]:
    if not isinstance(value, str) or not value:
        raise _bad(f"{what} must be base64url text")
    count = len(value) * 3 // 4 // size
    if not 1 <= count <= MAX_DECK:
        raise _bad(f"{what} holds no whole number of values from 1 to {MAX_DECK}")
    try:
        return decode_vector(value, count, size)
    except ValueError as exc:
        raise _bad(f"{what}: {exc}") from None


def _points_ok(group: Group, points: tuple[bytes, ...], what: str, check: bool) -> None:
    bad = [i for i, ok in enumerate(group.are_points(points) if check else []) if not ok]
    if bad:
        raise _bad(f"{what} holds values that are not group points", positions=bad)


def _shuffle(data: object, group: Group, check_points: bool) -> Shuffle:
    body = _dict(data, "shuffle")
    allowed = {"batch", "step", "decks", "proofs", "setup"}
    if not {"batch", "step", "decks", "proofs"} <= set(body) <= allowed:
        raise _bad("shuffle needs batch, step, decks and proofs (and may have setup)")
    batch = _int(body["batch"], "shuffle batch", 1, MAX_BATCH)
    step = _int(body["step"], "shuffle step", 1, 2)
    decks: dict[str, tuple[bytes, ...]] = {}
    for name, text in _dict(body["decks"], "shuffle decks").items():
        points = _vector(text, POINT_BYTES, f"deck {_deck_name(name)}")
        _points_ok(group, points, f"deck {name}", check_points)
        decks[name] = points
    if not decks:
        raise _bad("a shuffle needs at least one deck")
    texts = _dict(body["proofs"], "shuffle proofs")
    if set(texts) != set(decks):
        raise _bad("a shuffle needs one proof per deck, no more")
    proofs: dict[str, ShuffleProof] = {}
    for name, text in texts.items():
        n = len(decks[name])
        try:
            proofs[name] = ShuffleProof.from_bytes(decode(text, shuffle_proof_bytes(n)), n)
        except ValueError as exc:
            raise _bad(f"the proof of deck {name}: {exc}") from None
        _points_ok(group, proofs[name].points(), f"the proof of deck {name}", check_points)
    setup = body.get("setup")
    if setup is not None and (not isinstance(setup, str) or _HEX.fullmatch(setup) is None):
        raise _bad("setup must be 32 hex digits")
    return Shuffle(batch, step, decks, proofs, setup)


def _share(value: object, what: str, group: Group, check_points: bool) -> bytes:
    data = _bytes(value, SHARE_BYTES, what)
    point, c, z = split(data, SCALAR_BYTES)
    if not (is_canonical(c) and is_canonical(z)):
        raise _bad(f"{what} holds a scalar that is not canonical")
    if check_points and not group.is_point(point):
        raise _bad(f"{what} is not a group point")
    return data


def _shares(data: object, group: Group, check_points: bool) -> dict[str, dict[int, bytes]]:
    out: dict[str, dict[int, bytes]] = {}
    for name, pairs in _dict(data, "shares").items():
        name = _deck_name(name)
        if not isinstance(pairs, list) or not pairs:
            raise _bad(f"shares of {name} must be a non-empty list")
        found: dict[int, bytes] = {}
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise _bad(f"a share of {name} must be [position, share]")
            pos = _int(pair[0], f"a {name} position", 0, MAX_DECK - 1)
            if pos in found:
                raise _bad(f"two shares for {name} position {pos}")
            found[pos] = _share(pair[1], f"the {name} share of position {pos}", group,
                                check_points)
        out[name] = found
    return out


def _reveal(data: object) -> dict[int, bytes]:
    out: dict[int, bytes] = {}
    for scope, text in _dict(data, "reveal").items():
        if not isinstance(scope, str) or not scope.isdigit() or len(scope) != 1 \
                or int(scope) > MAX_BATCH:
            raise _bad(f"reveal scope {scope!r} must be a digit from 0 to {MAX_BATCH}")
        out[int(scope)] = _bytes(text, SEED_BYTES, f"the seed of scope {scope}")
    if not out:
        raise _bad("reveal must name at least one scope")
    return out


def parse(raw: object, group: Group, check_points: bool = True) -> Message:
    """A checked message from its JSON text; ``ProtocolViolation("bad-message")`` otherwise.
    (``check_points=False`` skips the group check of points, for a transcript already
    checked when it arrived.)"""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _bad("not UTF-8 text") from None
    if not isinstance(raw, str):
        raise _bad(f"a message is JSON text, not {type(raw).__name__}")
    if len(raw) > MAX_MESSAGE_CHARS:
        raise _bad(f"longer than {MAX_MESSAGE_CHARS} characters", length=len(raw))
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise _bad("not JSON") from None
    data = _dict(data, "a message")
    extra = set(data) - _FIELDS
    if extra:
        raise _bad(f"unknown field(s) {', '.join(sorted(map(str, extra)))}")
    if data.get("fair") != VERSION or isinstance(data.get("fair"), bool):
        raise _bad(f"not a fair-play message of version {VERSION}")
    if "seq" not in data:
        raise _bad("seq is missing")
    seq = _int(data["seq"], "seq", 1, 2**31)
    if not _CONTENT & set(data):
        raise _bad("a message must carry a shuffle, a move, a pick, shares or a reveal")
    move: Move | None = None
    hidden_pick = False
    if "move" in data:
        if data["move"] == {"type": "pick-job"}:
            hidden_pick = True
        else:
            try:
                move = move_from_json(data["move"])
            except ValueError as exc:
                raise _bad(f"move: {exc}") from None
    pick = None
    if "pick" in data:
        value = data["pick"]
        if not isinstance(value, list) or len(value) != 2:
            raise _bad("pick must be [position, key]")
        pick = (_int(value[0], "pick position", 0, MAX_DECK - 1), _key(value[1], "pick key"))
    return Message(
        seq=seq, data=data,
        shuffle=_shuffle(data["shuffle"], group, check_points) if "shuffle" in data else None,
        move=move, hidden_pick=hidden_pick,
        pos=_int(data["pos"], "pos", 0, MAX_DECK - 1) if "pos" in data else None,
        commit=_bytes(data["commit"], COMMIT_BYTES, "commit") if "commit" in data else None,
        pick=pick,
        shares=_shares(data["shares"], group, check_points) if "shares" in data else {},
        reveal=_reveal(data["reveal"]) if "reveal" in data else {},
    )


def dumps(data: dict[str, Any]) -> str:
    """A message's canonical JSON text (sorted keys, no spaces)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def share_list(shares: dict[int, bytes]) -> list[list[Any]]:
    """Shares as the wire lists them: ``[[position, share], ...]`` by position."""
    return [[pos, encode(k)] for pos, k in sorted(shares.items())]
