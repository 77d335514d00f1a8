"""Bytecode for the next boots: the standard library zip again, with every module compiled.

The game ships its own modules compiled (app.zip, boot/build/compile_app.mjs) but not the standard
library's, which would cost about 1 MB more on a first visit: every boot compiles from source
every standard module it imports, most of the runtime's start-up. Once a page has booted,
`BytecodeZip` compiles, a module per step (the page runs a step when it is idle), the modules of
the standard library zip the runtime booted from, and assembles a new zip:

- every entry of the original zip, stored (not deflated: nothing to inflate at import);
- `name.pyc` next to each `name.py`: an unchecked hash-based pyc (the zip's sources and its
  bytecode are written together, so they always agree), which zipimport prefers to the source;
- `MARKER`, by which a boot knows it runs on such a zip (`booted_on_bytecode`).

The service worker keeps that zip and answers the runtime's request for the standard library
with it (sw.js).
"""

from __future__ import annotations

import io
import marshal
import zipfile
import zipimport
from importlib.util import MAGIC_NUMBER, source_hash

MARKER = "lc-bytecode.txt"
"""The entry that marks a zip made by `BytecodeZip` (not a module: never imported)."""


def pyc(source: bytes, path: str) -> bytes:
    """The unchecked hash-based pyc of `source` (the module at `path`)."""
    code = compile(source, path, "exec", dont_inherit=True)
    return MAGIC_NUMBER + (0b01).to_bytes(4, "little") + source_hash(source) + marshal.dumps(code)


def booted_on_bytecode(zip_path: str) -> bool:
    """Whether the zip at `zip_path` (on sys.path) is one that `BytecodeZip` made."""
    try:
        zipimport.zipimporter(zip_path).get_data(MARKER)
    except OSError:
        return False
    return True


class BytecodeZip:
    """Compiles, a step at a time, the modules of a standard library zip."""

    def __init__(self, zip_path: str, original: bytes) -> None:
        """`original` is the zip the runtime booted from, mounted at `zip_path`."""
        self._zip_path = zip_path
        self._original = zipfile.ZipFile(io.BytesIO(original))
        self._todo = [info.filename for info in self._original.infolist()
                      if info.filename.endswith(".py")]
        self._pycs: dict[str, bytes] = {}

    def step(self) -> bool:
        """Compile one module; False once there is nothing left to compile."""
        if not self._todo:
            return False
        name = self._todo.pop()
        self._pycs[name[:-3] + ".pyc"] = pyc(self._original.read(name), f"{self._zip_path}/{name}")
        return True

    def assemble(self) -> bytes:
        """The new zip (call once every step is done)."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as new:
            for info in self._original.infolist():
                new.writestr(_stored(info.filename, info.date_time), self._original.read(info))
            for name, data in sorted(self._pycs.items()):
                new.writestr(_stored(name), data)
            new.writestr(_stored(MARKER), b"bytecode compiled by webui.browser.boot.bytecode\n")
        return out.getvalue()


def _stored(name: str, date_time: tuple[int, int, int, int, int, int] = (1980, 1, 1, 0, 0, 0)
            ) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time)
    info.compress_type = zipfile.ZIP_STORED
    return info
