"""What the host reads from a connecting peer's PeerJS metadata: its guest token, nothing else.

The metadata is whatever the peer chose to send, before anything proves who it is. Converting
all of it (``to_py()``) would walk an object of the peer's making, however deep or large; this
module reads the one property it needs. Browser-free: in the page `metadata` is a JsProxy (a
property read gives a str for a JS string and converts nothing else), in tests any object.
"""

from __future__ import annotations

from typing import Final

MAX_TOKEN_CHARS: Final = 64
"""The longest token read (webui/online/seat.py's TOKEN_RE says what a valid one is)."""


def token_of(metadata: object) -> str | None:
    """The ``token`` property of `metadata` if it is a string of at most MAX_TOKEN_CHARS
    characters, else None (no property, another type, a getter that throws, no metadata)."""
    if metadata is None:
        return None
    try:
        token = getattr(metadata, "token", None)
    except Exception:  # noqa: BLE001 - a JavaScript getter may throw anything
        return None
    if isinstance(token, str) and len(token) <= MAX_TOKEN_CHARS:
        return token
    return None
