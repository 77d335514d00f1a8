"""webui.browser.boot.warm compiles only while the player leaves the page alone (`_until_quiet`)."""

from __future__ import annotations

import asyncio
import importlib
import sys
import types

import pytest


class Clock:
    """performance.now() in ms, moved on by the fake asyncio.sleep."""

    def __init__(self) -> None:
        self.ms = 10_000.0
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.ms


WarmBoot = tuple[types.ModuleType, Clock]


@pytest.fixture
def warm_boot(monkeypatch: pytest.MonkeyPatch) -> WarmBoot:
    """webui.browser.boot.warm with `js.performance.now` on a fake clock and asyncio.sleep advancing
    it."""
    clock = Clock()
    fake_js = types.ModuleType("js")
    fake_js.performance = types.SimpleNamespace(now=clock.now)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", fake_js)
    monkeypatch.delitem(sys.modules, "webui.browser.boot.warm", raising=False)
    module = importlib.import_module("webui.browser.boot.warm")
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        clock.sleeps.append(seconds)
        clock.ms += seconds * 1000
        await real_sleep(0)

    monkeypatch.setattr(module.asyncio, "sleep", sleep)
    return module, clock


def test_waits_until_the_last_input_is_quiet_long_enough(warm_boot: WarmBoot) -> None:
    module, clock = warm_boot
    last = clock.ms - 200  # a click 200 ms ago
    asyncio.run(module._until_quiet(lambda: last))
    assert clock.ms - last >= module.QUIET_MS


def test_goes_on_at_once_when_nobody_clicked_lately(warm_boot: WarmBoot) -> None:
    module, clock = warm_boot
    start = clock.ms
    asyncio.run(module._until_quiet(lambda: start - 60_000))
    assert clock.ms == start  # only the one yield to the page (a sleep of 0)
    assert clock.sleeps == [0]


def test_keeps_waiting_while_the_player_keeps_clicking(warm_boot: WarmBoot) -> None:
    module, clock = warm_boot
    clicks = [clock.ms + 1000 * i for i in range(5)]  # one click a second for 5 seconds

    def last_input() -> float:
        return max([t for t in clicks if t <= clock.ms], default=0.0)

    asyncio.run(module._until_quiet(last_input))
    assert clock.ms - clicks[-1] >= module.QUIET_MS
