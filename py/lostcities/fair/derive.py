"""Every secret a peer uses, derived from its one match secret.

A peer draws one 32-byte match secret from a secure random source (the caller's job: the
protocol itself does no I/O). Each *scope* (0 for the match: the coin and the job offers;
``r`` for round ``r``) gets its own seed, ``HMAC-SHA256(secret, scope)``; each deck of the
scope derives its key and its permutation from that seed (the second shuffler's bound to the
first one's shuffle as well). A
round's audit reveals the round's seed alone: it proves every step the peer took in the round
and says nothing about the other scopes.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from dataclasses import dataclass
from collections.abc import Sequence
from itertools import count

from .group import Group, is_scalar

DOMAIN = b"lostcities-fair/3/"
SEED_BYTES = 32
COMMIT_BYTES = 16
"""Commitments are SHA-256 cut to 16 bytes: binding needs second preimages (2^128 work)."""


def scope_seed(secret: bytes, scope: int) -> bytes:
    """The seed of one scope (0: the match; ``r``: round ``r``)."""
    return hmac.new(secret, DOMAIN + b"scope/%d" % scope, hashlib.sha256).digest()


def scalar_for(group: Group, seed: bytes, label: str) -> bytes:
    """A uniform non-zero scalar for ``label``, from ``seed``."""
    for n in count():
        wide = hmac.new(seed, DOMAIN + f"scalar/{label}/{n}".encode(), hashlib.sha512).digest()
        s = group.scalar(wide)
        if is_scalar(s):
            return s
    raise AssertionError("unreachable")


def permutation(seed: bytes, label: str, n: int) -> tuple[int, ...]:
    """A uniform permutation of ``range(n)`` for ``label``: the indices sorted by independent
    64-bit keys from SHAKE-256 (ties, at odds of n^2/2^64, keep index order)."""
    stream = hashlib.shake_256(DOMAIN + b"perm/" + seed + label.encode()).digest(8 * n)
    keys = struct.unpack(f"<{n}Q", stream)
    return tuple(sorted(range(n), key=lambda i: (keys[i], i)))


@dataclass(frozen=True)
class RoleSecrets:
    """One peer's secrets for one deck: its ``key`` (one scalar for the whole deck) and
    ``perm`` (its shuffle)."""

    key: bytes
    perm: tuple[int, ...]


def role_secrets(group: Group, seed: bytes, deck: str, n: int, inner: bool,
                 bound: bytes = b"") -> RoleSecrets:
    """The secrets of the inner (``inner=True``) or outer peer for ``deck`` of ``n`` items.
    ``bound`` is a digest of what the peer answers (the outer peer's input: the inner peer's
    shuffle), so that two different inputs never get the same key or permutation."""
    label = f"{deck}/{'inner' if inner else 'outer'}/{bound.hex()}"
    return RoleSecrets(scalar_for(group, seed, f"{label}/key"), permutation(seed, label, n))


def bound_to(points: Sequence[bytes]) -> bytes:
    """The digest an answer to ``points`` is bound to."""
    return hashlib.sha256(DOMAIN + b"bound/" + b"".join(points)).digest()


def pick_nonce(group: Group, match_seed: bytes) -> bytes:
    """Seat 0's secret that hides its job pick in its commitment (revealed with the pick)."""
    return scalar_for(group, match_seed, "jobs/pick")


def pick_commitment(pos: int, nonce: bytes) -> bytes:
    """Seat 0's commitment to the job it picks (the position of the job in its offer, hidden
    by its ``pick_nonce``) until seat 1 has picked."""
    return hashlib.sha256(DOMAIN + f"pick/{pos}/".encode() + nonce).digest()[:COMMIT_BYTES]


def digest(text: str) -> str:
    """A short hex digest of agreed text (the match's setup)."""
    return hashlib.sha256(DOMAIN + text.encode()).hexdigest()[:32]
