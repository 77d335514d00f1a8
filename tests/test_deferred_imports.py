"""Every import inside a function of the page's code is one that docs/boot.md names.

The page's boot imports little and defers the rest; the boot document's table "Imports deferred
at boot" lists each import that waits, where it is and until when. Any other import inside a
function is a mistake (an import the module should make at its top), and any the table names
must be where it says.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEBUI = ROOT / "py" / "webui"
TABLE_HEADING = "## Imports deferred at boot"


def deferred_imports() -> dict[str, set[str]]:
    """{file under py/ ("webui/browser/app.py"): the modules it imports inside a function}."""
    found: dict[str, set[str]] = {}
    for path in sorted(WEBUI.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    names = {alias.name for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module is not None:
                    names = {node.module}
                else:
                    continue
                found.setdefault(path.relative_to(ROOT / "py").as_posix(), set()).update(names)
    return found


def documented() -> dict[str, str]:
    """{file named in the table's first column: the text of its row}."""
    text = (ROOT / "docs" / "boot.md").read_text()
    table = text[text.index(TABLE_HEADING):]
    rows: dict[str, str] = {}
    for line in table.splitlines():
        cells = line.split("|")
        if len(cells) < 4 or not cells[1].strip().startswith("`"):
            continue
        where = re.match(r"\s*`([^`]+\.py)`", cells[1])
        if where is not None:
            rows[where.group(1)] = line
    return rows


def test_every_import_inside_a_function_is_named_by_the_boot_document() -> None:
    rows = documented()
    found = deferred_imports()
    assert found, "no deferred import found: the scan is broken"
    for file, modules in found.items():
        assert file in rows, (
            f"{file} imports {sorted(modules)} inside a function: not in docs/boot.md")
        for module in modules:
            parts = module.split(".")
            named = (f"`{'.'.join(parts[:n])}`" for n in range(len(parts), 0, -1))
            assert any(name in rows[file] for name in named), (
                f"{file} imports {module} inside a function: docs/boot.md's row names neither it"
                " nor its package")


def test_every_file_the_boot_document_names_defers_an_import() -> None:
    found = deferred_imports()
    for file in documented():
        assert file in found, f"docs/boot.md names {file}, which imports nothing inside a function"
