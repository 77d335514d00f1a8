"""Known-answer vectors for a ``Group``: two implementations (rbcl natively, libsodium.js in the
browser) must give exactly the same bytes, or the two peers could not play each other."""

from __future__ import annotations

import hashlib
from typing import Any

from .derive import bound_to, role_secrets
from .group import Group
from .items import item_table
from .proofs import share, shuffle, verify_shuffle


def _bytes(label: str, size: int) -> bytes:
    return hashlib.shake_256(f"lostcities-fair/vectors/{label}".encode()).digest(size)


def vectors(group: Group) -> dict[str, Any]:
    """Every operation of ``group`` on fixed inputs, and a small deck shuffled and opened
    through the protocol's own steps, proofs and shares; all bytes as hex."""
    point = group.point(_bytes("uniform", 64))
    a, b = group.scalar(_bytes("a", 64)), group.scalar(_bytes("b", 64))
    out: dict[str, Any] = {
        "point": point.hex(), "a": a.hex(), "b": b.hex(),
        "mul": group.mul(a, b).hex(), "invert": group.invert(a).hex(),
        "mult": group.mult(a, point).hex(),
        "mult_ba": group.mult(b, group.mult(a, point)).hex(),
        "valid": [group.is_point(p) for p in (point, bytes(32), b"\x01" + bytes(31),
                                              b"\xff" * 32, _bytes("junk", 32),
                                              bytes([point[0] ^ 1]) + point[1:])],
        "items": {name: [p.hex() for p in item_table(group, name, True).points[:3]]
                  for name in ("coin", "jobs", "cards", "objectives", "mixups")},
    }
    table = item_table(group, "jobs", False)
    inner = role_secrets(group, _bytes("inner", 32), "jobs", 6, True)
    x, proof_x = shuffle(group, _bytes("inner", 32), b"vectors/1", inner.key, inner.perm,
                         table.points)
    outer = role_secrets(group, _bytes("outer", 32), "jobs", 6, False, bound_to(x))
    y, proof_y = shuffle(group, _bytes("outer", 32), b"vectors/2", outer.key, outer.perm, x)
    shares = [share(group, _bytes("inner", 32), b"vectors/share", inner.key, p) for p in y]
    opened = [table.index[group.mult(group.invert(outer.key), s[:32])] for s in shares]
    out["deck"] = {"x": [p.hex() for p in x], "y": [p.hex() for p in y],
                   "proofs": [proof_x.to_bytes().hex(), proof_y.to_bytes().hex()],
                   "shares": [s.hex() for s in shares], "opened": opened,
                   "verified": [verify_shuffle(group, b"vectors/1", table.points, x, proof_x),
                                verify_shuffle(group, b"vectors/2", x, y, proof_y)]}
    terms = [group.scalar(_bytes(f"term/{i}", 64)) for i in range(8)]
    out["ops"] = {"base": group.base(a).hex(), "add": group.add(point, group.base(b)).hex(),
                  "sub": group.sub(point, group.base(b)).hex(),
                  "scalar_add": group.scalar_add(a, b).hex(),
                  "scalar_sub": group.scalar_sub(a, b).hex(),
                  "combine": group.combine(terms, table.points + table.points[:2]).hex(),
                  "mults": [p.hex() for p in group.mults(terms[:6], table.points)],
                  "bases": [p.hex() for p in group.bases(terms[:3])],
                  "adds": [p.hex() for p in group.adds(table.points[:3], table.points[3:])],
                  "muladds": [s.hex() for s in group.muladds(terms[:3], terms[3:6],
                                                             terms[5:])],
                  "scalars": [s.hex() for s in group.scalars([_bytes("w", 64), bytes(64)])],
                  "are_points": group.are_points([point, bytes(32), b"\xff" * 32])}
    return out
