"""Entry point run by index.html (stub: the UI issue replaces it).

Imports the engine when it is present, then marks the page ready.
"""

from pyscript import document  # type: ignore[import-not-found]

try:
    import lostcities  # noqa: F401

    ENGINE = "engine loaded"
except ImportError:
    ENGINE = "engine not built yet"

document.querySelector("#app").innerHTML = f"<p>Python is running ({ENGINE}).</p>"
document.documentElement.dataset.ready = "true"
