"""Deterministic per-purpose randomness derived from the match seed.

Each purpose (the deck of round 2, the job offers, ...) gets its own ``random.Random`` seeded from
a SHA-256 of ``"{seed}/{purpose}"``, and everything below uses only ``getrandbits`` (the Mersenne
Twister's raw output, unchanged across Python versions), so CPython 3.11 and Pyodide's 3.14
produce identical games.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: int, *purpose: object) -> random.Random:
    """A generator for one purpose, e.g. ``rng_for(42, 2, "deck")``."""
    key = "/".join(str(p) for p in (seed, *purpose))
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def below(rng: random.Random, n: int) -> int:
    """A uniform int in ``[0, n)`` using only ``getrandbits`` (stable across versions)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    """A uniformly shuffled copy of ``items``: sorted by independent random 64-bit keys
    (one ``getrandbits`` call; ties, vanishingly rare, keep the original order)."""
    n = len(items)
    if n < 2:
        return list(items)
    keys = struct.unpack(f"<{n}Q", rng.getrandbits(64 * n).to_bytes(8 * n, "little"))
    shift = n.bit_length()
    mask = (1 << shift) - 1
    order = sorted([k << shift | i for i, k in enumerate(keys)])  # by key, then index
    return [items[x & mask] for x in order]
