"""Setting a bad save aside (webui/kernel/setaside.py) against a stand-in for localStorage:
every bad save is kept side by side, the latest few of each key, and a full storage never
stops the boot."""

from __future__ import annotations

import pytest

from webui.kernel.setaside import KEEP, set_aside, set_aside_keys

KEY = "lostcities.match"


class QuotaExceededError(Exception):
    """What the browser raises when the storage is full."""


class FakeStorage:
    """localStorage's methods over a dict, with a quota on the total text (keys included);
    a missing item reads as None, as JavaScript's null would be turned into by the page."""

    def __init__(self, quota: int = 10**9) -> None:
        self.items: dict[str, str] = {}
        self.quota = quota

    @property
    def length(self) -> int:
        return len(self.items)

    def key(self, index: int) -> str | None:
        names = list(self.items)
        return names[index] if index < len(names) else None

    def getItem(self, key: str) -> str | None:  # noqa: N802 - the Web Storage API's name
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        used = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
        if used + len(key) + len(value) > self.quota:
            raise QuotaExceededError("the quota has been exceeded")
        self.items[key] = value

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.items.pop(key, None)


def test_a_second_bad_save_does_not_overwrite_the_first() -> None:
    storage = FakeStorage()
    storage.setItem(KEY, "bad one")
    first = set_aside(storage, KEY, "bad one", 1000)
    storage.setItem(KEY, "bad two")
    second = set_aside(storage, KEY, "bad two", 1000)  # the same millisecond
    assert first == f"{KEY}.set-aside.1000" and second == f"{KEY}.set-aside.1001"
    assert storage.items == {first: "bad one", second: "bad two"}
    assert set_aside_keys(storage, KEY) == [first, second]


def test_only_the_latest_of_each_key_are_kept() -> None:
    storage = FakeStorage()
    storage.setItem(f"{KEY}.set-aside", "from an earlier version")  # unstamped: the oldest
    storage.setItem("other.set-aside.5", "another key's")
    for stamp in range(20, 20 + KEEP + 2):
        set_aside(storage, KEY, f"bad {stamp}", stamp)
    kept = set_aside_keys(storage, KEY)
    assert kept == [f"{KEY}.set-aside.{s}" for s in range(22, 22 + KEEP)]
    assert storage.getItem("other.set-aside.5") == "another key's"
    assert set_aside_keys(storage) == ["other.set-aside.5", *kept]


def test_a_full_storage_drops_the_oldest_set_aside_saves_and_retries() -> None:
    storage = FakeStorage(quota=250)
    storage.setItem(f"{KEY}.set-aside.1", "x" * 60)
    storage.setItem("lostcities-online-host.set-aside.2", "y" * 60)
    storage.setItem("lostcities.lang", "es")
    storage.setItem(KEY, "z" * 10)
    # the bad save's own room is freed first, and the oldest set-aside save makes room
    name = set_aside(storage, KEY, "z" * 100, 3)
    assert name == f"{KEY}.set-aside.3" and storage.getItem(name) == "z" * 100
    assert storage.getItem(f"{KEY}.set-aside.1") is None
    assert storage.getItem("lostcities-online-host.set-aside.2") == "y" * 60
    assert storage.getItem("lostcities.lang") == "es" and storage.getItem(KEY) is None


def test_a_save_too_large_to_keep_is_logged_and_removed() -> None:
    storage = FakeStorage(quota=100)
    storage.setItem(f"{KEY}.set-aside.1", "x" * 20)
    storage.setItem(KEY, "small")
    logged: list[str] = []
    assert set_aside(storage, KEY, "w" * 500, 2, logged.append) is None
    assert storage.items == {}  # every older set-aside save was tried; the bad save is gone
    assert len(logged) == 1 and "w" * 500 in logged[0] and "storage full" in logged[0]


@pytest.mark.parametrize("name", ["lostcities.match", "lostcities.match.set-aside.x",
                                  "lostcities.match.set-asidex", "set-aside.3"])
def test_other_items_are_not_set_aside_ones(name: str) -> None:
    storage = FakeStorage()
    storage.setItem(name, "kept")
    assert set_aside_keys(storage) == []
