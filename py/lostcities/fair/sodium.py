"""The native group: libsodium's Ed25519 subgroup through PyNaCl.

Imported only natively (tests, benchmarks, the command line); the browser passes its own
``Group`` built on ``libsodium-wrappers-sumo``.
"""

from __future__ import annotations

from nacl import bindings
from nacl.exceptions import CryptoError

from .group import POINT_BYTES, SCALAR_BYTES, UNIFORM_BYTES, WIDE_BYTES, is_scalar


def _need(data: bytes, size: int, what: str) -> None:
    if not isinstance(data, bytes) or len(data) != size:
        raise ValueError(f"{what} must be {size} bytes")


class SodiumGroup:
    """``Group`` on PyNaCl's bindings of libsodium."""

    name = "ed25519-libsodium"

    def point(self, uniform: bytes) -> bytes:
        """See ``Group.point``."""
        _need(uniform, UNIFORM_BYTES, "uniform input")
        return bytes(bindings.crypto_core_ed25519_from_uniform(uniform))

    def scalar(self, wide: bytes) -> bytes:
        """See ``Group.scalar``."""
        _need(wide, WIDE_BYTES, "wide input")
        return bytes(bindings.crypto_core_ed25519_scalar_reduce(wide))

    def mul(self, x: bytes, y: bytes) -> bytes:
        """See ``Group.mul``."""
        _need(x, SCALAR_BYTES, "a scalar")
        _need(y, SCALAR_BYTES, "a scalar")
        return bytes(bindings.crypto_core_ed25519_scalar_mul(x, y))

    def invert(self, s: bytes) -> bytes:
        """See ``Group.invert``."""
        if not is_scalar(s):
            raise ValueError("only a non-zero canonical scalar has an inverse")
        return bytes(bindings.crypto_core_ed25519_scalar_invert(s))

    def mult(self, s: bytes, p: bytes) -> bytes:
        """See ``Group.mult``."""
        _need(s, SCALAR_BYTES, "a scalar")
        _need(p, POINT_BYTES, "a point")
        try:
            return bytes(bindings.crypto_scalarmult_ed25519_noclamp(s, p))
        except CryptoError:
            raise ValueError("not a valid point, or the product is the identity") from None

    def is_point(self, p: bytes) -> bool:
        """See ``Group.is_point``."""
        return (isinstance(p, bytes) and len(p) == POINT_BYTES
                and bool(bindings.crypto_core_ed25519_is_valid_point(p)))
