"""Fill static/vendor/ from node_modules/ and py/ (the only build step).

Layout written (static/vendor/ is git-ignored; delete it to rebuild from scratch):

    static/vendor/pyodide/    pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm,
                              python_stdlib.zip, pyodide-lock.json   (npm: pyodide)
    static/vendor/pyscript/   core.js, core.css and their chunks, no source maps
                              (npm: @pyscript/core, dist/)
    static/vendor/peerjs/     peerjs.min.js, the UMD bundle that defines window.Peer (npm: peerjs)
    static/vendor/app.zip     the Python packages under py/ (lostcities, webui, ...), unpacked
                              by PyScript into the working directory (static/pyscript.json)

With --dist DIR it then assembles the deployable site in DIR (what Netlify publishes): the
top-level web files (index.html, sw.js, *.webmanifest, icons: see DIST_SUFFIXES), static/ with
its vendor/, and py/ (index.html runs py/webui/main.py). Nothing else: no node_modules, tests.

Run `npm ci` first. Usage: python3 scripts/build.py [--root DIR] [--dist DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import zipfile
from pathlib import Path

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PEERJS_FILES = ("peerjs.min.js",)
DIST_SUFFIXES = (".html", ".js", ".mjs", ".webmanifest", ".ico", ".png", ".svg")
DIST_FOLDERS = ("static", "py")
# Fixed timestamp so that app.zip is byte-identical for identical sources.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


class BuildError(RuntimeError):
    """A missing input (usually: `npm ci` has not run)."""


def copy_files(src_dir: Path, names: tuple[str, ...], dest_dir: Path) -> list[Path]:
    """Copy the named files from src_dir into dest_dir; fail clearly if one is missing."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    copied = []
    for name in names:
        src = src_dir / name
        if not src.is_file():
            raise BuildError(f"missing {src}: run `npm ci` first")
        shutil.copyfile(src, dest_dir / name)
        copied.append(dest_dir / name)
    return copied


def copy_pyscript(dist: Path, dest_dir: Path) -> list[Path]:
    """Copy PyScript's dist (core.js, core.css and every chunk they import), without maps."""
    if not (dist / "core.js").is_file():
        raise BuildError(f"missing {dist / 'core.js'}: run `npm ci` first")
    dest_dir.mkdir(parents=True, exist_ok=True)
    copied = []
    for src in sorted(dist.iterdir()):
        if src.is_file() and src.suffix in (".js", ".css"):
            shutil.copyfile(src, dest_dir / src.name)
            copied.append(dest_dir / src.name)
    return copied


def python_sources(py_dir: Path) -> list[Path]:
    """Every file of every package under py/ (a package is a folder with __init__.py)."""
    files = []
    for package in sorted(p for p in py_dir.iterdir() if (p / "__init__.py").is_file()):
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files.append(path)
    return files


def zip_packages(py_dir: Path, dest: Path) -> list[Path]:
    """Write the packages under py_dir into the zip dest, paths relative to py_dir."""
    files = python_sources(py_dir)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(".zip.tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in files:
            info = zipfile.ZipInfo(path.relative_to(py_dir).as_posix(), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    tmp.replace(dest)
    return files


def build(root: Path) -> None:
    """Rebuild root/static/vendor from root/node_modules and root/py."""
    modules = root / "node_modules"
    vendor = root / "static" / "vendor"
    if vendor.exists():
        shutil.rmtree(vendor)
    copy_files(modules / "pyodide", PYODIDE_FILES, vendor / "pyodide")
    copy_pyscript(modules / "@pyscript" / "core" / "dist", vendor / "pyscript")
    copy_files(modules / "peerjs" / "dist", PEERJS_FILES, vendor / "peerjs")
    sources = zip_packages(root / "py", vendor / "app.zip")
    size = sum(p.stat().st_size for p in vendor.rglob("*") if p.is_file())
    print(f"built {vendor}: {size / 1e6:.1f} MB, app.zip holds {len(sources)} files")


def assemble(root: Path, dist: Path) -> None:
    """Copy the deployable site (built static/vendor included) from root into dist."""
    target, source = dist.resolve(), root.resolve()
    inside = source in target.parents and target.relative_to(source).parts[0] in DIST_FOLDERS
    if target == source or target in source.parents or inside:
        raise BuildError(f"refusing to assemble into {dist}: it would overwrite the sources")
    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir(parents=True)
    for path in sorted(root.iterdir()):
        if path.is_file() and path.suffix in DIST_SUFFIXES:
            shutil.copyfile(path, dist / path.name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in DIST_FOLDERS:
        shutil.copytree(root / folder, dist / folder, ignore=ignore)
    print(f"assembled the site in {dist}")


def main() -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--dist", type=Path, help="also assemble the deployable site here")
    args = parser.parse_args()
    try:
        build(args.root)
        if args.dist is not None:
            assemble(args.root, args.dist)
    except BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
