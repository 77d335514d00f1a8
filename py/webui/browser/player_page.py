"""The page's side of the player's screens (Pyodide only): files and fields, in JavaScript.

- A field changed on the screen (``#screen [data-field]``) becomes an action like a click:
  the calculator's (``calc-sixth``: ``true``/``false``, ``calc-job``, ``calc-mixup``: the
  value chosen) and the replay's ``replay-speed`` with ``{"value": ...}``, and the history
  file picked
  (``input[data-field="import-stats"]``) as ``import-stats`` with ``{"text": ...}`` once read
  (an empty text for a file larger than the history's limit or one that can't be read).
- On the replay screen the Left and Right arrow keys press Previous and Next.
- `download(name, text)` offers a JSON file to save (webui/player/players.py's `Files`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from webui.features.history import MAX_BYTES

_FIELDS = """
document.addEventListener("change", (event) => {
  const field = event.target.closest ? event.target.closest("#screen [data-field]") : null;
  if (field === null) return;
  const name = field.getAttribute("data-field");
  if (name === "import-stats") {
    const file = field.files && field.files[0];
    field.value = "";
    if (!file) return;
    if (file.size > LIMIT) { callback(name, ""); return; }
    file.text().then((text) => callback(name, text), () => callback(name, ""));
  } else if (name.startsWith("calc-") || name === "replay-speed") {
    callback(name, field.type === "checkbox" ? String(field.checked) : field.value);
  }
});
document.addEventListener("keydown", (event) => {
  if (document.body.dataset.screen !== "replay" || event.altKey || event.ctrlKey
      || event.metaKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const action = event.key === "ArrowLeft" ? "replay-prev" : "replay-next";
  const button = document.querySelector(`#screen [data-action="${action}"]:not([disabled])`);
  if (button !== null) { event.preventDefault(); button.click(); }
});
"""

_DOWNLOAD = """
const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
const link = document.createElement("a");
link.href = url;
link.download = name;
link.hidden = true;
document.body.append(link);
link.click();
link.remove();
setTimeout(() => URL.revokeObjectURL(url), 60000);
"""


class PlayerPage:
    """The fields, keys and files of the player's screens on this page."""

    def __init__(self, on_action: Callable[[str, dict[str, str]], None]) -> None:
        """Listen from now on: a field's change calls `on_action(action, data)`."""

        def changed(name: str, value: str) -> None:
            key = "text" if name == "import-stats" else "value"
            on_action(str(name), {key: str(value)})

        self._proxy: Any = create_proxy(changed)
        js.Function("callback", "LIMIT", _FIELDS)(self._proxy, MAX_BYTES)
        self._download = js.Function("name", "text", _DOWNLOAD)

    def download(self, name: str, text: str) -> None:
        """Offer `text` as the JSON file `name` to save."""
        self._download(name, text)
