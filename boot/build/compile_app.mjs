// Compile the app's Python to bytecode with the shipped runtime's own CPython (called by
// app_zip.py beside it, which scripts/build.py runs at build time).
//
// usage: node boot/build/compile_app.mjs <pyodide dir> <pyscript dir> <sources.zip> <bytecode.zip>
//                                        <stdlib.zip>
//
// - Every `name.py` of sources.zip becomes `name.pyc` in bytecode.zip: a pyc the import system
//   loads without a source next to it (sourceless), compiled as the file `name.py` (what
//   tracebacks show), without column positions (line numbers kept) and without the
//   docstrings of modules and functions. Classes keep theirs: a dataclass without one gets
//   its signature as docstring, made by `inspect` at every import (a third of the app's
//   import time in Pyodide). Any other entry is copied.
// - PyScript's own Python package, which PyScript writes into the working directory at every
//   boot from a string in one of its chunks, becomes `pyscript/<module>.pyc`.
//   boot/pyodide-early.mjs puts this zip first on sys.path, so these are imported instead of
//   the sources. They are unchecked hash-based pycs: run as they are, the header keeps the
//   hash of the source they were made from (e2e/test_bytecode.py compares it with what
//   PyScript writes in the page). The standard modules that package imports (`html`) come in
//   sources.zip (app_zip.py puts them there).
// Entries are deflated with fixed dates: the same sources give the same bytes.
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [pyodideDir, pyscriptDir, sourcesZip, bytecodeZip, stdlibZip] = process.argv.slice(2);
if (!stdlibZip) {
  console.error("usage: node boot/build/compile_app.mjs <pyodide dir> <pyscript dir> " +
                "<sources.zip> <bytecode.zip> <stdlib.zip>");
  process.exit(2);
}

/* PyScript's package, {module file name: source}, from the chunk that holds it. */
function pyscriptPackage(dir) {
  const marker = '{pyscript:{"__init__.py":';
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".js"))) {
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    const start = text.indexOf(marker);
    if (start < 0) continue;
    let depth = 0;
    let end = start;
    for (let quoted = false; end < text.length; end++) {  // the object literal's end
      const c = text[end];
      if (quoted) {
        if (c === "\\") end++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) break;
    }
    return new Function(`return ${text.slice(start, end + 1)};`)().pyscript;
  }
  throw new Error(`PyScript's Python package (${marker}...) is in no chunk of ${dir}`);
}

const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
// Compiled without column positions (CPython's PYTHONNODEBUGRANGES, as `-X no_debug_ranges`):
// tracebacks keep their line numbers but lose the ^^^ under the failing expression, and the
// bytecode is a fifth smaller (docs/performance.md).
// The standard library as a zip (the site ships it gzipped: the npm package's whole one here).
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/",
                                    stdLibURL: path.resolve(stdlibZip),
                                    env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.writeFile("/tmp/sources.zip", fs.readFileSync(sourcesZip));
pyodide.globals.set("PYSCRIPT", JSON.stringify(pyscriptPackage(pyscriptDir)));
pyodide.runPython(`
import ast, json, marshal, zipfile
from importlib.util import MAGIC_NUMBER, source_hash

DATE = (1980, 1, 1, 0, 0, 0)
UNDOCUMENTED = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)


def without_docstrings(source, name):
    tree = ast.parse(source, name)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, UNDOCUMENTED) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            body[0].value.value = ""
    return tree


def entry(name):
    info = zipfile.ZipInfo(name, DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def code(source, name):
    return marshal.dumps(compile(source, name, "exec", dont_inherit=True))


def hashed_pyc(source, name):
    """An unchecked hash-based pyc: run as is, with the hash of the source it was made from."""
    if isinstance(source, str):
        source = source.encode("utf-8")
    return MAGIC_NUMBER + (1).to_bytes(4, "little") + source_hash(source) + code(source, name)


with zipfile.ZipFile("/tmp/sources.zip") as sources, \\
        zipfile.ZipFile("/tmp/bytecode.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for info in sources.infolist():
        name, data = info.filename, sources.read(info)
        if name.endswith(".py"):  # flags 0 and no source date: never checked, no source
            tree = without_docstrings(data, name)
            name, data = name[:-3] + ".pyc", MAGIC_NUMBER + bytes(12) + code(tree, name)
        out.writestr(entry(name), data)
    for module, text in sorted(json.loads(PYSCRIPT).items()):
        source, name = text.encode("utf-8"), "pyscript/" + module  # as PyScript writes it
        out.writestr(entry(name[:-3] + ".pyc"), hashed_pyc(source, name))
`);
fs.writeFileSync(bytecodeZip, pyodide.FS.readFile("/tmp/bytecode.zip"));
