// How the runtime in <pyodide dir> starts, in tasks: whether a turn of Node's event loop passes
// between the first part of its set-up (the module's function: its settings get ERRNO_CODES)
// and the set-up of Pyodide's JavaScript API (API.restoreSnapshot), and how many turns pass
// (1) between the wasm's instantiation and the fsInit hook, which the runtime calls after the
// link, and (2) between that hook and the end of a snapshot's restore. A turn passes only where
// the runtime waits for a task; without one, the step is a single task. Prints
// {"apiApart": bool, "link": n, "restore": n} as JSON.
// usage: node boot_tasks.mjs <pyodide dir> <python_stdlib.zip>
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, stdlib] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const factory = (await import(pathToFileURL(path.join(dir, "pyodide.asm.mjs")).href)).default;
const indexURL = path.resolve(dir) + "/";
const stdLibURL = path.resolve(stdlib);

let turns = 0;
let counting = true;
let settingUp = null;  // the settings of the module being set up
let apiApart = false;
(function turn() {
  turns += 1;
  const api = settingUp?.API;
  if (settingUp?.ERRNO_CODES && typeof api?.restoreSnapshot !== "function") apiApart = true;
  if (counting) setImmediate(turn);
})();

const instantiate = WebAssembly.instantiate;
let instantiated = null;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  instantiated = turns;
  return result;
};

let hooked = null;
const createPyodideModule = (settings) => {
  settingUp = settings;
  return factory(settings);
};
const made = await loadPyodide({ indexURL, stdLibURL, _makeSnapshot: true, createPyodideModule,
                                 fsInit: () => { hooked = turns; } });
const link = hooked - instantiated;
const image = made.makeMemorySnapshot();
await loadPyodide({ indexURL, stdLibURL, _loadSnapshot: image,
                    fsInit: () => { hooked = turns; } });
const restore = turns - hooked;
counting = false;
console.log(JSON.stringify({ apiApart, link, restore }));
