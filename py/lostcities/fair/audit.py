"""A round's audit: the opponent's revealed seed must reproduce every step it took.

At the end of a round (and, for the match scope, of the match) each peer reveals the scope's
seed. From it the other re-derives that peer's key and permutation, recomputes the shuffle it
sent and checks its public key (every share it sent was proven against that key when it came),
and so learns the whole deck: the item at every position, without a single unmasking. The
proofs checked each step when it came; the audit is the second line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .derive import RoleSecrets, bound_to, role_secrets
from .errors import CheatDetected
from .group import Group
from .items import ItemTable
from .masking import item_order


def _fail(what: str, **evidence: Any) -> CheatDetected:
    return CheatDetected(
        "audit", f"The opponent's revealed secrets do not reproduce {what}: the round was "
        "not played fair", evidence)


def audit_deck(
    group: Group, table: ItemTable, scope: int, name: str, seed: bytes, inner: bool,
    steps: tuple[Sequence[bytes], Sequence[bytes]], public: bytes, recompute: bool = True,
) -> RoleSecrets:
    """Check one deck against the opponent's ``seed`` (``inner``: the opponent shuffled
    first). ``steps`` are both shuffles as sent, ``public`` the opponent's public key for the
    deck. Returns its secrets; ``CheatDetected("audit")`` at the first thing that differs.
    (``recompute=False`` skips the recomputation: for a transcript audited before.)"""
    x, y = steps
    theirs = role_secrets(group, seed, name, len(table.items), inner,
                          b"" if inner else bound_to(x))
    where: dict[str, Any] = {"scope": scope, "deck": name}
    if group.base(theirs.key) != public:
        raise _fail(f"its public key for the {name}", **where)
    if recompute:
        source, sent, step = (table.points, x, 1) if inner else (x, y, 2)
        for j, i in enumerate(theirs.perm):
            if group.mult(theirs.key, source[i]) != sent[j]:
                raise _fail(f"its shuffle of the {name}", step=step, position=j, **where)
    return theirs


def deck_order(inner: RoleSecrets, outer: RoleSecrets) -> tuple[int, ...]:
    """The item index at every position, from both peers' secrets."""
    return item_order(inner.perm, outer.perm)
