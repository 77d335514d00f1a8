"""The prime-order group cards are masked in, behind the smallest interface the protocol needs.

The group is ristretto255 (RFC 9496) as libsodium exposes it: Ed25519's prime-order group with an
encoding in which every valid string is a point of that group, so that decoding is the whole
check (no cofactor, no multiplication by the order). Natively it comes from rbcl
(``lostcities.fair.sodium``); in the browser a ``libsodium-wrappers-sumo`` adapter gives the same
bytes for the same inputs (``lostcities.fair.vectors`` is the shared check). Points and
scalars are plain ``bytes`` (32 each, little-endian scalars below ``ORDER``); everything above
this interface is pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

ORDER = 2**252 + 27742317777372353535851937790883648493
"""The order of the group (the Ed25519 ``L``)."""

POINT_BYTES = 32
SCALAR_BYTES = 32
UNIFORM_BYTES = 64
"""Input of ``Group.point``: uniform bytes mapped to a point."""
IDENTITY = bytes(POINT_BYTES)
"""The encoding of the identity, the one point ``is_point`` refuses that decodes."""
WIDE_BYTES = 64
"""Input of ``Group.scalar``: uniform bytes reduced to a scalar."""


class Group(Protocol):
    """The operations the protocol uses; an implementation raises ``ValueError`` on bad input."""

    name: str

    def point(self, uniform: bytes) -> bytes:
        """A point from 64 uniform bytes (``crypto_core_ristretto255_from_hash``):
        how an item (a card, a job...) becomes a group element."""
        ...

    def scalar(self, wide: bytes) -> bytes:
        """64 uniform bytes reduced modulo ``ORDER`` (``crypto_core_ristretto255_scalar_reduce``):
        a random scalar from caller-supplied randomness."""
        ...

    def mul(self, x: bytes, y: bytes) -> bytes:
        """``x * y`` modulo ``ORDER`` (``crypto_core_ristretto255_scalar_mul``)."""
        ...

    def invert(self, s: bytes) -> bytes:
        """``1 / s`` modulo ``ORDER`` (``crypto_core_ristretto255_scalar_invert``)."""
        ...

    def mult(self, s: bytes, p: bytes) -> bytes:
        """``s * P`` (``crypto_scalarmult_ristretto255``); ``ValueError`` if ``P`` does not
        decode or the product is the identity."""
        ...

    def is_point(self, p: bytes) -> bool:
        """Whether ``p`` encodes a point of the group other than the identity
        (``crypto_core_ristretto255_is_valid_point``, which takes the identity)."""
        ...

    def base(self, s: bytes) -> bytes:
        """``s * G``, ``G`` the standard base point
        (``crypto_scalarmult_ristretto255_base``); ``ValueError`` if ``s`` is zero."""
        ...

    def add(self, p: bytes, q: bytes) -> bytes:
        """``P + Q`` (``crypto_core_ristretto255_add``); ``ValueError`` on an invalid point."""
        ...

    def sub(self, p: bytes, q: bytes) -> bytes:
        """``P - Q`` (``crypto_core_ristretto255_sub``); ``ValueError`` on an invalid point."""
        ...

    def scalar_add(self, x: bytes, y: bytes) -> bytes:
        """``x + y`` modulo ``ORDER`` (``crypto_core_ristretto255_scalar_add``)."""
        ...

    def scalar_sub(self, x: bytes, y: bytes) -> bytes:
        """``x - y`` modulo ``ORDER`` (``crypto_core_ristretto255_scalar_sub``)."""
        ...

    def mults(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> list[bytes]:
        """``[s_i * P_i]``, each as ``mult`` makes it. This and the other batch calls below do
        one call's work per item, in one call where the library lives across a bridge."""
        ...

    def bases(self, scalars: Sequence[bytes]) -> list[bytes]:
        """``[s_i * G]``, each as ``base`` makes it."""
        ...

    def adds(self, ps: Sequence[bytes], qs: Sequence[bytes]) -> list[bytes]:
        """``[P_i + Q_i]``, each as ``add`` makes it."""
        ...

    def muladds(self, xs: Sequence[bytes], ys: Sequence[bytes],
                zs: Sequence[bytes]) -> list[bytes]:
        """``[x_i * y_i + z_i]`` modulo ``ORDER`` (``mul``, then ``scalar_add``)."""
        ...

    def scalars(self, wides: Sequence[bytes]) -> list[bytes]:
        """``[scalar(w_i)]``: each 64-byte input reduced."""
        ...

    def are_points(self, points: Sequence[bytes]) -> list[bool]:
        """``[is_point(P_i)]``."""
        ...

    def combine(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> bytes:
        """``sum(s_i * P_i)`` (one ``mult`` and one ``add`` a term: the proofs' long sums,
        done in one call where the library lives across a bridge); ``ValueError`` as
        ``mult`` and ``add`` raise it, or if the lengths differ or are zero."""
        ...


def is_canonical(s: bytes) -> bool:
    """Whether ``s`` is a canonical (below ``ORDER``) 32-byte scalar, zero allowed."""
    return (isinstance(s, bytes) and len(s) == SCALAR_BYTES
            and int.from_bytes(s, "little") < ORDER)


def is_scalar(s: bytes) -> bool:
    """Whether ``s`` is a canonical (below ``ORDER``), non-zero 32-byte scalar."""
    return (
        isinstance(s, bytes) and len(s) == SCALAR_BYTES
        and 0 < int.from_bytes(s, "little") < ORDER
    )
