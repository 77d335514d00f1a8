"""The wire protocol: message envelope, vocabulary and validation of incoming text.

Pure Python, no I/O. `MatchHost` (host.py) uses it for both the command-line protocol and the
online host; docs/protocol.md is the reference for the messages.

Every message is one JSON object with a protocol version ``"v"``, a sequence number ``"seq"``
(per sender, strictly increasing from 1) and a ``"type"``. `parse_request` checks a client's raw
text in a fixed order (size before parsing, then JSON, envelope, type, fields) and raises
`ProtocolError` with a stable error code on the first problem.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .errors import REFUSAL_CODES
from .names import MAX_NAME_CHARS as MAX_NAME_CHARS  # re-exported: the wire's bound
from .names import clean_name, is_hidden

PROTOCOL_VERSION: Final = 1
"""The ``"v"`` of every message. A peer speaking another version is told to reload."""

APP_VERSION: Final = "0.2.0"
"""The app's version (as in pyproject.toml). A ``hello`` announcing another is refused with
``version-mismatch``: both sides must run the same release."""

MAX_MESSAGE_BYTES: Final = 4096
"""Largest accepted client message, in UTF-8 bytes, checked before any parsing."""

MAX_DEPTH: Final = 8
"""Deepest accepted nesting of JSON arrays and objects in a client message."""

MAX_HOST_MESSAGE_BYTES: Final = 256 * 1024
"""Largest host message a client accepts (a view with a long log is some 20 KB)."""

MAX_HOST_DEPTH: Final = 16
"""Deepest nesting a client accepts in a host message (a view nests about 6 levels)."""

MAX_SEED: Final = 2**63 - 1
"""Seeds are integers between ``-MAX_SEED`` and ``MAX_SEED``."""

# Error codes (the ``"code"`` of an ``error`` message). Stable: clients may switch on them.
TOO_LARGE: Final = "too-large"
BAD_JSON: Final = "bad-json"
NOT_OBJECT: Final = "not-object"
VERSION_MISMATCH: Final = "version-mismatch"
BAD_MESSAGE: Final = "bad-message"
REPLAYED: Final = "replayed"
UNKNOWN_TYPE: Final = "unknown-type"
NO_HELLO: Final = "no-hello"
FORBIDDEN: Final = "forbidden"
NO_MATCH: Final = "no-match"
BAD_MOVE: Final = "bad-move"
NOT_YOUR_TURN: Final = "not-your-turn"
ILLEGAL_MOVE: Final = "illegal-move"
INTERNAL: Final = "internal"

ERROR_CODES: Final = (
    TOO_LARGE, BAD_JSON, NOT_OBJECT, VERSION_MISMATCH, BAD_MESSAGE, REPLAYED, UNKNOWN_TYPE,
    NO_HELLO, FORBIDDEN, NO_MATCH, BAD_MOVE, NOT_YOUR_TURN, ILLEGAL_MOVE, INTERNAL,
)



class ProtocolError(ValueError):
    """A message was refused: `code` is one of the error codes, `message` says why in words.

    `ref_seq` is the refused message's ``seq`` when it could be read, else None.
    """

    def __init__(self, code: str, message: str, ref_seq: int | None = None,
                 refusal: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref_seq = ref_seq
        self.refusal = refusal
        """For ``illegal-move``: the engine's reason (``{"code", "data"}``, errors.py)."""


@dataclass(frozen=True)
class Request:
    """A message that passed every check of `parse_request` (or `parse_host_message`)."""

    seq: int
    type: str
    fields: Mapping[str, Any]
    """The message's fields other than ``v``, ``seq`` and ``type`` (all type-checked)."""


# ---- field checks: each returns None when the value is fine, else what is wrong -------------

