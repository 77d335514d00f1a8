// How the runtime in <pyodide dir> starts: how many shared WebAssembly.Memory it makes, and how
// many turns of Node's event loop pass (1) between the wasm's instantiation and the fsInit
// hook, which the runtime calls after the link, and (2) between that hook and the end of a
// snapshot's restore. A turn passes only where the runtime waits for a task; without one, the
// step is a single task. Prints {"sharedMemories": n, "link": n, "restore": n} as JSON.
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
const image = made.makeMemorySnapshot();
await loadPyodide({ indexURL, stdLibURL, _loadSnapshot: image,
                    fsInit: () => { hooked = turns; } });
const restore = turns - hooked;
counting = false;
console.log(JSON.stringify({ sharedMemories, link, restore }));
