"""The save document of an online seat (format ``lostcities-fair-room``): writing it and
checking it.

A page writes its seat (webui/online/seat.py `FairSeat`) to storage after every change and
before anything of the match is sent. The document holds the room (code, this player's name,
the role's own fields: the host's token, options and first player, the guest's token), the
number and setup of the match the page holds, the series a rematch carried into it
(``series``) and this player's pending rematch request (``asked``; webui/online/rematch.py),
and ``peer``: the match's `FairPeer.save()`, with the page's secret (keep it on this page).

`head` and `room_text` write it; `check_doc`, `read_common` and the helpers `checked` and
`saved_str` check one read back (host.py's and guest.py's `from_json`), CorruptSave saying
what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final, NamedTuple, TypeVar

from lostcities.errors import CorruptSave
from lostcities.fair import FairPeer

from webui.match.series import Series, series_key
from webui.online import control
from webui.online.control import ControlError, MatchSetup

SAVE_FORMAT: Final = "lostcities-fair-room"
SAVE_VERSION: Final = 1


def head(*, role: str, code: str, name: str, match_no: int, setup: MatchSetup | None,
         carried: Series | None, asked: Series | None, extra: dict[str, Any]) -> dict[str, Any]:
    """The document but its match (``peer``): the room, the match's number and setup, the
    series carried and asked, and the role's own fields (`extra`)."""
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "role": role,
            "code": code, "name": name, "match": match_no,
            "setup": None if setup is None else setup.to_json(),
            "series": None if carried is None else carried.to_json(),
            "asked": None if asked is None else asked.to_json(),
            **extra}


def room_text(head: dict[str, Any], peer: FairPeer | None, saved_peer: Any) -> str:
    """The document as JSON text: `head` and the match, `peer`'s part joined from texts made
    once (`FairPeer.save_text`), or a resumed save's match not replayed yet (`saved_peer`)."""
    if peer is None:
        return json.dumps({**head, "peer": saved_peer})
    text = json.dumps(head)
    return text[:-1] + ', "peer": ' + peer.save_text() + "}"


def check_doc(doc: object, role: str) -> dict[str, Any]:
    """`doc` if it is a saved room of a `role` (``host``, ``guest``) of this format and
    version; CorruptSave otherwise."""
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise CorruptSave("not a saved online room")
    if doc.get("version") != SAVE_VERSION:
        raise CorruptSave(f"unsupported online room version {doc.get('version')!r}")
    if doc.get("role") != role:
        raise CorruptSave(f"not a saved room of a {role}")
    return doc


class Common(NamedTuple):
    """The part of a save both seats share, checked (`read_common`)."""

    match_no: int
    setup: MatchSetup | None
    peer: Any
    """The match's `FairPeer.save()` (replayed by the seat's `load`), or None."""
    carried: Series | None
    asked: Series | None


def read_common(doc: dict[str, Any], *, seat: int, mode: str, code: str) -> Common:
    """The shared part of the save `doc` of seat `seat` in room `code`; CorruptSave saying
    what is wrong."""
    match_no, setup_data, peer = doc.get("match"), doc.get("setup"), doc.get("peer")
    if isinstance(match_no, bool) or not isinstance(match_no, int) \
            or not 0 <= match_no <= control.MAX_MATCHES:
        raise CorruptSave("saved room: bad match number")
    try:
        setup = None if setup_data is None else MatchSetup.from_json(setup_data)
    except ControlError as exc:
        raise CorruptSave(f"saved room: {exc}") from None
    if (peer is None) != (match_no == 0) or (peer is None) != (setup is None):
        raise CorruptSave("saved room: the match, its number and its setup disagree")
    if peer is not None:
        if not isinstance(peer, dict) or peer.get("seat") != seat:
            raise CorruptSave("saved room: the match is not this seat's")
        assert setup is not None
        if (peer.get("options"), peer.get("names"), peer.get("first_player")) != (
                setup.options.to_json(), list(setup.names), setup.first_player):
            raise CorruptSave("saved room: the match is not the room's")

    def series(data: object, what: str) -> Series | None:
        return saved_series(data, what, setup=setup, match_no=match_no, mode=mode, code=code)

    return Common(match_no, setup, peer, series(doc.get("series"), "series"),
                  series(doc.get("asked"), "rematch request"))


def saved_series(data: object, what: str, *, setup: MatchSetup | None, match_no: int,
                 mode: str, code: str) -> Series | None:
    """A series a save holds (the `what`), of the room `code`'s match `match_no` (its
    `setup`); CorruptSave if it is not one."""
    if data is None:
        return None
    series = checked(lambda: Series.from_json(data), what)
    if setup is None or series.key != series_key(
            mode=mode, names=setup.names, options=setup.options, room=code):
        raise CorruptSave(f"saved room: the {what} is not this room's")
    if len(series.results) > min(match_no, control.MAX_SERIES_RESULTS):
        raise CorruptSave(f"saved room: the {what} holds more matches than the room")
    return series


T = TypeVar("T")


def checked(make: Callable[[], T], what: str) -> T:
    """`make()`, what a save holds checked (its ValueError becomes CorruptSave)."""
    try:
        return make()
    except ValueError as exc:
        raise CorruptSave(f"saved room: bad {what} ({exc})") from None


def saved_str(data: dict[str, Any], key: str) -> str:
    """The text a save holds under `key`; CorruptSave if it is not one."""
    value = data.get(key)
    if not isinstance(value, str):
        raise CorruptSave(f"saved room: bad {key}")
    return value
