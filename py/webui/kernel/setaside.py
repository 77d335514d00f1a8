"""Saves that can't be loaded or shown are set aside: kept, never in the way of the next boot.

A bad save under `key` moves to ``<key>.set-aside.<stamp>`` (milliseconds since the epoch,
made unique), so a second bad save never overwrites the first; the latest `KEEP` of each key
are kept. When the browser's storage is full, the oldest set-aside saves (of any key) are
dropped to make room; if the text still can't be stored, it is logged instead, and the page
boots all the same.

Browser-free: `storage` is anything with localStorage's methods (the page passes
``js.localStorage``, whose missing items read as JavaScript's null, not None).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol

KEEP: Final = 5
"""Set-aside saves kept per key, the latest ones."""
MARK: Final = ".set-aside"
"""What a key becomes set aside: ``<key>.set-aside.<stamp>`` (earlier versions: no stamp)."""


class Storage(Protocol):
    """The part of the Web Storage API used here."""

    length: int

    def key(self, index: int) -> Any:
        """The name of the `index`-th item (null past the end)."""

    def getItem(self, key: str) -> Any:
        """The item's text, or null."""

    def setItem(self, key: str, value: str) -> None:
        """Store an item; raises when the storage is full (QuotaExceededError)."""

    def removeItem(self, key: str) -> None:
        """Remove an item (nothing if there is none)."""


def _stamp(name: str, key: str | None) -> int | None:
    """The stamp of a set-aside item's `name` (-1 for an unstamped one), None if it is not a
    set-aside item (of `key`, when given)."""
    base, found, rest = name.partition(MARK)
    if not found or (key is not None and base != key):
        return None
    if rest == "":
        return -1
    digits = rest[1:]
    return int(digits) if rest[0] == "." and digits.isdigit() else None


def set_aside_keys(storage: Storage, key: str | None = None) -> list[str]:
    """The set-aside items of `key` (of every key when None), oldest first."""
    found = []
    for index in range(int(storage.length)):
        name = storage.key(index)
        if isinstance(name, str):
            stamp = _stamp(name, key)
            if stamp is not None:
                found.append((stamp, name))
    return [name for _, name in sorted(found)]


def set_aside(storage: Storage, key: str, text: str, stamp: int,
              log: Callable[[str], Any] = print) -> str | None:
    """Move the save `text` of `key` aside (see the module's docstring); the item's new
    name, or None when even dropping every older set-aside save left no room (`log` then
    gets the text). `key` itself is always removed, so the bad save is not read again."""
    storage.removeItem(key)  # first: the room it took is what its copy needs
    while isinstance(storage.getItem(f"{key}{MARK}.{stamp}"), str):
        stamp += 1
    name = f"{key}{MARK}.{stamp}"
    while True:
        try:
            storage.setItem(name, text)
            break
        except Exception:  # noqa: BLE001 - QuotaExceededError (a JsException in Pyodide)
            older = set_aside_keys(storage)
            if not older:
                log(f"{key}: storage full, the save set aside could not be kept: {text}")
                return None
            storage.removeItem(older[0])
    for old in set_aside_keys(storage, key)[:-KEEP]:
        storage.removeItem(old)
    return name
