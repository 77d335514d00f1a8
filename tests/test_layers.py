"""Imports point one way. The page's Python (`webui`) is in layer folders, each importing only
from itself and the folders below it (`LAYERS`, the table of docs/architecture.md); only
`webui/browser/` touches the browser (`js`, `pyodide`, `pyscript`). The engine keeps its
command line apart: no module the page runs imports `lostcities.cli` or the native group, and
app.zip leaves them out."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = ROOT / "py"
sys.path.insert(0, str(ROOT / "boot" / "build"))

from app_zip import NATIVE_ONLY, python_sources  # noqa: E402  (boot/build/app_zip.py)

NATIVE_MODULES = ("lostcities.cli", "lostcities.fair.sodium", "lostcities.viewcheck")
BROWSER_MODULES = ("js", "pyodide", "pyscript")
LAYERS = ("kernel", "text", "screens", "match", "features", "online", "player", "browser")
"""webui's folders from the bottom up: each imports only from itself and the ones before it."""
BROWSER_LAYER = "browser"


def module_name(path: Path) -> str:
    """The dotted name of the module at `path` under py/ (a package by its folder)."""
    parts = path.relative_to(PY).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, module: str, is_package: bool) -> set[str]:
    """The absolute names of the modules `source` (module `module`) imports, relative imports
    resolved, those under ``if TYPE_CHECKING`` and inside functions included."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(source, module)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else ()
            name = ".".join((*base, *(node.module.split(".") if node.module else ())))
            found.add(name)
            found |= {f"{name}.{alias.name}" for alias in node.names}
    return found


def imports(path: Path) -> set[str]:
    """The absolute names of the modules the file `path` imports."""
    return imports_of(path.read_text(), module_name(path), path.name == "__init__.py")


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    """Whether module `name` is one of `prefixes` or inside one."""
    return any(name == m or name.startswith(m + ".") for m in prefixes)


def native(name: str) -> bool:
    return within(name, NATIVE_MODULES)


def layer_of(module: str) -> str | None:
    """The layer folder of a webui module (``webui.match.seats.local``: ``match``); None for
    the package ``webui`` itself and for modules outside it."""
    parts = module.split(".")
    return parts[1] if parts[0] == "webui" and len(parts) > 1 else None


def layer_faults(module: str, imported: set[str]) -> list[str]:
    """What module `module` imports against the layers: the browser outside `browser/`, a
    webui module of a higher layer, or a webui module outside every layer folder."""
    faults = []
    mine = layer_of(module)
    for name in sorted(imported):
        if within(name, BROWSER_MODULES) and mine != BROWSER_LAYER:
            faults.append(f"{module} imports {name}: only webui/{BROWSER_LAYER}/ may")
        theirs = layer_of(name)
        if mine is None or theirs is None:
            continue
        if theirs not in LAYERS:
            faults.append(f"{module} imports {name}, in no layer folder")
        elif mine in LAYERS and LAYERS.index(theirs) > LAYERS.index(mine):
            faults.append(f"{module} ({mine}/) imports {name} ({theirs}/), a layer above it")
    return faults


def page_sources() -> list[Path]:
    return [p for p in python_sources(PY) if p.suffix == ".py"]


def webui_sources() -> list[Path]:
    return sorted((PY / "webui").rglob("*.py"))


def documented_layers() -> list[str]:
    """The layer folders of docs/architecture.md's table, in its order (``| `kernel/` |``)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    return re.findall(r"^\| `([a-z_]+)/` \|", text, re.M)


def test_only_the_browser_folder_touches_the_browser() -> None:
    found = {module_name(p): sorted(n for n in imports(p) if within(n, BROWSER_MODULES))
             for p in sorted(PY.rglob("*.py"))}
    outside = {m: names for m, names in found.items()
               if names and layer_of(m) != BROWSER_LAYER}
    assert outside == {}
    assert any(names for m, names in found.items()), "no browser import found: the scan is broken"


def test_each_webui_module_imports_only_its_own_layer_and_those_below() -> None:
    faults = [fault for p in webui_sources() for fault in layer_faults(module_name(p), imports(p))]
    assert faults == []


def test_every_webui_module_is_in_a_layer_folder_of_the_table() -> None:
    folders = {p.name for p in (PY / "webui").iterdir() if (p / "__init__.py").is_file()}
    assert folders == set(LAYERS)
    loose = [p.name for p in (PY / "webui").glob("*.py") if p.name != "__init__.py"]
    assert loose == []
    assert imports(PY / "webui" / "__init__.py") == set()
    assert documented_layers() == list(LAYERS)


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


def test_the_layer_check_sees_each_kind_of_violation() -> None:
    """The checker itself: an import up the layers (a relative one too, and one only for the
    type checker), the browser outside its folder, a module outside every layer."""
    source = ("from typing import TYPE_CHECKING\n"
              "from ..screens.html import button\n"
              "import js\n"
              "if TYPE_CHECKING:\n"
              "    from webui.player.players import Players\n"
              "def later():\n"
              "    from webui.stray import thing\n")
    imported = imports_of(source, "webui.text.cards", is_package=False)
    assert {"webui.screens.html", "js", "webui.player.players", "webui.stray"} <= imported
    faults = layer_faults("webui.text.cards", imported)
    for above in ("webui.screens.html (screens/)", "webui.player.players (player/)"):
        assert any(above in f and "a layer above it" in f for f in faults), above
    assert any("only webui/browser/ may" in f for f in faults)
    assert any("in no layer folder" in f for f in faults)
    assert layer_faults("webui.browser.page", {"js", "webui.kernel.frame"}) == []
    assert layer_faults("webui.match.seats.local", {"webui.match.seats", "webui.text.i18n"}) == []
