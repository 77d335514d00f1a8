"""The page's two hot paths in JavaScript, so that a click crosses into Python once and the
screen's update crosses back once (each crossing of Pyodide's FFI costs time).

- `click_listener(callback)`: the delegated click listener. It finds the ``[data-action]``
  button clicked (ignoring disabled ones) and calls ``callback(text)`` with its ``data-*``
  attributes as a JSON object (names without ``data-``; ``data-region`` left out).
- `Patcher`: carries out regions.py's operations on a container in one call, and says where
  the keyboard focus was; a text field being typed in that the patch replaces gives its twin
  the focus and the caret (a lobby that renders again while a code is typed loses no key).
- `AfterPaint`: runs a callback once the change on screen has been painted (the save after a
  move), and at once when the page is hidden or left, so that nothing pending is lost.
"""

from __future__ import annotations

import json
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from webui.kernel.regions import Op

_LISTENER = """
return (event) => {
  const button = event.target.closest ? event.target.closest("[data-action]") : null;
  if (button === null || button.disabled) return;
  const data = {};
  for (const name of button.getAttributeNames()) {
    if (name.startsWith("data-") && name !== "data-region") {
      data[name.slice(5)] = button.getAttribute(name);
    }
  }
  callback(JSON.stringify(data));
};
"""

FOCUS_KEYS = ("data-action", "data-card", "data-source", "data-colour", "data-job")
"""The attributes that name a control, to find its twin once it has been replaced."""

_PATCH = """
const active = document.activeElement;
let focus = null;
let typing = null;
if (active && active.hasAttribute && active.hasAttribute("data-action")) {
  focus = KEYS.filter((k) => active.hasAttribute(k))
    .map((k) => `[${k}="${CSS.escape(active.getAttribute(k))}"]`).join("");
} else if (active && active.matches && active.matches("input[data-field], textarea[data-field]")) {
  typing = {selector: `[data-field="${CSS.escape(active.getAttribute("data-field"))}"]`,
            start: active.selectionStart, end: active.selectionEnd,
            direction: active.selectionDirection};
}
for (const [kind, key, html, name] of JSON.parse(ops)) {
  if (kind === "all") { container.innerHTML = html; continue; }
  const element = container.querySelector(`[data-region="${key}"]`);
  if (element === null) return JSON.stringify({ok: false, focus, kept: false});
  if (kind === "set") element.setAttribute(name, html);
  else if (kind === "unset") element.removeAttribute(name);
  else if (kind === "replace") element.outerHTML = html;
  else if (kind === "remove") element.remove();
  else element.insertAdjacentHTML(kind === "before" ? "beforebegin" : "afterend", html);
}
const twin = typing && !active.isConnected ? container.querySelector(typing.selector) : null;
if (twin !== null) {  // the field typed in was replaced: its twin takes the keys and the caret
  twin.focus();
  if (typing.start !== null) {
    try { twin.setSelectionRange(typing.start, typing.end, typing.direction); } catch (error) {}
  }
}
return JSON.stringify({ok: true, focus, kept: focus !== null && active.isConnected});
"""


def click_listener(callback: Any) -> Any:
    """A JS click listener that calls `callback` (a PyProxy) with the button's data as JSON."""
    return js.Function("callback", _LISTENER)(callback)


class Patcher:
    """Applies diff operations to one container element."""

    def __init__(self, container: Any) -> None:
        self.container = container
        self._patch = js.Function("container", "ops", "KEYS", _PATCH)
        self._keys = js.JSON.parse(json.dumps(FOCUS_KEYS))

    def apply(self, ops: list[Op]) -> tuple[bool, str | None, bool]:
        """(all regions found, selector of the control focused before or None, whether it
        is still in the page). When a region is missing, the operations stop there."""
        result = json.loads(str(self._patch(self.container, json.dumps(ops), self._keys)))
        return bool(result["ok"]), result["focus"], bool(result["kept"])


_AFTER_PAINT = """
let due = false;
const run = () => { if (due) { due = false; callback(); } };
addEventListener("pagehide", run);
document.addEventListener("visibilitychange", () => { if (document.hidden) run(); });
return {
  request() {
    if (due) return;
    due = true;
    // a task after the next frame; a hidden page paints no frames: a task at once
    if (document.hidden) setTimeout(run, 0);
    else requestAnimationFrame(() => setTimeout(run, 0));
  },
};
"""


class AfterPaint:
    """Runs `callback()` once after the next paint, however often it is requested before;
    at once (if still due) when the page is hidden (visibilitychange) or left (pagehide)."""

    def __init__(self, callback: Any) -> None:
        self._proxy = create_proxy(callback)
        self._js = js.Function("callback", _AFTER_PAINT)(self._proxy)

    def request(self) -> None:
        """Run the callback after the next paint (once, if requested again meanwhile)."""
        self._js.request()
