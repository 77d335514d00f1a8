"""boot/build/trim_stdlib.py (the trimmed stdlib zip), build.py's PyScript chunk selection and
its lock file without packages."""

from __future__ import annotations

import io
import json
import sys
import types
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "boot" / "build"))

from build import BuildError, disabled_plugins, packageless_lock, pyscript_files  # noqa: E402
from trim_stdlib import (  # noqa: E402
    SHADOWED,
    TrimError,
    app_imports,
    kept_files,
    module_imports,
    narrow_indents,
    read_allowlist,
    strip_source,
    trim,
)

SOURCE = b'''"""Module docstring
over two lines."""
import os  # a comment
x = "kept"  # another
"".join(["also", "kept"])


def f(a):
    """Function docstring."""
    # a whole-line comment
    return a + 1


class C:
    """Class docstring"""
    text = """a multi-line
value, kept"""
'''


def test_strip_source_drops_comments_and_docstrings_and_keeps_line_numbers() -> None:
    stripped = strip_source(SOURCE).decode()
    assert stripped.count("\n") == SOURCE.decode().count("\n")
    assert "comment" not in stripped and "docstring" not in stripped
    assert 'x = "kept"\n' in stripped and '"".join(["also", "kept"])' in stripped
    assert '"""a multi-line\nvalue, kept"""' in stripped
    namespace: dict[str, object] = {}
    exec(compile(stripped, "m", "exec"), namespace)  # noqa: S102
    assert namespace["x"] == "kept"
    assert namespace["C"].text == "a multi-line\nvalue, kept"  # type: ignore[attr-defined]
    assert namespace["f"](1) == 2  # type: ignore[operator]
    assert namespace["f"].__doc__ == ""  # type: ignore[attr-defined]
    line = SOURCE.decode().splitlines().index("    return a + 1")
    assert stripped.splitlines()[line] == "    return a + 1"  # on the same line as in SOURCE


def test_a_source_that_does_not_tokenize_is_kept_as_it_is() -> None:
    broken = b'x = """never closed\n'
    assert strip_source(broken) == broken


NESTED = b'''class C:
    def f(self, a,
          b):
        if a:
            text = """kept
        as it is
    """
            return (text +
                    "x")
        for i in range(b):
            if i:
                continue
        return b \\
            + 1
'''


def same_code(a: types.CodeType, b: types.CodeType) -> bool:
    """Same bytecode and constants, nested code compared alike (not the positions)."""
    if a.co_code != b.co_code or a.co_names != b.co_names or a.co_firstlineno != b.co_firstlineno:
        return False
    pairs = zip(a.co_consts, b.co_consts, strict=True)
    return all(same_code(x, y) if isinstance(x, types.CodeType) else x == y for x, y in pairs)


def test_narrow_indents_gives_the_same_code_on_the_same_lines() -> None:
    narrow = narrow_indents(NESTED)
    assert narrow.splitlines()[:4] == [b"class C:", b" def f(self, a,", b" b):", b"  if a:"]
    assert b"""   text = \"\"\"kept\n        as it is\n    \"\"\"\n""" in narrow  # a string's lines
    assert len(narrow) < len(NESTED) and narrow.count(b"\n") == NESTED.count(b"\n")
    assert same_code(compile(narrow, "m.py", "exec"), compile(NESTED, "m.py", "exec"))
    assert narrow_indents(narrow) == narrow
    assert narrow_indents(b"def f(:\n    ''") == b"def f(:\n    ''"  # does not tokenize


def test_module_imports_are_module_level_unless_nested() -> None:
    source = b"import json\ntry:\n    import zlib\nexcept ImportError:\n    pass\n" \
             b"def f():\n    import argparse\nfrom . import sibling\n"
    assert module_imports(source, "pkg.mod", False) == {"json", "zlib", "pkg", "pkg.sibling"}
    assert "argparse" in module_imports(source, "pkg.mod", False, nested=True)
    # what only type checkers import is never imported: the page's split leaves it out
    typed = b"from typing import TYPE_CHECKING\nimport typing\nif TYPE_CHECKING:\n" \
            b"    import heavy\nelse:\n    import light\nif typing.TYPE_CHECKING:\n" \
            b"    import heavier\n"
    assert module_imports(typed, "mod", False, nested=True) == {
        "typing", "typing.TYPE_CHECKING", "light"}


def test_app_imports_follow_the_app_from_its_entry_point(tmp_path: Path) -> None:
    (tmp_path / "webui" / "browser").mkdir(parents=True)
    (tmp_path / "webui" / "__init__.py").write_text("")
    (tmp_path / "webui" / "browser" / "__init__.py").write_text("")
    (tmp_path / "webui" / "browser" / "main.py").write_text(
        "import json\nfrom webui import helper\n")
    (tmp_path / "webui" / "helper.py").write_text("def f():\n    import textwrap\n")
    (tmp_path / "webui" / "cli.py").write_text("import argparse\n")  # never imported by main
    found = app_imports(tmp_path)
    assert {"json", "textwrap"} <= found
    assert "argparse" not in found


