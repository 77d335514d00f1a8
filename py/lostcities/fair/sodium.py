"""The native group: libsodium's ristretto255 through rbcl (libsodium bundled, with bindings for
its ristretto255 calls).

Imported only natively (tests, benchmarks, the command line); the browser passes its own
``Group`` built on ``libsodium-wrappers-sumo``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import rbcl

from .group import IDENTITY, POINT_BYTES, SCALAR_BYTES, UNIFORM_BYTES, WIDE_BYTES, is_scalar


def _need(data: bytes, size: int, what: str) -> None:
    if not isinstance(data, bytes) or len(data) != size:
        raise ValueError(f"{what} must be {size} bytes")


def _decodes(p: bytes) -> bool:
    """Whether the 32 bytes ``p`` encode a point, as the browser's libsodium decodes: the
    library rbcl bundles ignores the top bit, which a canonical encoding leaves clear."""
    return p[31] < 0x80 and bool(rbcl.crypto_core_ristretto255_is_valid_point(p))


def _on_points(call: Callable[[bytes, bytes], bytes], p: bytes, q: bytes) -> bytes:
    """A libsodium call on two points, sizes checked, an encoding that does not decode a
    ``ValueError`` (rbcl does not pass on the call's refusal, so it is asked first)."""
    _need(p, POINT_BYTES, "a point")
    _need(q, POINT_BYTES, "a point")
    if not (_decodes(p) and _decodes(q)):
        raise ValueError("not a valid point")
    return bytes(call(p, q))


def _on_scalars(call: Callable[[bytes, bytes], bytes], x: bytes, y: bytes) -> bytes:
    """A libsodium call on two scalars, sizes checked."""
    _need(x, SCALAR_BYTES, "a scalar")
    _need(y, SCALAR_BYTES, "a scalar")
    return bytes(call(x, y))


def _same_length(first: Sequence[bytes], second: Sequence[bytes]) -> None:
    if len(first) != len(second):
        raise ValueError("a batch call needs inputs of the same length")


class SodiumGroup:
    """``Group`` on rbcl's bindings of libsodium."""

    name = "ristretto255-libsodium"

    def point(self, uniform: bytes) -> bytes:
        """See ``Group.point``."""
        _need(uniform, UNIFORM_BYTES, "uniform input")
        return bytes(rbcl.crypto_core_ristretto255_from_hash(uniform))

    def scalar(self, wide: bytes) -> bytes:
        """See ``Group.scalar``."""
        _need(wide, WIDE_BYTES, "wide input")
        return bytes(rbcl.crypto_core_ristretto255_scalar_reduce(wide))

    def mul(self, x: bytes, y: bytes) -> bytes:
        """See ``Group.mul``."""
        return _on_scalars(rbcl.crypto_core_ristretto255_scalar_mul, x, y)

    def invert(self, s: bytes) -> bytes:
        """See ``Group.invert``."""
        if not is_scalar(s):
            raise ValueError("only a non-zero canonical scalar has an inverse")
        return bytes(rbcl.crypto_core_ristretto255_scalar_invert(s))

    def mult(self, s: bytes, p: bytes) -> bytes:
        """See ``Group.mult``."""
        _need(s, SCALAR_BYTES, "a scalar")
        _need(p, POINT_BYTES, "a point")
        if p[31] >= 0x80:
            raise ValueError("not a valid point")
        try:
            return bytes(rbcl.crypto_scalarmult_ristretto255(s, p))
        except RuntimeError:
            raise ValueError("not a valid point, or the product is the identity") from None

    def is_point(self, p: bytes) -> bool:
        """See ``Group.is_point``."""
        return (isinstance(p, bytes) and len(p) == POINT_BYTES and p != IDENTITY
                and _decodes(p))

    def base(self, s: bytes) -> bytes:
        """See ``Group.base``."""
        _need(s, SCALAR_BYTES, "a scalar")
        try:
            return bytes(rbcl.crypto_scalarmult_ristretto255_base(s))
        except RuntimeError:
            raise ValueError("the product is the identity") from None

    def add(self, p: bytes, q: bytes) -> bytes:
        """See ``Group.add``."""
        return _on_points(rbcl.crypto_core_ristretto255_add, p, q)

    def sub(self, p: bytes, q: bytes) -> bytes:
        """See ``Group.sub``."""
        return _on_points(rbcl.crypto_core_ristretto255_sub, p, q)

    def scalar_add(self, x: bytes, y: bytes) -> bytes:
        """See ``Group.scalar_add``."""
        return _on_scalars(rbcl.crypto_core_ristretto255_scalar_add, x, y)

    def scalar_sub(self, x: bytes, y: bytes) -> bytes:
        """See ``Group.scalar_sub``."""
        return _on_scalars(rbcl.crypto_core_ristretto255_scalar_sub, x, y)

    def combine(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> bytes:
        """See ``Group.combine``."""
        if not scalars or len(scalars) != len(points):
            raise ValueError("a combination needs as many scalars as points, at least one")
        total = self.mult(scalars[0], points[0])
        for s, p in zip(scalars[1:], points[1:]):
            total = self.add(total, self.mult(s, p))
        return total

    def mults(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> list[bytes]:
        """See ``Group.mults``."""
        _same_length(scalars, points)
        return [self.mult(s, p) for s, p in zip(scalars, points)]

    def bases(self, scalars: Sequence[bytes]) -> list[bytes]:
        """See ``Group.bases``."""
        return [self.base(s) for s in scalars]

    def adds(self, ps: Sequence[bytes], qs: Sequence[bytes]) -> list[bytes]:
        """See ``Group.adds``."""
        _same_length(ps, qs)
        return [self.add(p, q) for p, q in zip(ps, qs)]

    def muladds(self, xs: Sequence[bytes], ys: Sequence[bytes],
                zs: Sequence[bytes]) -> list[bytes]:
        """See ``Group.muladds``."""
        _same_length(xs, ys)
        _same_length(xs, zs)
        return [self.scalar_add(self.mul(x, y), z) for x, y, z in zip(xs, ys, zs)]

    def scalars(self, wides: Sequence[bytes]) -> list[bytes]:
        """See ``Group.scalars``."""
        return [self.scalar(w) for w in wides]

    def are_points(self, points: Sequence[bytes]) -> list[bool]:
        """See ``Group.are_points``."""
        return [self.is_point(p) for p in points]
