"""webui.bytecode: the standard library zip rebuilt with compiled modules, and the app's pycs.

Each test imports from what `BytecodeZip` built with the `compile` builtin made to fail, so an
import only succeeds if it used the bytecode (zipimport and the source loader both call it)."""

from __future__ import annotations

import builtins
import importlib
import io
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from webui.bytecode import UNPACKER, BytecodeZip, app_sources

ZIP_FILES = {
    "lczipmod.py": "VALUE = 41 + 1\n",
    "lczippkg/__init__.py": "from lczippkg.inner import NAME\n",
    "lczippkg/inner.py": "NAME = 'inner'\n",
}


def _zip(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return out.getvalue()


def _build(tmp_path: Path, app_root: Path) -> Path:
    """The rebuilt zip at tmp_path/stdlib.zip, every step done."""
    target = tmp_path / "stdlib.zip"
    builder = BytecodeZip(str(target), _zip(ZIP_FILES), app_sources(str(app_root)))
    steps = 0
    while builder.step():
        steps += 1
    assert steps == 3 + 2  # one module per step: three in the zip, two in the app
    target.write_bytes(builder.assemble())
    return target


@pytest.fixture
def isolated() -> Iterator[None]:
    """sys.path, sys.modules and the import caches put back after the test."""
    path, modules = list(sys.path), dict(sys.modules)
    yield
    sys.path[:] = path
    for name in set(sys.modules) - set(modules):
        del sys.modules[name]
    importlib.invalidate_caches()


def _no_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"compiled from source: {args[1] if len(args) > 1 else args}")

    monkeypatch.setattr(builtins, "compile", refuse)


def _app(root: Path) -> None:
    (root / "lcapp").mkdir(parents=True)
    (root / "lcapp" / "__init__.py").write_text("")
    (root / "lcapp" / "rules.py").write_text("ANSWER = 'from bytecode'\n")
    (root / "notapackage").mkdir()
    (root / "notapackage" / "skipped.py").write_text("")


def test_zip_modules_import_from_bytecode(tmp_path: Path, isolated: None,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    app_root = tmp_path / "app"
    _app(app_root)
    target = _build(tmp_path, app_root)
    names = zipfile.ZipFile(target).namelist()
    assert {"lczipmod.py", "lczipmod.pyc", "lczippkg/__init__.pyc", "lczippkg/inner.pyc",
            UNPACKER + ".pyc"} <= set(names)
    infos = zipfile.ZipFile(target).infolist()
    assert all(info.compress_type == zipfile.ZIP_STORED for info in infos)
    sys.path.insert(0, str(target))
    _no_compile(monkeypatch)
    assert importlib.import_module("lczipmod").VALUE == 42
    assert importlib.import_module("lczippkg").NAME == "inner"


def test_app_modules_are_unpacked_and_checked(tmp_path: Path, isolated: None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    app_root = tmp_path / "app"
    _app(app_root)
    target = _build(tmp_path, app_root)
    sys.path[:0] = [str(app_root), str(target)]
    cache = app_root / "lcapp" / "__pycache__"
    assert not cache.exists()
    with monkeypatch.context() as patch:
        _no_compile(patch)
        assert importlib.import_module(UNPACKER).UNPACKED == 2
        assert importlib.import_module("lcapp.rules").ANSWER == "from bytecode"
    assert sorted(p.name.split(".")[0] for p in cache.iterdir()) == ["__init__", "rules"]
    # A changed source is compiled again: its pyc is checked against it, never run stale.
    del sys.modules["lcapp.rules"]
    (app_root / "lcapp" / "rules.py").write_text("ANSWER = 'from the new source'\n")
    importlib.invalidate_caches()
    assert importlib.import_module("lcapp.rules").ANSWER == "from the new source"
