"""The Web Locks API as webui/online/seatlock.py's `Locks` (Pyodide only).

`navigator.locks.request(name, {ifAvailable: true} or {steal: true}, callback)`: the callback
gets the lock (or null when another tab holds it and `ifAvailable` was asked); the lock is
held until the promise the callback returns settles, which `release` does, or until the tab
closes. A lock stolen by another tab makes this tab's request promise reject with an
``AbortError``: that is `lost`. Without the API (an old browser), every lock is granted: one
tab per seat is then not enforced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, to_js  # type: ignore[import-not-found]

from webui.browser.online.net import Callbacks
from webui.online.seatlock import Release


class WebLocks:
    """`navigator.locks`, one request at a time per call (see the module's docstring)."""

    def request(self, name: str, steal: bool, answer: Callable[[Release | None], None],
                lost: Callable[[], None]) -> None:
        """Ask for lock `name` (`seatlock.Locks.request`)."""
        locks = getattr(js.navigator, "locks", None)
        if locks is None:
            answer(lambda: None)
            return
        callbacks = Callbacks()
        hold: dict[str, Any] = {"resolve": None, "released": False}

        def release() -> None:
            hold["released"] = True
            resolve, hold["resolve"] = hold["resolve"], None
            if resolve is not None:
                resolve()

        def keep(resolve: Any, _reject: Any) -> None:
            hold["resolve"] = resolve
            if hold["released"]:
                release()

        def granted(lock: Any) -> Any:
            if lock is None or getattr(lock, "name", None) != name:  # null: held elsewhere
                _safely(answer, None)
                return None
            promise = js.Promise.new(create_once_callable(keep))
            _safely(answer, release)
            return promise

        def settled(_value: Any) -> None:
            callbacks.later(0, callbacks.destroy)  # (not from inside one of them)

        def failed(error: Any) -> None:
            callbacks.later(0, callbacks.destroy)
            if str(getattr(error, "name", "")) == "AbortError" and not hold["released"]:
                _safely(lost)
            elif not hold["released"]:
                js.console.error(f"seat lock {name}: {error}")

        options = {"steal": True} if steal else {"ifAvailable": True}
        done = locks.request(name, to_js(options, dict_converter=js.Object.fromEntries),
                             callbacks(granted))
        done.then(callbacks(settled), callbacks(failed))


def _safely(function: Callable[..., None], *args: Any) -> None:
    """`function(*args)`, a failure logged rather than thrown into the browser's lock code."""
    try:
        function(*args)
    except Exception as exc:  # noqa: BLE001 - the lock stays as it is; say what broke
        js.console.error(f"seat lock: {exc!r}")
