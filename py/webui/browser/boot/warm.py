"""Faster next boots, prepared while the player leaves the page alone (`warm_up`).

1. Bytecode (webui.browser.boot.bytecode, sw.js): once the page has booted from sources and the
   player has left it alone for a moment, it compiles, a module at a time and only while no one is
   clicking, the standard library zip it booted from, then hands the new zip to the service
   worker (window.lcPwa.keepBytecode in static/sw-register.js). The next boots get it.
2. Boot snapshot (boot/snapshot.mjs): then, if this page booted the normal way, a
   worker boots a second runtime, imports the modules this page has imported and hands a
   memory snapshot of it to the service worker (window.lcBoot.makeSnapshot, from
   boot/pyodide-early.mjs). The next boots start from it.

<html data-bytecode> says how the first went: "booted" (this boot ran on kept bytecode),
"compiling", "kept", "refused" (the worker's version is not the one this page booted from:
another runtime, standard library or app), "failed". <html data-snapshot>, the second:
"making", "kept", "refused" (with the reason in the console), "failed".
Without a service worker nothing is done.
"""

from __future__ import annotations

import asyncio
import json  # imported at start-up already (PyScript's own): from the standard library zip
import sys
from collections.abc import Callable

import js  # type: ignore[import-not-found]

import webui

QUIET_MS = 1500
"""Compile only when the last click or key press is at least this old."""


def _stdlib_zip() -> str:
    """The standard library zip this boot imports from (not the app's, first on sys.path)."""
    return str(json.__loader__.archive)  # type: ignore[union-attr]


def _app_zip() -> str:
    """The app's zip this boot imports from (boot/pyodide-early.mjs writes it)."""
    return str(webui.__loader__.archive)  # type: ignore[union-attr]


def boot_key(stdlib: bytes) -> dict[str, str]:
    """What this boot ran on, as the service worker checks it (boot/sw-kept.js): the Pyodide
    release and the hashes (as in the precache list) of the standard library zip `stdlib` and
    app.zip."""
    import hashlib  # not at boot: only a page left idle gets here

    import pyodide  # type: ignore[import-not-found]

    with open(_app_zip(), "rb") as file:
        app = file.read()
    return {"runtime": str(pyodide.__version__),
            "stdlib": hashlib.sha256(stdlib).hexdigest()[:16],
            "app": hashlib.sha256(app).hexdigest()[:16]}


async def _until_quiet(last_input: Callable[[], float]) -> None:
    await asyncio.sleep(0)  # let the page handle what is waiting
    while js.performance.now() - last_input() < QUIET_MS:
        await asyncio.sleep(QUIET_MS / 1000)


async def warm_up(last_input: Callable[[], float]) -> None:
    """Compile and hand the bytecode to the service worker, unless this boot already ran on it,
    then the boot snapshot, unless this boot started from one.

    `last_input()` is the performance.now() of the player's last click or key press. A failure
    is only logged (html[data-bytecode|data-snapshot="failed"]): the game goes on as it is."""
    for name, step in (("bytecode", _keep_bytecode), ("snapshot", _keep_snapshot)):
        try:
            await step(last_input)
        except Exception as exc:  # a background task: nothing of the game depends on it
            setattr(js.document.documentElement.dataset, name, "failed")
            js.console.warn(f"{name} not kept: {exc!r}")


async def _keep_snapshot(last_input: Callable[[], float]) -> None:
    root = js.document.documentElement
    bridge = getattr(js.window, "lcBoot", None)
    if root.dataset.boot != "normal" or bridge is None or not hasattr(bridge, "makeSnapshot"):
        return
    if not hasattr(js.navigator, "serviceWorker"):
        return
    await _until_quiet(last_input)
    root.dataset.snapshot = "making"
    answer = await bridge.makeSnapshot(json.dumps(sorted(sys.modules)))
    root.dataset.snapshot = "kept" if answer.kept else "refused"
    if not answer.kept:
        js.console.warn(f"boot snapshot not kept: {answer.reason}")


async def _keep_bytecode(last_input: Callable[[], float]) -> None:
    await _until_quiet(last_input)
    from pyodide.ffi import to_js  # type: ignore[import-not-found]

    from webui.browser.boot.bytecode import BytecodeZip, booted_on_bytecode  # zipfile: not at boot

    root = js.document.documentElement
    path = _stdlib_zip()
    if booted_on_bytecode(path):
        root.dataset.bytecode = "booted"
        return
    bridge = getattr(js.window, "lcPwa", None)
    if bridge is None or not hasattr(bridge, "keepBytecode"):
        return
    if not hasattr(js.navigator, "serviceWorker"):
        return
    with open(path, "rb") as file:
        original = file.read()
    builder = BytecodeZip(path, original)
    root.dataset.bytecode = "compiling"
    while builder.step():
        await _until_quiet(last_input)
    data = builder.assemble()
    buffer = js.Uint8Array.new(len(data))
    buffer.assign(data)
    key = to_js(boot_key(original), dict_converter=js.Object.fromEntries)
    answer = await bridge.keepBytecode(key, buffer)
    root.dataset.bytecode = "kept" if answer.kept else "refused"
    if not answer.kept:
        js.console.warn(f"bytecode not kept: {answer.reason}")
