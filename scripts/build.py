"""Fill static/vendor/ from node_modules/ and py/ (the only build step).

Layout written (static/vendor/ is git-ignored; files are updated in place):

    static/vendor/pyodide/    pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm,
                              python_stdlib.zip, pyodide-lock.json   (npm: pyodide)
    static/vendor/pyscript/   core.js, core.css and their chunks, no source maps
                              (npm: @pyscript/core, dist/)
    static/vendor/peerjs/     peerjs.min.js, the UMD bundle that defines window.Peer (npm: peerjs)
    static/vendor/qrcode/     qrcode.js, defines window.qrcode for the QR code of join links
                              (npm: qrcode-generator)
    static/vendor/app.zip     the Python packages under py/ (lostcities, webui, ...), unpacked
                              by PyScript into the working directory (static/pyscript.json)

With --dist DIR it then assembles the deployable site in DIR (what Netlify publishes): the
top-level web files (index.html, sw.js, *.webmanifest, icons: see DIST_SUFFIXES), static/ with
its vendor/, and py/ (index.html runs py/webui/main.py). Nothing else: no node_modules, tests.

Run `npm ci` first. Usage: python3 scripts/build.py [--root DIR] [--dist DIR]
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import sys
import zipfile
from pathlib import Path

from precache import PrecacheError, write_precache  # scripts/precache.py

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PEERJS_FILES = ("peerjs.min.js",)
QRCODE_FILES = ("qrcode.js",)
DIST_SUFFIXES = (".html", ".js", ".mjs", ".webmanifest", ".ico", ".png", ".svg")
DIST_FOLDERS = ("static", "py")
# Fixed timestamp so that app.zip is byte-identical for identical sources.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


class BuildError(RuntimeError):
    """A missing input (usually: `npm ci` has not run)."""


def install_file(src: Path, dest: Path) -> None:
    """Copy src to dest atomically, leaving an identical dest untouched.

    A server (or another build) reading static/vendor meanwhile never sees a missing or
    half-written file: e2e sessions of several developers may share one checkout.
    """
    if dest.is_file() and filecmp.cmp(src, dest, shallow=False):
        return
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dest)


def sync_folder(sources: dict[str, Path], dest_dir: Path) -> None:
    """Make dest_dir hold exactly the files sources names (name -> source file)."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    for name, src in sources.items():
        install_file(src, dest_dir / name)
    for path in dest_dir.iterdir():
        if path.is_file() and path.name not in sources and not path.name.startswith("."):
            path.unlink(missing_ok=True)


def npm_files(src_dir: Path, names: tuple[str, ...]) -> dict[str, Path]:
    """The named files of src_dir; fail clearly if one is missing."""
    for name in names:
        if not (src_dir / name).is_file():
            raise BuildError(f"missing {src_dir / name}: run `npm ci` first")
    return {name: src_dir / name for name in names}


def pyscript_files(dist: Path) -> dict[str, Path]:
    """PyScript's dist: core.js, core.css and every chunk they import, without source maps."""
    if not (dist / "core.js").is_file():
        raise BuildError(f"missing {dist / 'core.js'}: run `npm ci` first")
    return {
        src.name: src
        for src in sorted(dist.iterdir())
        if src.is_file() and src.suffix in (".js", ".css")
    }


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


def build(root: Path) -> None:
    """Bring root/static/vendor up to date from root/node_modules and root/py.

    Only changed files are rewritten, each atomically, so a running server keeps working.
    """
    modules = root / "node_modules"
    vendor = root / "static" / "vendor"
    sync_folder(npm_files(modules / "pyodide", PYODIDE_FILES), vendor / "pyodide")
    sync_folder(pyscript_files(modules / "@pyscript" / "core" / "dist"), vendor / "pyscript")
    sync_folder(npm_files(modules / "peerjs" / "dist", PEERJS_FILES), vendor / "peerjs")
    sync_folder(npm_files(modules / "qrcode-generator" / "dist", QRCODE_FILES), vendor / "qrcode")
    sources = zip_packages(root / "py", vendor / "app.zip")
    write_precache(root)  # the service worker's list (static/vendor/precache.js), sw.js
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
    except (BuildError, PrecacheError) as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
