"""The engine keeps its command line apart: no module the page runs imports `lostcities.cli`
or the native group, the engine's rules import neither, and app.zip leaves them out."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = ROOT / "py"
sys.path.insert(0, str(ROOT / "boot" / "build"))

from app_zip import NATIVE_ONLY, python_sources  # noqa: E402  (boot/build/app_zip.py)

NATIVE_MODULES = ("lostcities.cli", "lostcities.fair.sodium")


def imports(path: Path) -> set[str]:
    """The absolute names of the modules `path` imports (relative imports resolved)."""
    package = path.relative_to(PY).with_suffix("").parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else ()
            module = ".".join((*base, *(node.module.split(".") if node.module else ())))
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def native(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in NATIVE_MODULES)


def page_sources() -> list[Path]:
    return [p for p in python_sources(PY) if p.suffix == ".py"]


def test_the_page_imports_nothing_native() -> None:
    found = {p.relative_to(PY).as_posix(): sorted(n for n in imports(p) if native(n))
             for p in page_sources()}
    assert {k: v for k, v in found.items() if v} == {}


def test_app_zip_leaves_the_native_modules_out() -> None:
    shipped = {p.relative_to(PY).as_posix() for p in python_sources(PY)}
    assert not any(name.startswith(NATIVE_ONLY) for name in shipped)
    assert "lostcities/rulebook.py" in shipped and "webui/match/controller.py" in shipped
    for module in NATIVE_MODULES:
        path = PY / Path(*module.split("."))
        assert path.is_dir() or path.with_suffix(".py").is_file(), module


def test_the_import_check_sees_a_native_import() -> None:
    """The checker itself: a relative import of the command line is found."""
    assert native("lostcities.cli.host")
    assert "lostcities.cli.host" in imports(PY / "lostcities" / "cli" / "protocol.py")
    assert not native("lostcities.client")
