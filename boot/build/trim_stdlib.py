"""Trim Pyodide's python_stdlib.zip to what the game imports (scripts/build.py calls trim()).

Pyodide ships the whole standard library (2.5 MB of deflated sources, which barely compress
again on the wire). The game needs about a third of it. The trimmed zip keeps:

1. the modules of boot/build/stdlib_modules.txt: what sys.modules held in the real app in Chromium
   after playing through its screens (Pyodide's bootstrap, PyScript's Python side, the app);
   `python3 boot/build/trim_stdlib.py --record` writes that file again (run it after the app
   starts using a new part of the library, and commit the result);
2. every standard module that the app's code reachable from `ENTRIES` imports, even
   inside functions (a static scan at build time, so a new import in the app is kept before
   anyone records again), with the modules those import at module level, recursively;
3. a margin: MARGIN, modules that error paths and text codecs may import late;
4. the parent packages of all of these;

but not the modules of SHADOWED, which the app's zips ship compiled (boot/build/app_zip.py),
nor FALLBACKS, which the runtime never imports.

Each kept source loses its comments and docstrings (a docstring becomes "", as with
`python -OO`, and every line keeps its number, so tracebacks still point at the right line of
the upstream source): that halves what is shipped (0.83 MB to about 0.49 MB deflated). Its
blocks are then indented one space a level instead of four (18 KB less). Entries are stored,
in a fixed order with a fixed date (identical inputs give identical bytes): scripts/build.py
gzips the zip whole (python_stdlib.zip.gz), 0.41 MB, so the size does not depend on the host
compressing responses, and the page unpacks it for the runtime (boot/snapshot.mjs).

Usage: python3 boot/build/trim_stdlib.py [--record] [--runs 2]
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWLIST = Path(__file__).with_name("stdlib_modules.txt")
ENTRIES = ("webui.browser.main", "webui.browser.plugins")
"""index.html runs py/webui/browser/main.py; the page imports webui/browser/plugins.py by name
once app-more.zip is mounted (py/webui/browser/boot/more.py)."""
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
MARGIN = (
    # codecs Python may look up by name (str.encode / bytes.decode / open(..., encoding=...))
    "encodings.ascii", "encodings.latin_1", "encodings.utf_8_sig", "encodings.utf_16",
    "encodings.utf_32", "encodings.unicode_escape", "encodings.raw_unicode_escape",
    # what printing a traceback or a warning may import
    "traceback", "linecache", "tokenize", "textwrap", "_colorize", "warnings",
)
SHADOWED = ("html", "html.entities")
"""Standard modules that boot/build/compile_app.mjs compiles with the app (PyScript imports
`html`): the app's zips ship them, so the trimmed zip leaves them out. Their own imports are
kept."""
FALLBACKS = {"_pydatetime": "_datetime"}
"""Pure-Python modules that the standard library imports only where the runtime lacks the C
module named (`datetime` imports `_pydatetime` if `_datetime` is missing): Pyodide builds that
one in, so they are left out, with what only they import (e2e/test_trimmed_runtime.py checks
the runtime has each C module)."""
# `import x` / `from x import y` at the start of a line (fallback scan, see module_imports)
IMPORT_LINE = re.compile(r"^(\s*)(?:import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|from\s+([\w.]+)\s+import)",
                         re.MULTILINE)


# Tokens after which a lone string starts a statement (a docstring or a bare string statement).
STATEMENT_START = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}


class TrimError(RuntimeError):
    """The allowlist is missing or names no module of the zip."""


def module_file(names: set[str], module: str) -> str | None:
    """The zip entry holding `module` (a .py file or a package's __init__.py), or None."""
    base = module.replace(".", "/")
    for candidate in (f"{base}.py", f"{base}/__init__.py"):
        if candidate in names:
            return candidate
    return None


def _with_parents(modules: set[str]) -> set[str]:
    return {".".join(m.split(".")[:i]) for m in modules for i in range(1, m.count(".") + 2)}


def _resolve(module: str | None, level: int, package: str) -> str | None:
    """The absolute name of `from <level dots><module> import ...` inside `package`."""
    if not level:
        return module
    parts = package.split(".")
    if level - 1 > len(parts) or not package:
        return None
    base = ".".join(parts[: len(parts) - (level - 1)])
    return f"{base}.{module}" if module else base


def _type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``): never run."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _ast_imports(tree: ast.AST, package: str, nested: bool) -> set[str]:
    """Imports in tree; inside functions too when nested, else only module-level ones; none
    of an ``if TYPE_CHECKING:`` block."""
    found: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if not nested:
                    continue
            if isinstance(child, ast.If) and _type_checking(child.test):
                todo.append(ast.Module(body=child.orelse, type_ignores=[]))  # its else only
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(child.module, child.level, package)
                if base is not None:
                    found.add(base)
                    found.update(f"{base}.{alias.name}" for alias in child.names)
            todo.append(child)
    return found


