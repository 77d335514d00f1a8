"""Known-answer vectors for a ``Group``: two implementations (PyNaCl natively, libsodium in the
browser) must give exactly the same bytes, or the two peers could not play each other."""

from __future__ import annotations

import hashlib
from typing import Any

from .derive import role_secrets
from .group import Group
from .items import item_table
from .masking import mask_all, rekey, remask, unmask


def _bytes(label: str, size: int) -> bytes:
    return hashlib.shake_256(f"lostcities-fair/vectors/{label}".encode()).digest(size)


def vectors(group: Group) -> dict[str, Any]:
    """Every operation of ``group`` on fixed inputs, and a small deck shuffled and opened
    through the protocol's own steps; all bytes as hex."""
    point = group.point(_bytes("uniform", 32))
    a, b = group.scalar(_bytes("a", 64)), group.scalar(_bytes("b", 64))
    out: dict[str, Any] = {
        "point": point.hex(), "a": a.hex(), "b": b.hex(),
        "mul": group.mul(a, b).hex(), "invert": group.invert(a).hex(),
        "mult": group.mult(a, point).hex(),
        "mult_ba": group.mult(b, group.mult(a, point)).hex(),
        "valid": [group.is_point(p) for p in (point, bytes(32), b"\x01" + bytes(31),
                                              b"\xff" * 32, _bytes("junk", 32))],
        "items": {name: [p.hex() for p in item_table(group, name, True).points[:3]]
                  for name in ("coin", "jobs", "cards", "objectives", "mixups")},
    }
    table = item_table(group, "jobs", False)
    inner = role_secrets(group, _bytes("inner", 32), "jobs", 6, True)
    outer = role_secrets(group, _bytes("outer", 32), "jobs", 6, False)
    assert inner.mask is not None
    x = mask_all(group, inner.mask, table.points, inner.perm)
    y = remask(group, outer.keys, x, outer.perm)
    z = rekey(group, inner.mask, inner.keys, y)
    opened = [table.index[unmask(group, z[j], inner.keys[j], outer.keys[j])] for j in range(6)]
    out["deck"] = {"x": [p.hex() for p in x], "y": [p.hex() for p in y],
                   "z": [p.hex() for p in z], "opened": opened}
    return out
