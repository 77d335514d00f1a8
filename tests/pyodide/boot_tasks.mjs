// How the runtime in <pyodide dir> starts: how many shared WebAssembly.Memory it makes, and how
// many turns of Node's event loop pass (1) between the wasm's instantiation and the fsInit
// hook, which the runtime calls after the link, and (2) between that hook and the end of a
// snapshot's restore. A turn passes only where the runtime waits for a task; without one, the
// step is a single task; (3) how many symbols the link put into the table of globals that
// dynamic libraries link against (GOT), and (4) what Python computes on the restored runtime
// from a value set before the image was made. Prints {"sharedMemories": n, "link": n,
// "restore": n, "got": n, "answer": "..."} as JSON.
// usage: node boot_tasks.mjs <pyodide dir> <python_stdlib.zip>
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, stdlib] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
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

const instantiate = WebAssembly.instantiate;
let instantiated = null;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  instantiated = turns;
  return result;
};

let hooked = null;
const made = await loadPyodide({ indexURL, stdLibURL, _makeSnapshot: true,
                                 fsInit: () => { hooked = turns; } });
const link = hooked - instantiated;
const got = Object.keys(made._module.GOT).length;
made.runPython("import json; answer = json.loads('[41]')[0] + 1");
const image = made.makeMemorySnapshot();
const restored = await loadPyodide({ indexURL, stdLibURL, _loadSnapshot: image,
                                     fsInit: () => { hooked = turns; } });
const restore = turns - hooked;
counting = false;
const answer = restored.runPython("import math, re; re.sub('1', '2', str(answer + math.floor(0.5)))");
console.log(JSON.stringify({ sharedMemories, link, restore, got, answer }));