def module_imports(source: bytes, module: str, is_package: bool, nested: bool = False) -> set[str]:
    """The modules `source` imports (module-level only unless nested), parents included.

    Sources that this Python cannot parse (newer syntax in Pyodide's stdlib) are scanned line by
    line instead: every import statement counts, which can only keep more.
    """
    package = module if is_package else module.rpartition(".")[0]
    try:
        found = _ast_imports(ast.parse(source), package, nested)
    except SyntaxError:
        found = set()
        for match in IMPORT_LINE.finditer(source.decode("utf-8", "replace")):
            if match.group(2):
                found.update(name.strip() for name in match.group(2).split(","))
            elif not match.group(3).startswith("."):
                found.add(match.group(3))
    return _with_parents(found)


def _app_file(py_dir: Path, module: str) -> Path | None:
    base = py_dir.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def app_modules(py_dir: Path, entries: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The app's modules reachable from `entries` (imports inside functions followed too),
    and the names they import from outside py_dir: (inside, outside).

    An import by name (``importlib.import_module``) is not followed: that is how the page
    reaches app-more.zip's modules (boot/build/app_zip.py)."""
    inside: set[str] = set()
    outside: set[str] = set()
    todo = list(entries)
    while todo:
        module = todo.pop()
        if module in inside or module in outside:
            continue
        path = _app_file(py_dir, module)
        if path is None:
            outside.add(module)
            continue
        inside.add(module)
        todo.extend(module_imports(path.read_bytes(), module, path.name == "__init__.py",
                                   nested=True))
    return inside, outside


def app_imports(py_dir: Path, entries: tuple[str, ...] = ENTRIES) -> set[str]:
    """What the app's code reachable from `entries` imports from outside py_dir (inside
    functions too): command-line tools under py/ that the page never imports are not
    followed."""
    return app_modules(py_dir, entries)[1]


def strip_source(source: bytes) -> bytes:
    """source without comments and with every string statement (docstrings) turned into "".

    Works on tokens, so it needs no parser for the newest syntax; every line keeps its number.
    A source that does not tokenize is returned unchanged.
    """
    try:
        text = source.decode("utf-8")
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (UnicodeDecodeError, tokenize.TokenError, SyntaxError):
        return source
    cuts: list[tuple[tuple[int, int], tuple[int, int], str]] = []
    previous = tokenize.ENCODING
    for index, token in enumerate(tokens):
        if token.type == tokenize.COMMENT:
            cuts.append((token.start, token.end, ""))
        elif token.type == tokenize.STRING and previous in STATEMENT_START:
            following = tokens[index + 1].type if index + 1 < len(tokens) else None
            if following in (tokenize.NEWLINE, tokenize.ENDMARKER):
                cuts.append((token.start, token.end, '""' + "\n" * (token.end[0] - token.start[0])))
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
    lines = text.splitlines(keepends=True)
    for (row, col), (end_row, end_col), replacement in reversed(cuts):
        head = lines[row - 1][:col]
        if not replacement:
            head = head.rstrip(" \t")
        lines[row - 1:end_row] = [head + replacement + lines[end_row - 1][end_col:]]
    return "".join(lines).encode("utf-8")


def narrow_indents(source: bytes) -> bytes:
    """source with each line indented one space a block level instead of four (a line that
    continues a statement, as its statement's line): the same code, on the same lines.

    Works on tokens: a line inside a multi-line string is left alone, and so is a source that
    does not tokenize.
    """
    try:
        text = source.decode("utf-8")
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (UnicodeDecodeError, tokenize.TokenError, SyntaxError):
        return source
    depth = 0
    indents: dict[int, tuple[int, int]] = {}  # line: (column of its first token, its depth)
    inside_strings: set[int] = set()
    for token in tokens:
        if token.type == tokenize.INDENT:
            depth += 1
        elif token.type == tokenize.DEDENT:
            depth -= 1
        elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER):
            indents.setdefault(token.start[0], (token.start[1], depth))
            if token.type == tokenize.STRING:
                inside_strings.update(range(token.start[0] + 1, token.end[0] + 1))
    lines = text.splitlines(keepends=True)
    for row, (column, level) in indents.items():
        line = lines[row - 1]
        if row not in inside_strings and not line[:column].strip():
            lines[row - 1] = " " * level + line[column:]
    return "".join(lines).encode("utf-8")


