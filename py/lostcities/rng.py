"""Deterministic per-purpose randomness derived from the match seed.

Each purpose (the deck of round 2, the job offers, ...) gets its own ``random.Random`` seeded from
a SHA-256 of ``"{seed}/{purpose}"``, and the shuffle below uses only ``getrandbits``, so CPython
3.11 and Pyodide's 3.14 produce identical games.
"""

from __future__ import annotations

import hashlib
import random
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
    """A Fisher–Yates shuffled copy of ``items``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out
