"""webui.browser.boot.bytecode: the standard library zip rebuilt with every module compiled.

The import test runs with the `compile` builtin made to fail, so an import only succeeds if it
used the bytecode (zipimport calls it for a source)."""

from __future__ import annotations

import builtins
import importlib
import io
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from webui.browser.boot.bytecode import MARKER, BytecodeZip, booted_on_bytecode

ZIP_FILES = {
    "lczipmod.py": "VALUE = 41 + 1\n",
    "lczippkg/__init__.py": "from lczippkg.inner import NAME\n",
    "lczippkg/inner.py": "NAME = 'inner'\n",
    "lczippkg/data.txt": "not a module\n",
}


@pytest.fixture
def original(tmp_path: Path) -> Path:
    """A deflated zip of ZIP_FILES, as the runtime's standard library zip is."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in ZIP_FILES.items():
            archive.writestr(name, text)
    path = tmp_path / "original.zip"
    path.write_bytes(out.getvalue())
    return path


@pytest.fixture
def isolated() -> Iterator[None]:
    """sys.path and sys.modules put back after the test."""
    path, modules = list(sys.path), dict(sys.modules)
    yield
    sys.path[:] = path
    for name in set(sys.modules) - set(modules):
        del sys.modules[name]


def _build(original: Path, target: Path) -> Path:
    builder = BytecodeZip(str(target), original.read_bytes())
    steps = 0
    while builder.step():
        steps += 1
    assert steps == 3  # one module per step
    target.write_bytes(builder.assemble())
    return target


def test_the_rebuilt_zip_keeps_every_entry_and_adds_a_pyc_per_module(
        original: Path, tmp_path: Path) -> None:
    target = _build(original, tmp_path / "stdlib.zip")
    with zipfile.ZipFile(target) as rebuilt:
        assert set(rebuilt.namelist()) == set(ZIP_FILES) | {
            "lczipmod.pyc", "lczippkg/__init__.pyc", "lczippkg/inner.pyc", MARKER}
        assert all(rebuilt.read(name).decode() == text for name, text in ZIP_FILES.items())
        assert all(info.compress_type == zipfile.ZIP_STORED for info in rebuilt.infolist())
    assert booted_on_bytecode(str(target)) and not booted_on_bytecode(str(original))


def test_modules_import_from_the_bytecode(original: Path, tmp_path: Path, isolated: None,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = _build(original, tmp_path / "stdlib.zip")
    sys.path.insert(0, str(target))

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled from source")

    monkeypatch.setattr(builtins, "compile", refuse)
    assert importlib.import_module("lczipmod").VALUE == 42
    assert importlib.import_module("lczippkg").NAME == "inner"
    assert importlib.import_module("lczippkg.inner").__file__.endswith("inner.pyc")
