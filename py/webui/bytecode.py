"""Bytecode for the next boots: the standard library zip again, with every module compiled.

Nothing the game ships is bytecode (it would cost about 1 MB more on a first visit), so every
boot compiles from source every module it imports: most of the boot's time. Once a page has
booted, `BytecodeZip` compiles, a module per step (the page runs a step when it is idle), the
modules of the standard library zip the runtime booted from and the app's own modules (the
PyScript package and app.zip, unpacked in the working directory), and assembles a new zip:

- every entry of the original zip, stored (not deflated: nothing to inflate at import);
- `name.pyc` next to each `name.py`: an unchecked hash-based pyc (the zip's sources and its
  bytecode are written together, so they always agree), which zipimport prefers to the source;
- `_lc_bytecode.py` (and its pyc), which, imported right after the runtime is up and before
  PyScript writes the app's files, writes the app's compiled modules (`lc-bytecode.bin`) into
  the `__pycache__` folders next to where their sources will be. Those pycs are checked
  hash-based: the import system compares them with the source it finds and compiles the source
  instead when they differ, so a changed app never runs stale bytecode.

The service worker keeps that zip and answers the runtime's request for the standard library with
it (sw.js); static/pyodide-early.mjs imports `_lc_bytecode` once the runtime is up.
"""

from __future__ import annotations

import io
import marshal
import os
import zipfile
from collections.abc import Iterable
from importlib.util import MAGIC_NUMBER, cache_from_source, source_hash

APP_BUNDLE = "lc-bytecode.bin"
"""The zip entry holding the app's compiled modules: marshal of {pyc path: pyc bytes}."""

UNPACKER = "_lc_bytecode"
"""The module of the zip that writes the app's compiled modules where they are imported from."""

UNPACKER_SOURCE = f'''"""Written by webui.bytecode: the app's pycs into their __pycache__."""
import marshal
import os


def _unpack():
    archive = __file__.rsplit("/", 1)[0]
    files = marshal.loads(__loader__.get_data(archive + "/{APP_BUNDLE}"))
    for path, data in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(data)
    return len(files)


UNPACKED = _unpack()
'''


def pyc(source: bytes, path: str, *, checked: bool) -> bytes:
    """The hash-based pyc of `source` (the module at `path`), as the import system writes it."""
    code = compile(source, path, "exec", dont_inherit=True)
    flags = 0b11 if checked else 0b01
    return (MAGIC_NUMBER + flags.to_bytes(4, "little") + source_hash(source)
            + marshal.dumps(code))


class BytecodeZip:
    """Compiles, a step at a time, the modules of a standard library zip and of the app."""

    def __init__(self, zip_path: str, original: bytes, app_sources: Iterable[str]) -> None:
        """`original` is the zip the runtime booted from, mounted at `zip_path`;
        `app_sources` the paths of the app's own .py files."""
        self._zip_path = zip_path
        self._original = zipfile.ZipFile(io.BytesIO(original))
        self._zip_modules = [info.filename for info in self._original.infolist()
                             if info.filename.endswith(".py")]
        self._app_sources = list(app_sources)
        self._zip_pycs: dict[str, bytes] = {}
        self._app_pycs: dict[str, bytes] = {}

    def step(self) -> bool:
        """Compile one module; False once there is nothing left to compile."""
        if self._zip_modules:
            name = self._zip_modules.pop()
            source = self._original.read(name)
            self._zip_pycs[name[:-3] + ".pyc"] = pyc(
                source, f"{self._zip_path}/{name}", checked=False)
            return True
        if self._app_sources:
            path = self._app_sources.pop()
            with open(path, "rb") as file:
                source = file.read()
            self._app_pycs[cache_from_source(path)] = pyc(source, path, checked=True)
            return True
        return False

    def assemble(self) -> bytes:
        """The new zip (call once every step is done)."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as new:
            for info in self._original.infolist():
                new.writestr(_stored(info.filename, info.date_time), self._original.read(info))
            for name, data in sorted(self._zip_pycs.items()):
                new.writestr(_stored(name), data)
            unpacker = UNPACKER_SOURCE.encode()
            new.writestr(_stored(UNPACKER + ".py"), unpacker)
            new.writestr(_stored(UNPACKER + ".pyc"), pyc(
                unpacker, f"{self._zip_path}/{UNPACKER}.py", checked=False))
            new.writestr(_stored(APP_BUNDLE), marshal.dumps(self._app_pycs))
        return out.getvalue()


def _stored(name: str, date_time: tuple[int, int, int, int, int, int] = (1980, 1, 1, 0, 0, 0)
            ) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time)
    info.compress_type = zipfile.ZIP_STORED
    return info


def app_sources(root: str) -> list[str]:
    """The .py files of the packages in folder `root` (its folders with an __init__.py)."""
    found = []
    packages = sorted(name for name in os.listdir(root)
                      if os.path.isfile(os.path.join(root, name, "__init__.py")))
    for package in packages:
        for folder, dirs, files in os.walk(os.path.join(root, package)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            found += [os.path.join(folder, name) for name in sorted(files) if name.endswith(".py")]
    return found
