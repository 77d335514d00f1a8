"""Fair play's group in the page: libsodium's Ed25519 subgroup through ``window.sodium``.

``window.sodium`` is ``libsodium-wrappers-sumo``, loaded with the online libraries
(``window.lcOnlineLibraries()``, static/config.js). Each call mirrors
``lostcities.fair.sodium.SodiumGroup`` (PyNaCl natively) exactly: the same libsodium function,
the same checks of its inputs, ``ValueError`` where PyNaCl's side raises it, so that both give
the same bytes for the same inputs (``lostcities.fair.vectors``; e2e/test_fair_group.py).
Bytes cross the bridge as ``Uint8Array`` copies.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

from lostcities.fair.group import POINT_BYTES, SCALAR_BYTES, UNIFORM_BYTES, WIDE_BYTES, is_scalar


def _need(data: bytes, size: int, what: str) -> None:
    if not isinstance(data, bytes) or len(data) != size:
        raise ValueError(f"{what} must be {size} bytes")


def _array(data: bytes) -> Any:
    """A new ``Uint8Array`` holding a copy of ``data`` (``to_js`` copies a buffer: half the
    cost of filling a new array from Python)."""
    return to_js(data)


class JsSodiumGroup:
    """``Group`` on libsodium's JavaScript build (``window.sodium``, once it is ready)."""

    name = "ed25519-libsodium.js"

    def __init__(self, sodium: Any = None) -> None:
        """Use ``sodium`` (default: ``window.sodium``); ``RuntimeError`` if it is not loaded."""
        found = getattr(js, "sodium", None) if sodium is None else sodium
        if found is None or not hasattr(found, "crypto_scalarmult_ed25519_noclamp"):
            raise RuntimeError("libsodium is not loaded: await window.lcOnlineLibraries() first")
        self._from_uniform = found.crypto_core_ed25519_from_uniform
        self._reduce = found.crypto_core_ed25519_scalar_reduce
        self._scalar_mul = found.crypto_core_ed25519_scalar_mul
        self._invert = found.crypto_core_ed25519_scalar_invert
        self._mult = found.crypto_scalarmult_ed25519_noclamp
        self._is_valid = found.crypto_core_ed25519_is_valid_point

    def point(self, uniform: bytes) -> bytes:
        """See ``Group.point``."""
        _need(uniform, UNIFORM_BYTES, "uniform input")
        return bytes(self._from_uniform(_array(uniform)).to_bytes())

    def scalar(self, wide: bytes) -> bytes:
        """See ``Group.scalar``."""
        _need(wide, WIDE_BYTES, "wide input")
        return bytes(self._reduce(_array(wide)).to_bytes())

    def mul(self, x: bytes, y: bytes) -> bytes:
        """See ``Group.mul``."""
        _need(x, SCALAR_BYTES, "a scalar")
        _need(y, SCALAR_BYTES, "a scalar")
        return bytes(self._scalar_mul(_array(x), _array(y)).to_bytes())

    def invert(self, s: bytes) -> bytes:
        """See ``Group.invert``."""
        if not is_scalar(s):
            raise ValueError("only a non-zero canonical scalar has an inverse")
        return bytes(self._invert(_array(s)).to_bytes())

    def mult(self, s: bytes, p: bytes) -> bytes:
        """See ``Group.mult``."""
        _need(s, SCALAR_BYTES, "a scalar")
        _need(p, POINT_BYTES, "a point")
        try:
            return bytes(self._mult(_array(s), _array(p)).to_bytes())
        except JsException:
            raise ValueError("not a valid point, or the product is the identity") from None

    def is_point(self, p: bytes) -> bool:
        """See ``Group.is_point``."""
        return (isinstance(p, bytes) and len(p) == POINT_BYTES
                and bool(self._is_valid(_array(p))))
