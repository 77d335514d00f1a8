"""Bytes on the wire: unpadded base64url, strictly canonical (one text per value)."""

from __future__ import annotations

import base64
import re

_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")


def encode(data: bytes) -> str:
    """``data`` as unpadded base64url text."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def decode(text: object, size: int) -> bytes:
    """The ``size`` bytes that ``text`` encodes; ``ValueError`` unless ``text`` is exactly what
    ``encode`` gives for them (no padding, no other alphabet, no spare bits)."""
    if not isinstance(text, str) or _ALPHABET.fullmatch(text) is None:
        raise ValueError("not base64url text")
    if len(text) != (4 * size + 2) // 3:
        raise ValueError(f"base64url text of {size} bytes must be {(4 * size + 2) // 3} long")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if len(data) != size or encode(data) != text:
        raise ValueError("base64url text is not canonical")
    return data


def split(data: bytes, size: int) -> tuple[bytes, ...]:
    """``data`` cut into chunks of ``size`` bytes (its length must be a multiple)."""
    if len(data) % size:
        raise ValueError(f"{len(data)} bytes is not a whole number of {size}-byte values")
    return tuple(data[i:i + size] for i in range(0, len(data), size))


def decode_vector(text: object, count: int, size: int) -> tuple[bytes, ...]:
    """``count`` values of ``size`` bytes, sent as one base64url text."""
    return split(decode(text, count * size), size)
