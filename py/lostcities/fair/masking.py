"""The three shuffle steps and the opening of one position (commutative masking).

With ``P`` the items' points, the inner peer's mask ``a`` and permutation ``s``, and the outer
peer's permutation ``t`` and keys ``b_j``:

1. inner: ``X_i = a * P[s[i]]``  (masked and shuffled under one key);
2. outer: ``Y_j = b_j * X[t[j]]`` (shuffled again, each position under its own key);
3. inner: ``Z_j = (a_j / a) * Y_j`` (its single mask swapped for a key per position).

So ``Z_j = a_j * b_j * P[s[t[j]]]``: position ``j`` opens with both keys of ``j`` and no others.
"""

from __future__ import annotations

from collections.abc import Sequence

from .group import Group


def mask_all(group: Group, mask: bytes, points: Sequence[bytes],
             perm: Sequence[int]) -> tuple[bytes, ...]:
    """Step 1: every point under ``mask``, in the order ``perm``."""
    return tuple(group.mult(mask, points[i]) for i in perm)


def remask(group: Group, keys: Sequence[bytes], x: Sequence[bytes],
           perm: Sequence[int]) -> tuple[bytes, ...]:
    """Step 2: ``x`` in the order ``perm``, position ``j`` under ``keys[j]``."""
    return tuple(group.mult(keys[j], x[i]) for j, i in enumerate(perm))


def rekey(group: Group, mask: bytes, keys: Sequence[bytes],
          y: Sequence[bytes]) -> tuple[bytes, ...]:
    """Step 3: ``mask`` stripped from each position of ``y`` and ``keys[j]`` put on instead
    (one multiplication each, by ``keys[j] / mask``)."""
    inverse = group.invert(mask)
    return tuple(group.mult(group.mul(k, inverse), p) for k, p in zip(keys, y))


def unmask(group: Group, z: bytes, key1: bytes, key2: bytes) -> bytes:
    """The item point under ``z``, given both keys of its position (``ValueError`` if the
    keys make the identity)."""
    return group.mult(group.invert(group.mul(key1, key2)), z)


def item_order(inner_perm: Sequence[int], outer_perm: Sequence[int]) -> tuple[int, ...]:
    """The item index at each final position, from both permutations."""
    return tuple(inner_perm[i] for i in outer_perm)
