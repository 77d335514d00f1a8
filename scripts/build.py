"""Fill static/vendor/ from node_modules/ and py/ (the only build step).

The boot's own build steps live with the rest of the boot path, in boot/build/ (docs/boot.md):
the trimmed standard library (trim_stdlib.py) and app.zip (app_zip.py, compile_app.mjs).

Layout written (static/vendor/ is git-ignored; files are updated in place):

    static/vendor/pyodide/    pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm,
                              package.json (its release, which sw.js checks) (npm: pyodide),
                              the two .mjs with the edits that cut a boot's longest tasks
                              (boot/build/js_edits.py),
                              pyodide-lock.json WITHOUT its package index (the site ships
                              no package), and python_stdlib.zip.gz: the standard library
                              TRIMMED to what the game imports (boot/build/trim_stdlib.py),
                              gzipped whole (the page unpacks it for the runtime)
    static/vendor/pyscript/   core.js and the chunks it imports, without the plugins the page
                              turns off ("!name" in static/pyscript.json and index.html's
                              <mpy-config>) and what only those import, without zip.js
                              (UNUSED_CHUNKS), the chunk of its prelude edited not to write
                              its package's sources (boot/build/js_edits.py), no source maps, no
                              core.css (it styles PyScript's editor and terminal, unused here;
                              one render-blocking request less) (npm: @pyscript/core, dist/)
    static/vendor/peerjs/     peerjs.min.js, the UMD bundle that defines window.Peer (npm: peerjs)
    static/vendor/qrcode/     qrcode.js, defines window.qrcode for the QR code of join links
                              (npm: qrcode-generator)
    static/vendor/sodium/     libsodium-wrappers.js and libsodium-sumo.js, the ES modules of
                              libsodium (its wasm inside) for fair online play; the wrappers'
                              import of the core by package name points at the file beside it
                              (npm: libsodium-wrappers-sumo, libsodium-sumo)
    static/vendor/app.zip.gz  the Python packages under py/ (lostcities, webui, ...) compiled to
                              bytecode (sourceless .pyc) by the runtime's own CPython under Node
                              (boot/build/compile_app.mjs), with pycs of PyScript's own package and
                              of `html`, and app-more.zip.gz, what the first screen does not need
                              (boot/build/app_zip.py): zips gzipped whole, which the page unpacks;
                              boot/pyodide-early.mjs puts app.zip first on sys.path
    static/vendor/shell-lang.js  the shell in the player's language before the first paint: the
                              words of index.html's shell in each language, from the game's
                              catalogue, and boot/build/shell-lang.js (boot/build/shell_text.py)

With --dist DIR it then assembles the deployable site in DIR (what Netlify publishes): the
top-level web files (index.html, sw.js, *.webmanifest, icons: see DIST_SUFFIXES), static/ with
its vendor/, boot/ without its build/ folder, and py/ (index.html runs py/webui/browser/main.py).
Nothing else: no node_modules, tests.

Run `npm ci` first. Usage: python3 scripts/build.py [--root DIR] [--dist DIR]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from precache import PrecacheError, write_precache  # scripts/precache.py

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "boot" / "build"))
from app_zip import AppZipError, build_app_zip, gzip_whole  # noqa: E402  (boot/build/app_zip.py)
from js_edits import PYODIDE, PYSCRIPT, JsEditError, edited, edited_chunks  # noqa: E402
from shell_text import write_shell_script  # noqa: E402  (boot/build/shell_text.py)
from trim_stdlib import TrimError, trim  # noqa: E402  (boot/build/trim_stdlib.py)

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
    "package.json",
)
STDLIB = "python_stdlib.zip"
SHIPPED_STDLIB = "python_stdlib.zip.gz"
"""The trimmed standard library as shipped: a zip of stored entries, gzipped whole."""
LOCK = "pyodide-lock.json"
# A chunk's imports: `from"./x.js"`, `import"./x.js"`, `import("./x.js")`.
CHUNK_IMPORT = re.compile(r'(?:from|import)\s*\(?\s*"\./([\w.-]+\.js)"')
# Chunks that PyScript imports only in code this page never runs: zip.js (zip-<hash>.js), with
# which MicroPython's engine unpacks archives of the config's "files" (the page runs no
# MicroPython, its config lists no files, and Pyodide's engine unpacks with the runtime).
UNUSED_CHUNKS = frozenset({"zip"})
PEERJS_FILES = ("peerjs.min.js",)
QRCODE_FILES = ("qrcode.js",)
SODIUM_WRAPPERS = "libsodium-wrappers.js"
SODIUM_CORE = "libsodium-sumo.js"
# How the ES module of libsodium-wrappers-sumo imports its core: by package name, which a page
# cannot resolve without an import map.
SODIUM_IMPORT = 'from"libsodium-sumo"'
DIST_SUFFIXES = (".html", ".js", ".mjs", ".webmanifest", ".ico", ".png", ".svg")
DIST_FOLDERS = ("static", "boot", "py")


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


def sync_made(sources: dict[str, Path], made: dict[str, bytes], dest_dir: Path) -> None:
    """sync_folder with the files of `made` (name -> bytes) in place of, or besides, those of
    sources; each written beside dest_dir first, then installed as the others."""
    written = {name: dest_dir / f".made-{name}.{os.getpid()}.tmp" for name in made}
    dest_dir.mkdir(parents=True, exist_ok=True)
    try:
        for name, path in written.items():
            path.write_bytes(made[name])
        sync_folder({**sources, **written}, dest_dir)
    finally:
        for path in written.values():
            path.unlink(missing_ok=True)


def packageless_lock(lock: Path) -> bytes:
    """Pyodide's lock file with an empty package index. The site ships none of Pyodide's
    packages (the game's Python is in app.zip, the standard library in its trimmed zip), and
    the runtime fetches and parses this file at every start: the index of ~360 packages is
    119 KB (22 KB brotli) the first screen would carry for nothing."""
    data = json.loads(lock.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("packages"), dict):
        raise BuildError(f"{lock} is not a lock file with a package index")
    return json.dumps({**data, "packages": {}}, separators=(",", ":")).encode()


def npm_files(src_dir: Path, names: tuple[str, ...]) -> dict[str, Path]:
    """The named files of src_dir; fail clearly if one is missing."""
    for name in names:
        if not (src_dir / name).is_file():
            raise BuildError(f"missing {src_dir / name}: run `npm ci` first")
    return {name: src_dir / name for name in names}


def sodium_wrappers(modules: Path) -> str:
    """The ES module of libsodium-wrappers-sumo, importing its core from the file beside it."""
    src = npm_files(modules / "libsodium-wrappers-sumo" / "dist" / "modules-sumo-esm",
                    ("libsodium-wrappers.mjs",))["libsodium-wrappers.mjs"]
    text = src.read_text(encoding="utf-8")
    if text.count(SODIUM_IMPORT) != 1:
        raise BuildError(f"{src} does not import its core as {SODIUM_IMPORT!r} exactly once")
    return text.replace(SODIUM_IMPORT, f'from"./{SODIUM_CORE}"')


def vendor_sodium(modules: Path, dest: Path) -> None:
    """Fill dest with libsodium's two ES modules (.js: every server types them as JavaScript)."""
    core = npm_files(modules / "libsodium-sumo" / "dist" / "modules-sumo-esm",
                     ("libsodium-sumo.mjs",))["libsodium-sumo.mjs"]
    dest.mkdir(parents=True, exist_ok=True)
    wrappers = dest / f".rewritten-{SODIUM_WRAPPERS}.{os.getpid()}.tmp"
    wrappers.write_text(sodium_wrappers(modules), encoding="utf-8")
    try:
        sync_folder({SODIUM_WRAPPERS: wrappers, SODIUM_CORE: core}, dest)
    finally:
        wrappers.unlink()


def _off(config: object) -> set[str]:
    plugins = config.get("plugins", []) if isinstance(config, dict) else []
    return {p[1:] for p in plugins if isinstance(p, str) and p.startswith("!")}


def disabled_plugins(root: Path) -> set[str]:
    """The PyScript plugins that no PyScript type of the page loads.

    PyScript imports every plugin once for each of its types (Python and MicroPython) unless
    that type's config says "!name": static/pyscript.json for Python, the page's
    <mpy-config> for MicroPython. Only plugins both turn off are never requested.
    """
    python = json.loads((root / "static" / "pyscript.json").read_text())
    page = (root / "index.html").read_text(encoding="utf-8")
    match = re.search(r"<mpy-config[^>]*>(.*?)</mpy-config>", page, re.DOTALL)
    micropython = json.loads(match.group(1)) if match else {}
    return _off(python) & _off(micropython)


def pyscript_files(dist: Path, disabled: Iterable[str] = ()) -> dict[str, Path]:
    """PyScript's core.js and the chunks reachable from it, no source maps, no core.css.

    A chunk is reachable through static and dynamic imports, except the chunks of a disabled
    plugin (`py-editor-<hash>.js` for "py-editor", `codemirror_state-<hash>.js` for
    "codemirror"), which PyScript then never imports; what only those import (xterm) goes too.
    """
    if not (dist / "core.js").is_file():
        raise BuildError(f"missing {dist / 'core.js'}: run `npm ci` first")
    names = sorted(set(disabled))
    dropped = re.compile(
        "^(?:" + "|".join(re.escape(name) for name in names) + r")(?:_[\w-]+)?-\w+\.js$"
    ) if names else None
    found = {"core.js"}
    todo = ["core.js"]
    while todo:
        text = (dist / todo.pop()).read_text(encoding="utf-8")
        for name in CHUNK_IMPORT.findall(text):
            if name in found or (dropped is not None and dropped.match(name)):
                continue
            if not (dist / name).is_file():
                raise BuildError(f"PyScript imports {name}, missing from {dist}")
            found.add(name)
            todo.append(name)
    return {name: dist / name for name in sorted(found)}


def build(root: Path) -> None:
    """Bring root/static/vendor up to date from root/node_modules and root/py.

    Only changed files are rewritten, each atomically, so a running server keeps working.
    """
    modules = root / "node_modules"
    vendor = root / "static" / "vendor"
    pyodide = npm_files(modules / "pyodide", PYODIDE_FILES + (STDLIB,))
    data, kept = trim(pyodide[STDLIB], root / "py")
    (vendor / "pyodide").mkdir(parents=True, exist_ok=True)
    stdlib = vendor / "pyodide" / SHIPPED_STDLIB
    gzip_whole(data, stdlib)  # left alone if unchanged
    made = {LOCK: packageless_lock(pyodide[LOCK])}
    made.update({name: edited(pyodide[name].read_text(encoding="utf-8"), edits, name).encode()
                 for name, edits in PYODIDE.items()})
    shipped = {name: path for name, path in pyodide.items() if name != STDLIB}
    sync_made({**shipped, SHIPPED_STDLIB: stdlib}, made, vendor / "pyodide")
    disabled = disabled_plugins(root)
    pyscript = pyscript_files(modules / "@pyscript" / "core" / "dist", disabled | UNUSED_CHUNKS)
    chunks = {name: path.read_text(encoding="utf-8") for name, path in pyscript.items()}
    sync_made(pyscript, {name: text.encode() for name, text in
                         edited_chunks(chunks, PYSCRIPT).items()}, vendor / "pyscript")
    sync_folder(npm_files(modules / "peerjs" / "dist", PEERJS_FILES), vendor / "peerjs")
    sync_folder(npm_files(modules / "qrcode-generator" / "dist", QRCODE_FILES), vendor / "qrcode")
    vendor_sodium(modules, vendor / "sodium")
    sources = build_app_zip(root / "py", vendor, pyodide[STDLIB])
    write_shell_script(root, vendor)
    write_precache(root)  # the service worker's list (static/vendor/precache.js), sw.js
    size = sum(p.stat().st_size for p in vendor.rglob("*") if p.is_file())
    print(f"built {vendor}: {size / 1e6:.1f} MB, app.zip holds {len(sources)} files, "
          f"the stdlib zip {kept} modules")


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
    build_only = (root / "boot" / "build").resolve()  # the boot's build steps

    def ignore(folder: str, names: list[str]) -> set[str]:
        hidden = {n for n in names if n.startswith(".") or n == "__pycache__"  # build files
                  or n.endswith(".pyc")}
        return hidden | {n for n in names if (Path(folder) / n).resolve() == build_only}

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
    except (AppZipError, BuildError, JsEditError, PrecacheError, TrimError) as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
