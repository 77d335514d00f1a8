"""Fair play's group in the page: libsodium's ristretto255 through ``window.sodium``.

``window.sodium`` is ``libsodium-wrappers-sumo``, loaded with the online libraries
(``window.lcOnlineLibraries()``, static/config.js). Each call mirrors
``lostcities.fair.sodium.SodiumGroup`` (rbcl natively) exactly: the same libsodium function,
the same checks of its inputs, ``ValueError`` where the native side raises it, so that both give
the same bytes for the same inputs (``lostcities.fair.vectors``; e2e/test_fair_group.py).
Bytes cross the bridge as ``Uint8Array`` copies. ``combine``, the proofs' long sums, crosses it
once for the whole sum: ``window.lcRistrettoCombine`` (static/config.js) loops over libsodium's
multiplication and addition in JavaScript.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

from lostcities.fair.group import (
    IDENTITY, POINT_BYTES, SCALAR_BYTES, UNIFORM_BYTES, WIDE_BYTES, is_scalar)


def _need(data: bytes, size: int, what: str) -> None:
    if not isinstance(data, bytes) or len(data) != size:
        raise ValueError(f"{what} must be {size} bytes")


def _all_sized(items: Sequence[bytes], size: int) -> bool:
    """Whether every item is ``bytes`` of ``size`` (what ``_need`` asks of each)."""
    return all(isinstance(item, bytes) and len(item) == size for item in items)


def _on_points(call: Any, p: bytes, q: bytes) -> bytes:
    """A libsodium call on two points, sizes checked, its refusal a ``ValueError``."""
    _need(p, POINT_BYTES, "a point")
    _need(q, POINT_BYTES, "a point")
    try:
        return bytes(call(_array(p), _array(q)).to_bytes())
    except JsException:
        raise ValueError("not a valid point") from None


def _on_scalars(call: Any, x: bytes, y: bytes) -> bytes:
    """A libsodium call on two scalars, sizes checked."""
    _need(x, SCALAR_BYTES, "a scalar")
    _need(y, SCALAR_BYTES, "a scalar")
    return bytes(call(_array(x), _array(y)).to_bytes())


def _array(data: bytes) -> Any:
    """A new ``Uint8Array`` holding a copy of ``data`` (``to_js`` copies a buffer: half the
    cost of filling a new array from Python)."""
    return to_js(data)


class JsSodiumGroup:
    """``Group`` on libsodium's JavaScript build (``window.sodium``, once it is ready)."""

    name = "ristretto255-libsodium.js"

    def __init__(self, sodium: Any = None) -> None:
        """Use ``sodium`` (default: ``window.sodium``); ``RuntimeError`` if it is not loaded."""
        found = getattr(js, "sodium", None) if sodium is None else sodium
        if found is None or not hasattr(found, "crypto_scalarmult_ristretto255"):
            raise RuntimeError("libsodium is not loaded: await window.lcOnlineLibraries() first")
        combine = getattr(js, "lcRistrettoCombine", None)
        if combine is None:
            raise RuntimeError("window.lcRistrettoCombine is missing: static/config.js defines it")
        each = getattr(js, "lcRistrettoEach", None)
        if each is None:
            raise RuntimeError("window.lcRistrettoEach is missing: static/config.js defines it")
        self._sodium = found
        self._combine = combine
        self._each = each
        self._from_hash = found.crypto_core_ristretto255_from_hash
        self._reduce = found.crypto_core_ristretto255_scalar_reduce
        self._scalar_mul = found.crypto_core_ristretto255_scalar_mul
        self._invert = found.crypto_core_ristretto255_scalar_invert
        self._mult = found.crypto_scalarmult_ristretto255
        self._is_valid = found.crypto_core_ristretto255_is_valid_point
        self._base = found.crypto_scalarmult_ristretto255_base
        self._add = found.crypto_core_ristretto255_add
        self._sub = found.crypto_core_ristretto255_sub
        self._scalar_add = found.crypto_core_ristretto255_scalar_add
        self._scalar_sub = found.crypto_core_ristretto255_scalar_sub

    def point(self, uniform: bytes) -> bytes:
        """See ``Group.point``."""
        _need(uniform, UNIFORM_BYTES, "uniform input")
        return bytes(self._from_hash(_array(uniform)).to_bytes())

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
        return (isinstance(p, bytes) and len(p) == POINT_BYTES and p != IDENTITY
                and bool(self._is_valid(_array(p))))

    def base(self, s: bytes) -> bytes:
        """See ``Group.base``."""
        _need(s, SCALAR_BYTES, "a scalar")
        try:
            return bytes(self._base(_array(s)).to_bytes())
        except JsException:
            raise ValueError("the product is the identity") from None

    def add(self, p: bytes, q: bytes) -> bytes:
        """See ``Group.add``."""
        return _on_points(self._add, p, q)

    def sub(self, p: bytes, q: bytes) -> bytes:
        """See ``Group.sub``."""
        return _on_points(self._sub, p, q)

    def scalar_add(self, x: bytes, y: bytes) -> bytes:
        """See ``Group.scalar_add``."""
        return _on_scalars(self._scalar_add, x, y)

    def scalar_sub(self, x: bytes, y: bytes) -> bytes:
        """See ``Group.scalar_sub``."""
        return _on_scalars(self._scalar_sub, x, y)

    def combine(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> bytes:
        """See ``Group.combine``: every input checked here as ``mult`` checks it, then the
        whole sum in one call to ``window.lcRistrettoCombine`` (static/config.js)."""
        if not scalars or len(scalars) != len(points):
            raise ValueError("a combination needs as many scalars as points, at least one")
        if not _all_sized(scalars, SCALAR_BYTES):
            raise ValueError(f"a scalar must be {SCALAR_BYTES} bytes")
        if not _all_sized(points, POINT_BYTES):
            raise ValueError(f"a point must be {POINT_BYTES} bytes")
        try:
            total = self._combine(self._sodium, _array(b"".join(scalars)),
                                  _array(b"".join(points)))
        except JsException:
            raise ValueError("not a valid point, or a product is the identity") from None
        return bytes(total.to_bytes())

    def _batch(self, name: str, size: int, first: Sequence[bytes],
               second: Sequence[bytes] | None = None, width: int = POINT_BYTES) -> list[bytes]:
        """``name`` on every value (``window.lcRistrettoEach``, one crossing of the bridge)."""
        if not first:
            return []
        if not _all_sized(first, size) or (second is not None and (
                len(second) != len(first) or not _all_sized(second, POINT_BYTES))):
            raise ValueError("a batch call needs values of the right sizes, as many of each")
        args = [self._sodium, name, _array(b"".join(first))]
        if second is not None:
            args.append(_array(b"".join(second)))
        try:
            out = bytes(self._each(*args).to_bytes())
        except JsException:
            raise ValueError(f"{name} refused a value of the batch") from None
        return [out[i:i + width] for i in range(0, len(out), width)]

    def mults(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> list[bytes]:
        """See ``Group.mults``."""
        return self._batch("crypto_scalarmult_ristretto255", SCALAR_BYTES, scalars, points)

    def bases(self, scalars: Sequence[bytes]) -> list[bytes]:
        """See ``Group.bases``."""
        return self._batch("crypto_scalarmult_ristretto255_base", SCALAR_BYTES, scalars)

    def adds(self, ps: Sequence[bytes], qs: Sequence[bytes]) -> list[bytes]:
        """See ``Group.adds``."""
        return self._batch("crypto_core_ristretto255_add", POINT_BYTES, ps, qs)

    def muladds(self, xs: Sequence[bytes], ys: Sequence[bytes],
                zs: Sequence[bytes]) -> list[bytes]:
        """See ``Group.muladds``."""
        if len(zs) != len(xs):
            raise ValueError("a batch call needs values of the right sizes, as many of each")
        products = self._batch("crypto_core_ristretto255_scalar_mul", SCALAR_BYTES, xs, ys)
        return self._batch("crypto_core_ristretto255_scalar_add", SCALAR_BYTES, products, zs)

    def scalars(self, wides: Sequence[bytes]) -> list[bytes]:
        """See ``Group.scalars``."""
        return self._batch("crypto_core_ristretto255_scalar_reduce", WIDE_BYTES, wides)

    def are_points(self, points: Sequence[bytes]) -> list[bool]:
        """See ``Group.are_points``: a value of another size is no point (as ``is_point``)."""
        if not _all_sized(points, POINT_BYTES):
            return [self.is_point(p) for p in points]
        out = self._batch("crypto_core_ristretto255_is_valid_point", POINT_BYTES, points, width=1)
        return [value == b"\x01" and p != IDENTITY for value, p in zip(out, points)]
