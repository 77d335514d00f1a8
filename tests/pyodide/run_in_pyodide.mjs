// Run a Python snippet in Pyodide under Node with py/lostcities mounted; print its result.
// usage: node tests/pyodide/run_in_pyodide.mjs <pyodide.mjs path> <py dir> <python file>
//        [helper module files, importable beside lostcities ...]
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [pyodideMjs, pyDir, script, ...helpers] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideMjs).href);
const py = await loadPyodide();
const target = "/home/pyodide/lostcities";
py.FS.mkdirTree(target);
const pkg = path.join(pyDir, "lostcities");
for (const name of fs.readdirSync(pkg)) {
  if (name.endsWith(".py")) py.FS.writeFile(`${target}/${name}`, fs.readFileSync(path.join(pkg, name)));
}
for (const helper of helpers) {
  py.FS.writeFile(`/home/pyodide/${path.basename(helper)}`, fs.readFileSync(helper));
}
py.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
console.log(py.runPython(fs.readFileSync(script, "utf8")));
