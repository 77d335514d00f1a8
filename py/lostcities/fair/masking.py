"""The two shuffle steps, what each proof is bound to, and the opening of one position.

With ``P`` the items' points, the inner peer's key ``a`` and permutation ``s``, and the outer
peer's key ``b`` and permutation ``t``:

1. inner: ``X_i = a * P[s[i]]``  (masked and shuffled, with a proof of the shuffle);
2. outer: ``Y_j = b * X[t[j]]``  (shuffled again, with a proof; ``b`` and ``t`` bound to ``X``).

So ``Y_j = a * b * P[s[t[j]]]``. A position opens with one *share* from each peer: the point
``Y_j`` with that peer's key taken off, and the proof that it is (``proofs.share``). The
other's share, with one's own key taken off too, is the item's point.
"""

from __future__ import annotations

from collections.abc import Sequence

from .derive import DOMAIN


def shuffle_context(setup: str, scope: int, deck: str, step: int) -> bytes:
    """What a shuffle proof is bound to: the match's setup, the deck and the step."""
    return DOMAIN + f"shuffle/{setup}/{scope}/{deck}/{step}".encode()


def share_context(setup: str, scope: int, deck: str, pos: int, seat: int) -> bytes:
    """What a share's proof is bound to: the match's setup, the deck, position and sender."""
    return DOMAIN + f"share/{setup}/{scope}/{deck}/{pos}/{seat}".encode()


def item_order(inner_perm: Sequence[int], outer_perm: Sequence[int]) -> tuple[int, ...]:
    """The item index at each final position, from both permutations."""
    return tuple(inner_perm[i] for i in outer_perm)
