"""The pages' own messages around a fair match: who joins, which match, what each has received.

Two pages send each other two kinds of text on their data channel: the fair match's messages
(``{"fair": 1, "seq": ...}``, `lostcities.fair.wire`: the FairPeer checks them) and these
control messages, each a JSON object with an ``"lc"`` kind::

    {"lc": "hello", "app": "0.2.0", "name": "Ben", "match": 1, "last": 7}    guest -> host
    {"lc": "welcome", "app": "0.2.0", "match": 1, "last": 9,                  host -> guest
     "setup": {"options": {...}, "names": ["Ana", "Ben"], "first": 0}}
    {"lc": "ping"}                                                             both ways
    {"lc": "refused", "code": "forbidden", "message": "..."}                   host -> guest
    {"lc": "bye"}                                                              host -> guest
    {"lc": "rematch", "match": 1, "series": {"key": "...", "results": [[a, b]]}}  both ways

``match`` numbers the matches of a room (0: this page has none yet); ``last`` is the number of
the last fair message this page accepted from the other, so that each resends only what the
other missed (`FairPeer.sent_after`). A ``rematch`` asks for (or accepts) the room's next
match after match ``match``, which ended, with the sender's series (webui/match/series.py
`rematch_payload`: at most `MAX_SERIES_RESULTS` results, and no more than the room's
matches). Browser-free; every field is checked (`parse`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from lostcities import Options
from lostcities.names import MAX_NAME_CHARS, clean_name
from lostcities.protocol import FORBIDDEN, NO_MATCH, VERSION_MISMATCH, ProtocolError, decode_json

from webui.match.series import Series, rematch_payload

MAX_CONTROL_BYTES: Final = 4096
"""The longest control message read as one (longer text is the fair peer's to judge)."""
MAX_DEPTH: Final = 6
MAX_MATCHES: Final = 1000
"""The highest match number of a room."""
MAX_SEQ: Final = 2**31
MAX_APP_CHARS: Final = 32
MAX_TEXT_CHARS: Final = 300
MAX_SERIES_RESULTS: Final = 200
"""The most results a rematch's series carries: the longest such message fits in
`MAX_CONTROL_BYTES` (each result at most 16 characters)."""
REFUSAL_CODES: Final = (FORBIDDEN, VERSION_MISMATCH, NO_MATCH)

_FIELDS: Final = {
    "hello": {"lc", "app", "name", "match", "last"},
    "welcome": {"lc", "app", "match", "last", "setup"},
    "ping": {"lc"},
    "refused": {"lc", "code", "message"},
    "bye": {"lc"},
    "rematch": {"lc", "match", "series"},
}


class ControlError(ValueError):
    """A control message that is malformed (its kind, a field missing, extra or mistyped).
    `kind` is its kind when that one is known (e.g. ``rematch``), else None."""

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class MatchSetup:
    """What both pages build their FairPeer from: the host's options and first player, and
    the two names (the host's, the guest's)."""

    options: Options
    names: tuple[str, str]
    first_player: int | None

    def to_json(self) -> dict[str, Any]:
        """The JSON form a welcome carries."""
        return {"options": self.options.to_json(), "names": list(self.names),
                "first": self.first_player}

    @classmethod
    def from_json(cls, data: object) -> MatchSetup:
        """A setup from its JSON form; ControlError saying what is wrong."""
        if not isinstance(data, dict) or set(data) != {"options", "names", "first"}:
            raise ControlError("setup must hold options, names and first")
        try:
            options = Options.from_json(data["options"])
        except ValueError as exc:
            raise ControlError(f"setup options: {exc}") from None
        names = data["names"]
        if not isinstance(names, list) or len(names) != 2:
            raise ControlError("setup names must be two names")
        first = data["first"]
        if first not in (None, 0, 1) or isinstance(first, bool):
            raise ControlError("setup first must be 0, 1 or null")
        return cls(options, (check_name(names[0]), check_name(names[1])), first)


@dataclass(frozen=True)
class Control:
    """A checked control message: its kind and fields."""

    kind: str
    app: str = ""
    name: str = ""
    match: int = 0
    last: int = 0
    setup: MatchSetup | None = None
    code: str = ""
    message: str = ""
    series: Series | None = None


def check_name(value: object) -> str:
    """A player's name as sent: clean (lostcities.names) and 1 to 40 characters."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME_CHARS \
            or clean_name(value) != value:
        raise ControlError("a name must be 1 to 40 characters of visible text")
    return value


def _int(data: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ControlError(f"{key} must be a whole number from {lo} to {hi}")
    return value


def _text(data: dict[str, Any], key: str, limit: int) -> str:
    value = data[key]
    if not isinstance(value, str) or len(value) > limit:
        raise ControlError(f"{key} must be text of at most {limit} characters")
    return value


def parse(raw: str | bytes) -> Control | None:
    """The control message `raw` holds; None if it is not one (no ``"lc"`` kind, not a small
    JSON object: the fair peer's to judge); ControlError if it is one but malformed."""
    try:
        data = decode_json(raw, MAX_CONTROL_BYTES, MAX_DEPTH)
    except ProtocolError:
        return None
    if not isinstance(data, dict) or "lc" not in data:
        return None
    kind = data["lc"]
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ControlError(f"unknown control message {str(kind)[:40]!r}")
    try:
        return _read(kind, data)
    except ControlError as exc:
        raise ControlError(str(exc), kind) from None


def _read(kind: str, data: dict[str, Any]) -> Control:
    """The control message of `kind` that `data` holds; ControlError if it is malformed."""
    if set(data) != _FIELDS[kind]:
        raise ControlError(f"a {kind} message holds exactly {', '.join(sorted(_FIELDS[kind]))}")
    if kind in ("ping", "bye"):
        return Control(kind)
    if kind == "refused":
        code = data["code"]
        if code not in REFUSAL_CODES:
            raise ControlError(f"unknown refusal code {str(code)[:40]!r}")
        return Control(kind, code=code, message=_text(data, "message", MAX_TEXT_CHARS))
    if kind == "rematch":
        match = _int(data, "match", 1, MAX_MATCHES)
        return Control(kind, match=match, series=_series(data["series"], match))
    app = _text(data, "app", MAX_APP_CHARS)
    last = _int(data, "last", 0, MAX_SEQ)
    if kind == "hello":
        return Control(kind, app=app, name=check_name(data["name"]),
                       match=_int(data, "match", 0, MAX_MATCHES), last=last)
    return Control(kind, app=app, match=_int(data, "match", 1, MAX_MATCHES), last=last,
                   setup=MatchSetup.from_json(data["setup"]))


def _series(data: object, match: int) -> Series:
    """A rematch's series, after match `match` of the room."""
    try:
        series = Series.from_json(data)
    except ValueError as exc:
        raise ControlError(f"series: {exc}") from None
    if len(series.results) > min(match, MAX_SERIES_RESULTS):
        raise ControlError(f"a series after match {match} holds at most"
                           f" {min(match, MAX_SERIES_RESULTS)} results")
    return series


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def hello(app: str, name: str, match: int, last: int) -> str:
    """A guest's hello: its app version, name, match number and last fair message received."""
    return _dump({"lc": "hello", "app": app, "name": name, "match": match, "last": last})


def welcome(app: str, match: int, last: int, setup: MatchSetup) -> str:
    """The host's welcome: the match, its setup, and the last fair message it received."""
    return _dump({"lc": "welcome", "app": app, "match": match, "last": last,
                  "setup": setup.to_json()})


def ping() -> str:
    """A heartbeat."""
    return _dump({"lc": "ping"})


def bye() -> str:
    """The host left the room for good."""
    return _dump({"lc": "bye"})


def rematch(match: int, series: Series) -> str:
    """A rematch asked for (or accepted) after match `match` with this page's `series`;
    ValueError if the series is too long to carry (`MAX_SERIES_RESULTS`)."""
    if len(series.results) > min(match, MAX_SERIES_RESULTS):
        raise ValueError(f"a series of {len(series.results)} matches is too long to carry"
                         " online: start a new room")
    return _dump({"lc": "rematch", "match": match, **rematch_payload(series)})


def refused(code: str, message: str) -> str:
    """The host refuses this connection (it is closed after)."""
    return _dump({"lc": "refused", "code": code, "message": message[:MAX_TEXT_CHARS]})