Check = Callable[[Any], "str | None"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _name(value: Any) -> str | None:
    """A name (names.py) or the app version: text that shows, within MAX_NAME_CHARS."""
    if not isinstance(value, str):
        return "must be a string"
    if len(value) > MAX_NAME_CHARS:
        return f"must be at most {MAX_NAME_CHARS} characters"
    if any(is_hidden(ch) for ch in value):
        return "must not contain control, format or invisible characters"
    if not clean_name(value):
        return "must not be empty"
    return None


def _seat(value: Any) -> str | None:
    return None if _is_int(value) and value in (0, 1) else "must be 0 or 1"


def _seat_or_null(value: Any) -> str | None:
    return None if value is None else _seat(value)


def _seed(value: Any) -> str | None:
    if _is_int(value) and -MAX_SEED <= value <= MAX_SEED:
        return None
    return f"must be an integer between {-MAX_SEED} and {MAX_SEED}"


def _object(value: Any) -> str | None:
    return None if isinstance(value, dict) else "must be an object"


def _names(value: Any) -> str | None:
    if not isinstance(value, list) or len(value) != 2:
        return "must be a list of two names"
    for name in value:
        problem = _name(name)
        if problem is not None:
            return f"each name {problem}"
    return None


def _number(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "must be a number"
    if isinstance(value, float) and not math.isfinite(value):
        return "must be finite"
    return None


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else "must be a string"


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _positive(value: Any) -> str | None:
    return None if _is_int(value) and value >= 1 else "must be a positive integer"


def _positive_or_null(value: Any) -> str | None:
    return None if value is None else _positive(value)


def _winner(value: Any) -> str | None:
    return None if value == "draw" or _seat(value) is None else 'must be 0, 1 or "draw"'


def _totals(value: Any) -> str | None:
    if isinstance(value, list) and len(value) == 2 and all(_is_int(x) for x in value):
        return None
    return "must be a list of two integers"


def _refusal(value: Any) -> str | None:
    if not isinstance(value, dict) or set(value) != {"code", "data"}:
        return "must be an object with code and data"
    keys = REFUSAL_CODES.get(value["code"]) if isinstance(value["code"], str) else None
    data = value["data"]
    if keys is None or not isinstance(data, dict) or set(data) != set(keys):
        return "must be a refusal the engine gives"
    if any(isinstance(x, bool) or not isinstance(x, (str, int)) for x in data.values()):
        return "must hold strings and numbers"
    return None


def _objects(value: Any) -> str | None:
    if isinstance(value, list) and all(isinstance(x, dict) for x in value):
        return None
    return "must be a list of objects"


# type -> field -> (check, required)
CLIENT_TYPES: Final[Mapping[str, Mapping[str, tuple[Check, bool]]]] = {
    "hello": {"name": (_name, True), "app": (_name, False), "seat": (_seat, False)},
    "start": {
        "options": (_object, True),
        "seed": (_seed, True),
        "names": (_names, False),
        "first_player": (_seat_or_null, False),
    },
    "move": {"move": (_object, True), "seat": (_seat, False)},
    "get-view": {"seat": (_seat, False)},
    "get-legal-moves": {"seat": (_seat, False)},
    "ping": {"t": (_number, False)},
}
"""Client message types and their fields: field -> (check, required)."""

_REPLY: Final = {"ref_seq": (_positive, False)}
HOST_TYPES: Final[Mapping[str, Mapping[str, tuple[Check, bool]]]] = {
    "welcome": {**_REPLY, "protocol": (_positive, True), "app": (_name, True),
                "seat": (_seat_or_null, True), "match": (_flag, True)},
    "view": {**_REPLY, "view": (_object, True)},
    "match-end": {**_REPLY, "view": (_object, True), "winner": (_winner, True),
                  "totals": (_totals, True)},
    "legal-moves": {**_REPLY, "seat": (_seat, True), "moves": (_objects, True)},
    "pong": {**_REPLY, "t": (_number, False)},
    "error": {"ref_seq": (_positive_or_null, True), "code": (_text, True),
              "message": (_text, True), "refusal": (_refusal, False)},
}
"""Host message types and their fields, for clients checking what a host sends."""


# ---- parsing ---------------------------------------------------------------------------------


_SQUARE: Final = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS: Final = bytes(b for b in range(256) if b not in b"[]{}")


def _too_deep(data: bytes, max_depth: int) -> bool:
    """Whether JSON arrays/objects in the UTF-8 text `data` nest deeper than `max_depth`
    (brackets inside strings do not count; unbalanced brackets count on the safe side).

    Checked before json.loads so that no input can make the parser recurse deeply (which in
    Pyodide could exhaust the WebAssembly stack). Linear in the size, in a few passes of bytes
    methods (no regex, no Python loop over the text): escaped backslashes and quotes are
    dropped, then every string (up to the next quote, or the end of an unterminated one),
    then all but the brackets; each of at most `max_depth` + 1 passes strips the innermost
    pairs. Where json.loads would read text differently (a backslash outside a string, a
    stray quote), it fails there, before reaching anything this check misreads.
    """
    if data.count(b"[") + data.count(b"{") <= max_depth:
        return False
    if b"\\" in data:  # a run of n backslashes escapes what follows it when n is odd
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    if b'"' in data:  # the pieces between quotes alternate: outside, inside, outside...
        data = b"".join(data.split(b'"')[::2])
    brackets = data.translate(_SQUARE, _NOT_BRACKETS)
    if b"[" * (max_depth + 1) in brackets:
        return True
    for level in range(max_depth + 1):
        reduced = brackets.replace(b"[]", b"")
        if reduced == brackets:  # nothing left to strip: what remains is unbalanced
            return level + reduced.count(b"[") > max_depth
        brackets = reduced
    return True


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def decode_json(
    raw: str | bytes, max_bytes: int = MAX_MESSAGE_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """Size-check and parse one message's raw text; raise ProtocolError if it is not JSON.

    Refuses text over `max_bytes` of UTF-8 (before parsing), invalid UTF-8, nesting deeper
    than `max_depth`, NaN/Infinity and duplicate keys.
    """
    too_large = ProtocolError(TOO_LARGE, f"message larger than {max_bytes} bytes")
    if len(raw) > max_bytes:
        raise too_large
    if isinstance(raw, bytes):
        data = raw
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(BAD_JSON, "message is not UTF-8 text") from None
    else:
        text, data = raw, raw.encode("utf-8", "surrogatepass")
        if len(data) > max_bytes:
            raise too_large
    if _too_deep(data, max_depth):
        raise ProtocolError(BAD_JSON, f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(
            text, object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant
        )
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(BAD_JSON, f"not valid JSON: {exc}") from None


def _parse(
    data: Any, last_seq: int, types: Mapping[str, Mapping[str, tuple[Check, bool]]]
) -> Request:
    """Check a decoded message against the envelope rules and `types`."""
    if not isinstance(data, dict):
        raise ProtocolError(NOT_OBJECT, "a message must be a JSON object")
    version = data.get("v")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ProtocolError(BAD_MESSAGE, 'field "v" (protocol version) must be an integer')
    if version != PROTOCOL_VERSION:
        raise ProtocolError(
            VERSION_MISMATCH,
            f"protocol version {version} is not this app's ({PROTOCOL_VERSION}):"
            " reload the page to update",
        )
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise ProtocolError(BAD_MESSAGE, 'field "seq" must be a positive integer')
    if seq <= last_seq:
        raise ProtocolError(
            REPLAYED, f"seq {seq} was already used (the last accepted seq is {last_seq})", seq
        )
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(BAD_MESSAGE, 'field "type" must be a string', seq)
    spec = types.get(kind)
    if spec is None:
        known = ", ".join(types)
        raise ProtocolError(
            UNKNOWN_TYPE, f"unknown message type {kind[:40]!r} (known: {known})", seq)
    fields = {k: v for k, v in data.items() if k not in ("v", "seq", "type")}
    for key in fields:
        if key not in spec:
            raise ProtocolError(BAD_MESSAGE, f"unexpected field {key[:40]!r} in {kind}", seq)
    for key, (check, required) in spec.items():
        if key not in fields:
            if required:
                raise ProtocolError(BAD_MESSAGE, f'{kind} needs the field "{key}"', seq)
            continue
        problem = check(fields[key])
        if problem is not None:
            raise ProtocolError(BAD_MESSAGE, f'field "{key}" {problem}', seq)
    return Request(seq=seq, type=kind, fields=fields)


def parse_request(raw: str | bytes, last_seq: int) -> Request:
    """Validate one client message and return it; raise ProtocolError on the first problem.

    `last_seq` is the highest ``seq`` already accepted from this sender (0 for none): the new
    message's ``seq`` must be higher. Checks, in order: size, JSON, object, ``v``, ``seq``,
    ``type``, then each field (unknown fields refused, required ones present, right types).
    """
    return _parse(decode_json(raw), last_seq, CLIENT_TYPES)


def parse_host_message(raw: str | bytes, last_seq: int) -> Request:
    """For a client: validate one message from the host, as `parse_request` does for the host.

    Limits are MAX_HOST_MESSAGE_BYTES and MAX_HOST_DEPTH; `last_seq` is the highest ``seq``
    accepted from the host on this connection (0 after (re)connecting). The view inside is
    only checked to be an object: render it defensively.
    """
    return _parse(decode_json(raw, MAX_HOST_MESSAGE_BYTES, MAX_HOST_DEPTH), last_seq, HOST_TYPES)


def envelope(seq: int, kind: str, ref_seq: int | None = None, **fields: Any) -> dict[str, Any]:
    """A host message: ``v``, ``seq``, ``type``, then ``ref_seq`` (for replies) and `fields`."""
    message: dict[str, Any] = {"v": PROTOCOL_VERSION, "seq": seq, "type": kind}
    if ref_seq is not None:
        message["ref_seq"] = ref_seq
    message.update(fields)
    return message


def encode(message: Mapping[str, Any]) -> str:
    """One message as compact JSON text (ASCII only, no newline), as it goes on the wire."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False)
