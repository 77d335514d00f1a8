"""app-more.zip: the page's modules that the first screen does not need (online play with the
fair protocol, the player's history, stats, replays, calculator and guide), fetched and
mounted once the first screen is up (boot/build/app_zip.py makes the split; docs/boot.md).

The service worker precaches the zip after the first visit's first screen, so later visits and
offline ones read it from the version's cache.
"""

from __future__ import annotations

import importlib
import zipimport

import js  # type: ignore[import-not-found]

MORE_URL = "static/vendor/app-more.zip.gz"
"""Where the page fetches it (from the site's root, where index.html is): the zip gzipped
whole (boot/build/app_zip.py), which window.lcBoot.zipBytes unpacks (boot/snapshot.mjs), as
the boot does app.zip.gz."""
MORE_PATH = "/lib/lostcities-app-more.zip"
"""Where it is written in the runtime's file system (never unpacked)."""
MANIFEST = "more-packages.txt"
"""In the zip: the packages of app.zip it adds modules to, one per line."""


def mount(archive: str) -> list[str]:
    """Make the modules of the zip at `archive` importable: each package named in its
    MANIFEST gets the zip's folder of that package on its search path (once). A package this
    runtime cannot import is left alone (PyScript's, in the boot snapshot's worker, which has
    no PyScript: the page mounts the zip again). Returns the packages mounted."""
    manifest = zipimport.zipimporter(archive).get_data(f"{archive}/{MANIFEST}")
    mounted = []
    for name in manifest.decode("utf-8").split():
        try:
            path = importlib.import_module(name).__path__
        except ImportError:
            continue
        folder = f"{archive}/{name.replace('.', '/')}"
        if folder not in path:
            path.append(folder)  # a path never searched before: no finder's cache to clear
        mounted.append(name)
    return mounted


async def load_more() -> bool:
    """Fetch app-more.zip, write it and mount it: whether that worked. html[data-more] says
    how it went ("loaded" or "failed", the reason in the console); performance mark
    ``lc-more`` when loaded."""
    root = js.document.documentElement
    try:
        data = (await js.window.lcBoot.zipBytes(MORE_URL)).to_bytes()
        with open(MORE_PATH, "wb") as file:
            file.write(data)
        mount(MORE_PATH)
    except Exception as exc:  # offline before the first precache, a server fault: say so
        js.console.warn(f"app-more.zip not loaded: {exc!r}")
        root.dataset.more = "failed"
        return False
    js.performance.mark("lc-more")
    root.dataset.more = "loaded"
    return True
