"""app-more.zip: the page's modules that the first screen does not need (online play with the
fair protocol, the player's history, stats, replays, calculator and guide), fetched and
mounted once the first screen is up (boot/build/app_zip.py makes the split; docs/boot.md).

The service worker precaches the zip after the first visit's first screen, so later visits and
offline ones read it from the version's cache.
"""

from __future__ import annotations

import importlib.machinery
import sys
import zipimport
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

import js  # type: ignore[import-not-found]

MORE_URL = "static/vendor/app-more.zip.gz"
"""Where the page fetches it (from the site's root, where index.html is): the zip gzipped
whole (boot/build/app_zip.py), which window.lcBoot.zipBytes unpacks (boot/snapshot.mjs), as
the boot does app.zip.gz."""
MORE_PATH = "/lib/lostcities-app-more.zip"
"""Where it is written in the runtime's file system (never unpacked)."""
MANIFEST = "more-packages.txt"
"""In the zip: the packages of app.zip it adds modules to, one per line."""


class _LaterPackages:
    """The search path of a package that mount() names before it is imported: the zip's
    folder is added to it when it is imported (PyScript's package, which the page imports only
    if something uses it; the engine, imported a module at a time once the page is ready). A
    finder of sys.meta_path (`importlib.abc.MetaPathFinder`'s one method, without importing
    that module at boot: it brings `pathlib` and `urllib.parse`)."""

    def __init__(self) -> None:
        self.folders: dict[str, str] = {}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        folder = self.folders.get(fullname)
        if folder is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.submodule_search_locations is not None \
                and folder not in spec.submodule_search_locations:
            spec.submodule_search_locations.append(folder)
        return spec


_LATER = _LaterPackages()


def mount(archive: str) -> list[str]:
    """Make the modules of the zip at `archive` importable: each package named in its
    MANIFEST gets the zip's folder of that package on its search path (once), at once if it is
    imported already, else when it is imported. Nothing is imported here: a package that needs
    what this runtime lacks (PyScript's, in the boot snapshot's worker, which has no PyScript)
    is only named. Returns the packages mounted."""
    manifest = zipimport.zipimporter(archive).get_data(f"{archive}/{MANIFEST}")
    finders = sys.meta_path
    if _LATER not in finders:  # before the finder of sys.path's entries
        path_finder = importlib.machinery.PathFinder
        finders.insert(finders.index(path_finder) if path_finder in finders else len(finders),
                       _LATER)
    mounted = []
    for name in manifest.decode("utf-8").split():
        folder = f"{archive}/{name.replace('.', '/')}"
        module = sys.modules.get(name)
        if module is None:
            _LATER.folders[name] = folder
        elif folder not in module.__path__:
            module.__path__.append(folder)  # a path never searched before: no cache to clear
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
