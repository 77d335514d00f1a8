"""A round's audit: the opponent's revealed seed must reproduce every step it took.

At the end of a round (and, for the match scope, of the match) each peer reveals the scope's
seed. From it the other re-derives that peer's mask, permutation and keys, recomputes the
shuffle steps that peer sent, checks its commitments and every key it sent during the round,
and so learns the whole deck: the item at every position, without a single unmasking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .derive import RoleSecrets, key_commitment, role_secrets
from .errors import CheatDetected
from .group import Group
from .items import ItemTable
from .masking import item_order, mask_all, rekey, remask


def _first_difference(sent: Sequence[bytes] | None, expected: Sequence[bytes]) -> int | None:
    if sent is None or len(sent) != len(expected):
        return -1
    return next((j for j, (a, b) in enumerate(zip(sent, expected)) if a != b), None)


def _fail(what: str, **evidence: Any) -> CheatDetected:
    return CheatDetected(
        "audit", f"The opponent's revealed secrets do not reproduce {what}: the round was "
        "not played fair", evidence)


def _check_steps(group: Group, table: ItemTable, theirs: RoleSecrets, inner: bool,
                 steps: tuple[Sequence[bytes] | None, Sequence[bytes] | None,
                              Sequence[bytes] | None],
                 commits: Sequence[bytes] | None, where: dict[str, Any]) -> None:
    x, y, z = steps
    name, scope = where["deck"], where["scope"]
    if inner:
        assert theirs.mask is not None and y is not None
        pos = _first_difference(x, mask_all(group, theirs.mask, table.points, theirs.perm))
        if pos is not None:
            raise _fail(f"its first shuffle of the {name}", step=1, position=pos, **where)
        pos = _first_difference(z, rekey(group, theirs.mask, theirs.keys, y))
        if pos is not None:
            raise _fail(f"its re-keying of the {name}", step=3, position=pos, **where)
        expected = [key_commitment(scope, name, j, k) for j, k in enumerate(theirs.keys)]
        pos = _first_difference(commits, expected)
        if pos is not None:
            raise _fail(f"its key commitments for the {name}", step=3, position=pos, **where)
    else:
        assert x is not None
        pos = _first_difference(y, remask(group, theirs.keys, x, theirs.perm))
        if pos is not None:
            raise _fail(f"its shuffle of the {name}", step=2, position=pos, **where)


def audit_deck(
    group: Group, table: ItemTable, scope: int, name: str, seed: bytes, inner: bool,
    steps: tuple[Sequence[bytes] | None, Sequence[bytes] | None, Sequence[bytes] | None],
    commits: Sequence[bytes] | None, keys_sent: dict[int, bytes], recompute: bool = True,
) -> RoleSecrets:
    """Check one deck against the opponent's ``seed`` (``inner``: the opponent was the inner
    peer). ``steps`` are the three vectors as sent, ``keys_sent`` the keys it sent during the
    scope. Returns its secrets; ``CheatDetected("audit")`` at the first thing that differs.
    (``recompute=False`` checks the keys only: for a transcript audited before.)"""
    theirs = role_secrets(group, seed, name, len(table.items), inner)
    where: dict[str, Any] = {"scope": scope, "deck": name}
    if recompute:
        _check_steps(group, table, theirs, inner, steps, commits, where)
    for pos, key in sorted(keys_sent.items()):
        if theirs.keys[pos] != key:
            raise _fail(f"the key it sent for {name} position {pos}", position=pos, **where)
    return theirs


def deck_order(inner: RoleSecrets, outer: RoleSecrets) -> tuple[int, ...]:
    """The item index at every position, from both peers' secrets."""
    return item_order(inner.perm, outer.perm)
