"""The computer's thinking, for its seat and for the hint: the bot of an app level, its move
as stepwise work (`think_steps`), and that work run in time slices (`run_sliced`) so the page
stays responsive. Browser-free: between two slices it awaits the `pause` handed in.

The bots (`lostcities.bots`) are imported by name when the computer first thinks: the page's
first screen does without them, so the build puts them in app-more.zip (boot/build/app_zip.py),
and a page that could not load that zip raises ImportError here, not at its boot.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import time
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import TYPE_CHECKING

from webui.match.seats import Move, Steps, View

if TYPE_CHECKING:
    from lostcities.bots import Bot

BOTS = "lostcities.bots"
"""The bots' package, imported by name (`bots`)."""
LEVEL_NAMES = ("easy", "medium", "hard")
"""The app's levels, the keys of the bots' ``LEVELS`` (known without importing them)."""

HARD_TIME_LIMIT = 0.7
"""Seconds of wall time a Hard move may think (the page's slices included), so it moves in
about a second even where Python runs ~3x slower than native (Pyodide)."""
SLICE = 0.015
"""Seconds of thinking between two pauses for the browser."""


def level_bot(level: str, time_limit: float | None = HARD_TIME_LIMIT,
              playouts: int | None = None) -> Bot:
    """The bot of an app level (``easy``, ``medium``, ``hard``); ValueError if unknown.

    Hard thinks at most `time_limit` seconds a move (None: its whole playout budget, which
    makes it deterministic); `playouts` overrides the level's budget."""
    check_level(level)
    found = bots()
    name, budget = found.LEVELS[level]
    if name == "strong":
        strong: Bot = found.StrongBot(playouts or budget or 1, time_limit=time_limit)
        return strong
    made: Bot = found.make_bot(name)
    return made


def check_level(level: str) -> None:
    """ValueError unless `level` is one of LEVEL_NAMES."""
    if level not in LEVEL_NAMES:
        raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVEL_NAMES)}")


def bots() -> ModuleType:
    """The bots' package (ImportError where app-more.zip could not be loaded)."""
    return importlib.import_module(BOTS)


def think_steps(bot: Bot, view: View, rng: random.Random) -> Steps:
    """The bot's move for `view` as stepwise work (bots without steps answer at once)."""
    if isinstance(bot, bots().StrongBot):
        move: Move = yield from bot.choose_steps(view, rng)
        return move
    return bot.choose(view, rng)


async def run_sliced(steps: Steps, slice_s: float = SLICE, pace: float = 0.0,
                     pause: Callable[[float], Awaitable[None]] = asyncio.sleep) -> Move:
    """Run `steps` in slices of about `slice_s` seconds with `await pause(0)` between them
    (the browser handles its events there); takes at least `pace` seconds in all."""
    start = time.perf_counter()
    mark = start
    while True:
        try:
            next(steps)
        except StopIteration as done:
            move: Move = done.value
            break
        if time.perf_counter() - mark >= slice_s:
            await pause(0)
            mark = time.perf_counter()
    rest = pace - (time.perf_counter() - start)
    await pause(max(rest, 0.0))
    return move
