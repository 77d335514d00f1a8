"""The things a deck holds, and the group element that stands for each.

Five kinds of deck: ``coin`` (who starts round 1: seat 0 or 1), ``jobs``, ``cards`` (card ids,
the three handshakes of a colour distinct), ``objectives`` and ``mixups``. An item's point is
``Group.point`` of a SHA-512 of its label: fixed and public, and with no known discrete-log
relation between any two, so a key that opens a position can't be bent to open another item.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..cards import full_deck
from ..jobs import JOBS
from ..mixups import MIXUPS
from ..objectives import OBJECTIVES
from .derive import DOMAIN
from .group import Group

Item = int | str
"""A coin side or card id (int), or a job, objective or mixup id (str)."""

DECK_NAMES = ("coin", "jobs", "cards", "objectives", "mixups")
MAX_DECK = 72


def deck_items(name: str, sixth_colour: bool) -> tuple[Item, ...]:
    """The items of a deck, in canonical order."""
    if name == "coin":
        return (0, 1)
    if name == "cards":
        return full_deck(sixth_colour)
    if name == "jobs":
        return tuple(JOBS)
    if name == "objectives":
        return tuple(OBJECTIVES)
    return tuple(MIXUPS)


@dataclass(frozen=True)
class ItemTable:
    """A deck's items, their points and the way back from a point."""

    items: tuple[Item, ...]
    points: tuple[bytes, ...]
    index: dict[bytes, int]


_TABLES: dict[tuple[str, str, bool], ItemTable] = {}


def item_table(group: Group, name: str, sixth_colour: bool) -> ItemTable:
    """The (cached) table of a deck's items for ``group``."""
    key = (group.name, name, sixth_colour)
    table = _TABLES.get(key)
    if table is None:
        items = deck_items(name, sixth_colour)
        points = tuple(
            group.point(hashlib.sha512(DOMAIN + f"item/{name}/{item}".encode()).digest())
            for item in items)
        index = {p: i for i, p in enumerate(points)}
        if len(index) != len(points) or not all(group.is_point(p) for p in points):
            raise AssertionError(f"the {name} items do not map to distinct valid points")
        table = _TABLES[key] = ItemTable(items, points, index)
    return table