def fake_stdlib(files: dict[str, str]) -> zipfile.ZipFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for name, text in files.items():
            out.writestr(name, text)
    return zipfile.ZipFile(io.BytesIO(buffer.getvalue()))


def test_kept_files_are_the_recorded_modules_and_the_closure_of_the_roots() -> None:
    stdlib = fake_stdlib({
        "a.py": "import b\n",
        "b.py": "",
        "c.py": "import d\ndef f():\n    import e\n",
        "d.py": "",
        "e.py": "",
        "pkg/__init__.py": "",
        "pkg/sub.py": "",
        "unused.py": "",
    })
    assert kept_files(stdlib, {"a", "pkg.sub"}, set()) == ["a.py", "pkg/__init__.py",
                                                             "pkg/sub.py"]
    assert kept_files(stdlib, {"a"}, {"c", "js"}) == ["a.py", "c.py", "d.py"]
    with pytest.raises(TrimError, match="names no module"):
        kept_files(stdlib, {"nothing"}, {"c"})


def test_the_modules_the_app_zips_ship_are_left_out_and_their_imports_kept() -> None:
    data, count = trim(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip", ROOT / "py")
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert len(names) == count and "re/__init__.py" in names  # `html` imports `re`
    assert "html" in SHADOWED and not any(name.startswith("html/") for name in names)


def test_the_committed_allowlist_reads(tmp_path: Path) -> None:
    modules = read_allowlist()
    assert {"asyncio", "json", "random", "pyodide.ffi", "encodings.utf_8"} <= modules
    with pytest.raises(TrimError, match="--record"):
        read_allowlist(tmp_path / "missing.txt")


def write_site(root: Path, python: list[str], micropython: list[str] | None) -> None:
    (root / "static").mkdir()
    (root / "static" / "pyscript.json").write_text(json.dumps({"plugins": python}))
    tag = ("" if micropython is None
           else f"<mpy-config hidden>{json.dumps({'plugins': micropython})}</mpy-config>")
    (root / "index.html").write_text(f"<html><body>{tag}</body></html>")


def test_a_plugin_is_off_only_when_both_pyscript_types_turn_it_off(tmp_path: Path) -> None:
    both, python_only = tmp_path / "both", tmp_path / "python-only"
    both.mkdir()
    python_only.mkdir()
    write_site(both, ["!py-editor", "!donkey"], ["!py-editor"])
    write_site(python_only, ["!py-editor"], None)
    assert disabled_plugins(both) == {"py-editor"}
    assert disabled_plugins(python_only) == set()


def test_pyscript_files_are_what_core_imports_without_disabled_plugins(tmp_path: Path) -> None:
    chunks = {
        "core.js": 'import"./core-AAA.js";',
        "core.css": "",
        "core-AAA.js": 'import("./py-editor-BBB.js");import("./error-CCC.js");'
                       'import("./codemirror_state-DDD.js");',
        "py-editor-BBB.js": 'from"./xterm-EEE.js"',
        "xterm-EEE.js": "",
        "error-CCC.js": 'from"./core-AAA.js"',
        "codemirror_state-DDD.js": "",
        "storage.js": "",
    }
    for name, text in chunks.items():
        (tmp_path / name).write_text(text)
    everything = set(pyscript_files(tmp_path))
    assert everything == set(chunks) - {"storage.js", "core.css"}
    trimmed = set(pyscript_files(tmp_path, {"py-editor", "codemirror"}))
    assert trimmed == {"core.js", "core-AAA.js", "error-CCC.js"}


def test_the_shipped_lock_file_keeps_the_runtime_info_and_lists_no_package() -> None:
    npm_lock = ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"
    if not npm_lock.is_file():
        pytest.skip("no node_modules: run `npm ci`")
    full = json.loads(npm_lock.read_text(encoding="utf-8"))
    shipped = json.loads(packageless_lock(npm_lock))
    assert full["packages"] and shipped["packages"] == {}
    assert shipped["info"] == full["info"]
    assert len(packageless_lock(npm_lock)) < 1_000


@pytest.mark.parametrize("text", ["[]", '{"info": {}}', '{"packages": []}'])
def test_a_lock_file_without_a_package_index_fails_the_build(tmp_path: Path, text: str) -> None:
    lock = tmp_path / "pyodide-lock.json"
    lock.write_text(text)
    with pytest.raises(BuildError, match="not a lock file"):
        packageless_lock(lock)

