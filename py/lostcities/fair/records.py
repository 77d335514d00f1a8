"""The records a fair peer keeps: the agreed setup, each masked deck, a pending draw and what
a seat owes."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from ..moves import Draw
from ..options import Options
from .derive import RoleSecrets, digest
from .items import Item, ItemTable
from .wire import VERSION

OFFERS = ((0, 1), (2, 3))
"""Positions of the jobs deck offered to seat 0 and seat 1 (objectives are dealt alike)."""


@dataclass(frozen=True)
class Setup:
    """What both peers agree on before the match: checked in the first shuffle messages."""

    seat: int
    options: Options
    names: tuple[str, str]
    first_player: int | None
    """``None``: a coin both peers toss decides who starts round 1."""

    def digest(self) -> str:
        """A digest of everything but the seat."""
        text = json.dumps({"fair": VERSION, "options": self.options.to_json(),
                           "names": list(self.names), "first_player": self.first_player},
                          sort_keys=True)
        return digest(text)


@dataclass
class Deck:
    """One masked deck: public vectors and keys, this peer's secrets, and what it has opened."""

    scope: int
    name: str
    table: ItemTable
    inner: int
    """The seat that shuffles first."""
    mine: RoleSecrets | None
    """This peer's key and permutation (the outer peer's are bound to the first shuffle, so
    they exist once it has come)."""
    x: tuple[bytes, ...] | None = None
    y: tuple[bytes, ...] | None = None
    publics: dict[int, bytes] = field(default_factory=dict)
    """Each seat's public key for the deck (from its shuffle proof)."""
    known: dict[int, Item] = field(default_factory=dict)
    where: dict[Item, int] = field(default_factory=dict)
    given: tuple[set[int], set[int]] = field(default_factory=lambda: (set(), set()))
    """Per seat, the positions whose share that seat has sent (public to both)."""

    @property
    def size(self) -> int:
        """How many items the deck holds."""
        return len(self.table.items)

    def copy(self) -> Deck:
        """A copy whose mutable parts are independent."""
        other = copy.copy(self)
        other.publics, other.known, other.where = dict(self.publics), dict(self.known), dict(
            self.where)
        other.given = (set(self.given[0]), set(self.given[1]))
        return other


@dataclass(frozen=True)
class Pending:
    """A deck draw that can't be applied before both peers open something: the round's last
    card (``final``: both reveal the round first) or the one that turns up the mixup."""

    seat: int
    move: Draw
    kind: str


@dataclass
class Debts:
    """What one seat owes the other now (each is paid in that seat's very next message)."""

    shuffle: tuple[int, int] | None = None
    shares: dict[str, set[int]] = field(default_factory=dict)
    reveal: set[int] = field(default_factory=set)
    pick: bool = False

    def __bool__(self) -> bool:
        return bool(self.shuffle or self.shares or self.reveal or self.pick)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, for evidence and status."""
        return {"shuffle": list(self.shuffle) if self.shuffle else None,
                "shares": {n: sorted(p) for n, p in self.shares.items()},
                "reveal": sorted(self.reveal), "pick": self.pick}
