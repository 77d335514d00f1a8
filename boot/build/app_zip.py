"""app.zip: the Python packages under py/ compiled to bytecode (scripts/build.py calls
`build_app_zip`; docs/boot.md).

The packages are zipped as sources (a hidden file beside app.zip, neither shipped nor
precached), then compiled by the shipped runtime's own CPython under Node (compile_app.mjs
beside this file), with pycs of PyScript's own package and of `html`. Both steps leave their
output alone when nothing changed, and the same sources give the same bytes.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

APP_SOURCES = ".app-sources.zip"
"""The app's sources as compiled into app.zip (hidden: not shipped, not precached)."""
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
"""Fixed timestamp, so that the zip is byte-identical for identical sources."""
STDLIB = "python_stdlib.zip"
NATIVE_ONLY = ("lostcities/cli/", "lostcities/fair/sodium.py")
"""Sources the page never imports (the command line, the native group): left out of app.zip."""


class AppZipError(RuntimeError):
    """app.zip cannot be made: Node is missing or the compiler failed."""


def python_sources(py_dir: Path) -> list[Path]:
    """Every file of every package under py/ (a package is a folder with __init__.py), but
    the ``NATIVE_ONLY`` ones."""
    files = []
    for package in sorted(p for p in py_dir.iterdir() if (p / "__init__.py").is_file()):
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc" \
                    and not path.relative_to(py_dir).as_posix().startswith(NATIVE_ONLY):
                files.append(path)
    return files


def zip_packages(py_dir: Path, dest: Path) -> list[Path]:
    """Write the packages under py_dir into the zip dest, paths relative to py_dir (dest is
    left alone if unchanged)."""
    files = python_sources(py_dir)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in files:
            info = zipfile.ZipInfo(path.relative_to(py_dir).as_posix(), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    if dest.is_file() and filecmp.cmp(tmp, dest, shallow=False):
        tmp.unlink()
    else:
        os.replace(tmp, dest)
    return files


def compile_app(sources: Path, dest: Path, pyodide: Path, pyscript: Path) -> None:
    """Write dest: the zip `sources` with every module compiled to a sourceless pyc by the
    runtime's own CPython, and pycs for PyScript's own package (compile_app.mjs under Node),
    unless dest is newer than the sources, the runtime, PyScript and the compiler."""
    compiler = Path(__file__).with_name("compile_app.mjs")
    inputs = (sources, compiler, pyodide / "pyodide.asm.wasm", pyodide / STDLIB,
              *pyscript.glob("*.js"))
    if dest.is_file() and all(dest.stat().st_mtime_ns > p.stat().st_mtime_ns for p in inputs):
        return
    node = shutil.which("node")
    if node is None:
        raise AppZipError("node is needed to compile the app (npm installs it with Node.js)")
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    result = subprocess.run([node, str(compiler), str(pyodide), str(pyscript), str(sources),
                             str(tmp)],
                            capture_output=True, text=True)
    if result.returncode != 0 or not tmp.is_file():
        tmp.unlink(missing_ok=True)
        raise AppZipError(f"compiling the app failed: {result.stderr.strip()[-2000:]}")
    os.replace(tmp, dest)


def build_app_zip(py_dir: Path, vendor: Path) -> list[Path]:
    """Bring vendor/app.zip up to date with the packages under py_dir, compiled by the runtime
    in vendor/pyodide with PyScript's chunks in vendor/pyscript; the source files zipped."""
    sources = zip_packages(py_dir, vendor / APP_SOURCES)
    compile_app(vendor / APP_SOURCES, vendor / "app.zip", vendor / "pyodide",
                vendor / "pyscript")
    return sources