def read_allowlist(path: Path = ALLOWLIST) -> set[str]:
    """The module names of the allowlist file (one a line, # comments)."""
    if not path.is_file():
        raise TrimError(f"missing {path}: run python3 boot/build/trim_stdlib.py --record")
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return {line for line in lines if line}


def kept_files(stdlib: zipfile.ZipFile, recorded: set[str], roots: set[str]) -> list[str]:
    """The zip entries to keep: recorded modules and the module-level closure of roots, without
    FALLBACKS."""
    names = set(stdlib.namelist())
    keep = {module_file(names, m) for m in _with_parents(recorded) - set(FALLBACKS)} - {None}
    if not keep:
        raise TrimError("the allowlist names no module of python_stdlib.zip")
    seen = set(recorded) | set(FALLBACKS)
    todo = sorted(_with_parents(roots) - seen)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        entry = module_file(names, module)
        if entry is None:
            continue  # not a standard module (a builtin, js, the app's own package, ...)
        keep.add(entry)
        source = stdlib.read(entry)
        todo.extend(module_imports(source, module, entry.endswith("/__init__.py")) - seen)
    return sorted(entry for entry in keep if entry is not None)


def trim(source: Path, py_dir: Path, allowlist: Path = ALLOWLIST) -> tuple[bytes, int]:
    """The trimmed zip's bytes (stored entries: the build gzips it whole) and the number of
    modules it holds."""
    recorded = read_allowlist(allowlist)
    with zipfile.ZipFile(source) as stdlib:
        names = set(stdlib.namelist())
        shadowed = {module_file(names, module) for module in SHADOWED}
        entries = [entry for entry in kept_files(stdlib, recorded,
                                                 app_imports(py_dir) | set(MARGIN))
                   if entry not in shadowed]
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as out:
            for entry in entries:
                info = zipfile.ZipInfo(entry, date_time=ZIP_DATE)
                info.external_attr = 0o644 << 16
                out.writestr(info, narrow_indents(strip_source(stdlib.read(entry))))
    return buffer.getvalue(), len(entries)


def main() -> int:
    """Command-line entry point: --record writes the allowlist, else print what is kept."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true",
                        help="play the app in Chromium and write boot/build/stdlib_modules.txt")
    parser.add_argument("--runs", type=int, default=2, help="recording sessions (--record)")
    args = parser.parse_args()
    if args.record:
        from record_modules import record  # record_modules.py beside this (needs Playwright)

        modules = record(args.runs)
        ALLOWLIST.write_text(
            "# Standard-library modules the game had imported after playing through its\n"
            "# screens in Chromium (boot/build/record_modules.py). Generated by\n"
            "# `python3 boot/build/trim_stdlib.py --record`: do not edit by hand.\n"
            + "".join(f"{m}\n" for m in modules)
        )
        print(f"wrote {ALLOWLIST.relative_to(ROOT)}: {len(modules)} modules")
    source = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
    data, count = trim(source, ROOT / "py")
    print(f"trimmed stdlib: {count} modules, {len(data) / 1e6:.2f} MB "
          f"(from {source.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
