"""Room codes, the broker peer id behind them, and join links.

The page imports this module as it boots (`code_from_query`), so `secrets` and `urllib.parse`
(about 140 ms to compile on a first visit) are imported where they are used.

A code is 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L), so it can be read
aloud or typed from a phone. The host registers the PeerJS id `peer_id(code)` on the broker.
"""

from __future__ import annotations

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Digits 2-9 and capital letters without I, L and O (31 symbols: 31**6 ~ 887 million codes)."""

CODE_LENGTH = 6
PEER_PREFIX = "lostcities-"
ROOM_PARAM = "room"
"""The URL parameter of a join link: ``?room=CODE``."""
HOST_PARAM = "host"
"""The URL parameter naming the room's host in a join link (``&host=Ana``): the join screen
says whose room it is, and nothing else trusts it."""

KEPT_PARAMS = ("broker", "ice", "lang")
"""URL parameters a join link keeps from the host's page, so both pages use the same broker."""

HOST_KEY = "lostcities-online-host"
"""localStorage: the room this page hosts (its match), taken back on reload."""
GUEST_KEY = "lostcities-online-guest"
"""localStorage: the room, seat and token of this page as a guest, taken back on reload."""
ONLINE_SAVE_KEYS = (HOST_KEY, GUEST_KEY)
HOST_SEAT = 0
"""The seat of the room's host (the guest's is 1)."""
GUEST_SEAT = 1


def new_code() -> str:
    """A fresh random room code."""
    import secrets

    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: object) -> str:
    """The code a player typed, cleaned (case, spaces and dashes ignored).

    Raises ValueError with a player-readable message when it cannot be a room code.
    """
    if not isinstance(text, str):
        raise ValueError("a room code is text")
    code = "".join(ch for ch in text.upper() if ch not in " -\t")
    if len(code) != CODE_LENGTH:
        raise ValueError(f"a room code has {CODE_LENGTH} characters")
    bad = sorted({ch for ch in code if ch not in ALPHABET})
    if bad:
        raise ValueError(
            "a room code uses the digits 2-9 and letters other than I, L and O"
            f" (not {' '.join(bad)[:20]})"
        )
    return code


def peer_id(code: str) -> str:
    """The PeerJS id the host of room `code` registers on the broker."""
    return PEER_PREFIX + normalize_code(code)


def load_link_parts() -> None:
    """Import what a join link is made with (`urllib.parse`) now: the lobby does it in a task
    of its own after its paint, so that a room's opening does not."""
    import urllib.parse  # noqa: F401, PLC0415


def join_link(page_url: str, code: str, host_name: str = "") -> str:
    """The link that opens the join screen of room `code`, saying it is `host_name`'s.

    Keeps the page's origin and path, and its broker/ICE/language parameters (so that a host
    on a custom broker sends its guest to the same broker); drops everything else.
    """
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(page_url)
    kept = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
            if k in KEPT_PARAMS]
    host = [(HOST_PARAM, host_name)] if host_name else []
    query = urlencode([*kept, (ROOM_PARAM, normalize_code(code)), *host])
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def code_from_query(search: str) -> str | None:
    """The room code of a join link's query string (``?room=...``), or None if absent."""
    query = search.lstrip("?")
    if not query:
        return None
    from urllib.parse import parse_qsl

    for key, value in parse_qsl(query, keep_blank_values=True):
        if key == ROOM_PARAM:
            return value[:40]
    return None


def without_join_link(search: str) -> str:
    """The query string `search` (``?...``) without a join link's room and host parameters,
    its other parameters kept in order ("" when none is left)."""
    query = search.lstrip("?")
    if not query:
        return ""
    from urllib.parse import parse_qsl, urlencode

    kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True)
            if k not in (ROOM_PARAM, HOST_PARAM)]
    return "?" + urlencode(kept) if kept else ""


def host_from_query(search: str) -> str:
    """The host's name a join link carries (``&host=...``), cleaned as every name is
    (lostcities.names); "" if there is none."""
    from urllib.parse import parse_qsl

    from lostcities.names import clean_name

    for key, value in parse_qsl(search.lstrip("?"), keep_blank_values=True):
        if key == HOST_PARAM:
            return clean_name(value[:200])
    return ""
