"""The page's DOM glue, the one place that touches the document (Pyodide only).

`Page` builds the containers, listens to clicks and keys (one delegated listener, dom.py),
writes each `Frame` the controller makes (webui/kernel/frame.py) and reads the setup form. Writing
puts in only what changed: the screen's keyed regions whose HTML differs from what is shown
(regions.py), the banners and the Rules page when their HTML changed, the static form's words
when the language changed. Keyboard focus on a replaced control is put back on its twin.
It also carries the page's other browser ties the controller needs (`Display` in
webui/match/controller.py): timers, the page being left, the clock, the app update (window.lcPwa,
static/sw-register.js).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, jsnull  # type: ignore[import-not-found]

from webui.browser.dom import AfterPaint, Patcher, click_listener
from webui.kernel.frame import Frame
from webui.kernel.regions import Region, diff, parse
from webui.text.i18n import t

UPDATE_READY_EVENT = "lc:update-ready"
"""Dispatched on ``window`` when a new version is installed and waits (static/sw-register.js)."""


def _query(selector: str) -> Any:
    """The first element matching `selector`, or None."""
    element = js.document.querySelector(selector)
    return None if element is None or element is jsnull else element


def _present(value: Any) -> Any:
    """`value`, or None for JavaScript's null and undefined."""
    return None if value is None or value is jsnull else value


