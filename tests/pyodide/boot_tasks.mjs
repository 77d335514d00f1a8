// How the runtime in <pyodide dir> starts: how many shared WebAssembly.Memory it makes, and how
// many turns of Node's event loop pass (1) between the wasm's instantiation and the fsInit
// hook, which the runtime calls after the link, and (2) between that hook and the end of a
// snapshot's restore. A turn passes only where the runtime waits for a task; without one, the
// step is a single task; (3) how many symbols the link put into the table of globals that
// dynamic libraries link against (GOT), (4) how many wasm modules the link compiles (the
// wrappers of JavaScript functions the wasm takes the address of), and (5) what Python computes
// on the restored runtime from a value set before the image was made, and (6) on one restored
// the page's way: the image stored as boot/snapshot.mjs keeps it, and written from there into
// the runtime's memory. Prints {"sharedMemories": n, "link": n, "restore": n, "got": n,
// "wrapperModules": n, "answer": "...", "pageAnswer": "..."} as JSON.
// usage: node boot_tasks.mjs <pyodide dir> <python_stdlib.zip> [page]  ("page": do (6), which
// only a runtime with js_edits.WRITTEN_INTO_MEMORY can; else "pageAnswer" is null)
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, stdlib, page] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const { encode, check, restorable } = await import(
  new URL("../../boot/snapshot.mjs", import.meta.url).href);
const indexURL = path.resolve(dir) + "/";
const stdLibURL = path.resolve(stdlib);

let turns = 0;
let counting = true;
(function turn() {
  turns += 1;
  if (counting) setImmediate(turn);
})();

let sharedMemories = 0;
const Memory = WebAssembly.Memory;
WebAssembly.Memory = function (descriptor) {
  if (descriptor?.shared) sharedMemories += 1;
  return new Memory(descriptor);
};

let compiled = 0;
WebAssembly.Module = new Proxy(WebAssembly.Module, {  // still the class for instanceof
  construct(target, args) {
    compiled += 1;
    return Reflect.construct(target, args);
  },
});

const instantiate = WebAssembly.instantiate;
let instantiated = null;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  instantiated = turns;
  return result;
};

let hooked = null;
let wrapperModules = null;
const made = await loadPyodide({ indexURL, stdLibURL, _makeSnapshot: true,
                                 fsInit: () => { hooked = turns; wrapperModules = compiled; } });
const link = hooked - instantiated;
const got = Object.keys(made._module.GOT).length;
made.runPython("import json; answer = json.loads('[41]')[0] + 1");
const image = made.makeMemorySnapshot();
const restored = await loadPyodide({ indexURL, stdLibURL, _loadSnapshot: image,
                                     fsInit: () => { hooked = turns; } });
const restore = turns - hooked;
counting = false;
const question = "import math, re; re.sub('1', '2', str(answer + math.floor(0.5)))";
const answer = restored.runPython(question);
let pageAnswer = null;
if (page === "page") {
  const stored = encode(image);
  await check(stored);
  const into = restorable(stored, new Uint8Array(image.length));
  pageAnswer = (await loadPyodide({ indexURL, stdLibURL, _loadSnapshot: into })).runPython(question);
}
console.log(JSON.stringify({ sharedMemories, link, restore, got, wrapperModules, answer,
                             pageAnswer }));