class Page:
    """The document of this page, as the controller writes and reads it."""

    def __init__(self) -> None:
        self.last_input = 0.0
        """performance.now() of the last click or key press."""
        self._shown: Region | None = None  # the screen's regions as they are in the DOM
        self._written: dict[str, object] = {}  # other things last written to the page
        self._proxies: list[Any] = []  # Python callbacks held by JavaScript

    def _proxy(self, callback: Callable[..., Any]) -> Any:
        proxy = create_proxy(callback)
        self._proxies.append(proxy)
        return proxy

    def mount(self, on_click: Callable[[str, dict[str, str]], None],
              on_escape: Callable[[], None]) -> None:
        """Build the containers under ``#app`` and listen: `on_click(action, data)` for a
        click on an enabled ``[data-action]`` control (its other ``data-*`` in `data`),
        `on_escape()` for the Escape key."""
        app = _query("#app")
        app.insertAdjacentHTML(
            "beforeend",
            '<div id="notice"></div><div id="screen" hidden></div>'
            '<div id="rules" hidden></div>',
        )
        self._screen, self._notice = _query("#screen"), _query("#notice")
        self._rules, self._setup = _query("#rules"), _query("#setup")
        self._patcher = Patcher(self._screen)

        def clicked(text: str) -> None:
            self.last_input = js.performance.now()
            data = json.loads(text)
            on_click(data.pop("action"), data)

        def key(event: Any) -> None:
            self.last_input = js.performance.now()
            if event.key == "Escape":
                on_escape()

        js.document.addEventListener("click", click_listener(self._proxy(clicked)))
        js.document.addEventListener("keydown", self._proxy(key))

    def ready(self) -> None:
        """Say the page is interactive (``html[data-ready=true]``)."""
        js.document.documentElement.dataset.ready = "true"

    # -- writing a frame -----------------------------------------------------------------------

    def show(self, frame: Frame) -> None:
        """Write `frame` where it differs from what is shown, and put the focus where it
        belongs. If writing fails half way, the next frame is written afresh."""
        try:
            self._show(frame)
        except Exception:
            self._shown = None
            raise

    def _show(self, frame: Frame) -> None:
        first = "lang" not in self._written
        if self._changed("lang", frame.lang) and not (first and self._shell_in(frame.lang)):
            self._translate_static(frame.lang)
        if self._changed("banners", frame.banners):
            self._notice.innerHTML = frame.banners
        new = parse(frame.doc)
        ops = diff(self._shown, new)
        self._shown = new
        focus, kept = None, True
        if ops:
            found, focus, kept = self._patcher.apply(ops)
            if not found:  # the DOM was not what was shown: start afresh
                self._screen.innerHTML = new.html
        body = js.document.body
        name = frame.screen
        before = str(body.dataset.screen or "")
        if name != before:
            body.dataset.screen = name
            if name == "setup":  # the guided first round, offered until a match is finished
                js.lcFirstGame()
        if self._changed("thinking", frame.thinking):
            body.toggleAttribute("data-thinking", frame.thinking)
        rules_open = bool(frame.rules)
        if self._changed("rules", frame.rules):
            self._rules.innerHTML = frame.rules
            self._rules.hidden = not rules_open
        if self._setup and self._changed("setup-hidden", rules_open or name != "setup"):
            self._setup.hidden = rules_open or name != "setup"
        if self._changed("screen-hidden", rules_open or name == "setup"):
            self._screen.hidden = rules_open or name == "setup"
        if frame.focus is not None:
            element = _query(frame.focus)
            if element:
                element.focus()
        elif name != before:
            if not self._refocus(focus):
                self._announce()
        elif not kept:
            self._refocus(focus)  # the focused control was replaced: focus its twin

    def _changed(self, what: str, value: object) -> bool:
        """Whether `value` differs from what was last written for `what` (and remember it)."""
        if what in self._written and self._written[what] == value:
            return False
        self._written[what] = value
        return True

    @staticmethod
    def _shell_in(lang: str) -> bool:
        """Whether the static setup form is in `lang` already: index.html's own English, or
        the player's language that static/vendor/shell-lang.js put in before the first paint
        (from the same catalogue; either sets ``html[lang]``)."""
        return str(js.document.documentElement.lang) == lang

    def _translate_static(self, lang: str) -> None:
        """Put `lang` into the static setup form (its values untouched)."""
        js.document.documentElement.lang = lang
        for element in js.document.querySelectorAll("[data-i18n]"):
            element.textContent = t(lang, str(element.dataset.i18n))
        for element in js.document.querySelectorAll("[data-i18n-label]"):
            element.setAttribute("aria-label", t(lang, str(element.dataset.i18nLabel)))

    def _announce(self) -> None:
        """A new screen: back to the top, focus on its heading (read out by screen readers)."""
        js.window.scrollTo(0, 0)
        heading = _present(self._screen.querySelector("h1"))
        if heading is not None:
            heading.setAttribute("tabindex", "-1")  # focusable by script
            heading.focus()

    def _refocus(self, selector: str | None) -> bool:
        """Focus the enabled, shown control matching `selector`; False if there is none."""
        if not selector:
            return False
        element = _query(f"#app {selector}")
        if element and not element.disabled and _present(element.closest("[hidden]")) is None:
            element.focus()
            return True
        return False

    # -- reading the page ----------------------------------------------------------------------

    def form_values(self) -> dict[str, object]:
        """The setup form's current values by ``data-field`` or ``data-option`` name: a
        checkbox's state, the checked radio button's value, any other control's value."""
        values: dict[str, object] = {}
        for element in js.document.querySelectorAll("#setup [data-field], #setup [data-option]"):
            name = str(_present(element.getAttribute("data-field"))
                       or element.getAttribute("data-option"))
            kind = str(element.type)
            if kind == "checkbox":
                values[name] = bool(element.checked)
            elif kind != "radio" or element.checked:
                values[name] = str(element.value)
        return values

    def field(self, name: str) -> str:
        """The text in the screen's ``[data-field=name]`` input ("" if there is none)."""
        element = _query(f'[data-field="{name}"]')
        return "" if element is None else str(element.value)

    def log_open(self) -> bool:
        """Whether the player has unfolded the move log on the screen shown."""
        return self._shown is not None and _query("#screen details.log[open]") is not None

    def pending_start(self) -> bool:
        """Whether Start was pressed while Python booted (boot/preboot.js); asked once."""
        body = js.document.body
        if body.getAttribute("data-pending-start") != "true":
            return False
        body.removeAttribute("data-pending-start")
        return True

    def hide_setup_wait(self) -> None:
        """Hide the setup's "starting..." line (shown when Start was pressed during the boot)."""
        wait = _query("#setup-wait")
        if wait:
            wait.hidden = True

    # -- the page's other browser ties ---------------------------------------------------------

    def after_paint(self, callback: Callable[[], None]) -> AfterPaint:
        """A request to run `callback()` once after the next paint (dom.AfterPaint)."""
        return AfterPaint(callback)

    def every_second(self, callback: Callable[[], None]) -> None:
        """Run `callback()` once a second from now on."""
        js.setInterval(self._proxy(callback), 1000)

    def on_window(self, event: str, callback: Callable[[], None]) -> None:
        """Run `callback()` on each `event` of ``window`` (``pagehide``, ``online``, ...)."""
        js.addEventListener(event, self._proxy(lambda _event: callback()))

    def clock(self) -> float:
        """Seconds on the page's monotonic clock (performance.now)."""
        return float(js.performance.now()) / 1000

    def stamp(self) -> int:
        """Milliseconds since the epoch (Date.now)."""
        return int(js.Date.now())

    def log(self, text: str) -> None:
        """Report a problem on the console."""
        js.console.error(text)

    def update_ready(self) -> bool:
        """Whether a new version of the app is installed and waits for the player."""
        bridge = getattr(js.window, "lcPwa", None)
        return bridge is not None and bool(bridge.updateReady())

    def apply_update(self) -> None:
        """Switch to the waiting version: the page reloads on it (the saved match stays)."""
        bridge = getattr(js.window, "lcPwa", None)
        if bridge is not None:
            bridge.applyUpdate()

    def on_update_ready(self, callback: Callable[[], None]) -> None:
        """Run `callback()` when an update becomes ready (to offer it between games)."""
        self.on_window(UPDATE_READY_EVENT, callback)

    def reload(self) -> None:
        """Load the page again."""
        js.location.reload()
