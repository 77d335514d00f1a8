/* A later visit's helper: a worker (boot/later-visit-worker.mjs) that compiles the runtime's wasm
 * and reads and checks the kept boot snapshot, off the main thread, while the page paints its
 * first frames and sets the runtime up (boot/pyodide-early.mjs takes its work). It starts as this
 * module runs on a page that a service worker controls (index.html loads it on its own, before
 * the boot's modules: the worker's start-up, ~50-100 ms, overlaps theirs), and so does the
 * preload of the runtime's script (`preloadRuntimeScript`). The worker is kept while the page
 * lives: V8 goes on adding the code it compiles later for the wasm module to the HTTP cache's
 * entry through the compile that made it. */

let worker = null;
let wasm = null;  // Promises of the worker's answers
let snapshot = null;
let answers = null;  // how they are settled

/* Starts the worker (once), asking it for the wasm at `wasmUrl`. */
function start(wasmUrl) {
  if (worker !== null) return;
  worker = new Worker(new URL("./later-visit-worker.mjs", import.meta.url), { type: "module" });
  answers = {};
  wasm = new Promise((resolve, reject) => { answers.wasm = { resolve, reject }; });
  snapshot = new Promise((resolve, reject) => { answers.snapshot = { resolve, reject }; });
  wasm.catch(() => {});  // handed on by compiledWasm
  snapshot.catch(() => {});  // handed on by snapshotBytes
  worker.onmessage = ({ data }) => {
    if (data.wasm) answers.wasm.resolve(data.wasm);
    if (data.wasmError) answers.wasm.reject(new Error(data.wasmError));
    if (data.snapshot) answers.snapshot.resolve(data.snapshot);
    if (data.snapshotError) answers.snapshot.reject(new Error(data.snapshotError));
  };
  worker.onerror = (event) => {  // the worker itself failed: the page does its work
    answers.wasm.reject(new Error(event.message || "the later visit's worker failed"));
    answers.snapshot.resolve(null);
  };
  worker.postMessage({ wasm: wasmUrl });
}

/* The wasm the worker compiled: a Promise of {module, cached} (module null when the service
 * worker keeps no copy); rejected if the worker failed, or was not started. */
export function compiledWasm() {
  return wasm ?? Promise.reject(new Error("the later visit's worker was not started"));
}

/* The kept snapshot's container, read and checked by the worker: a Promise of an ArrayBuffer,
 * or of null if the worker failed or was not started (the page reads it then); rejected if
 * none is kept or it is damaged. */
export function snapshotBytes() {
  return snapshot ?? Promise.resolve(null);
}

/* Stops the worker, when the page compiles no wasm in it after all (a snapshot not read yet is
 * then read by the page). */
export function stop() {
  worker?.terminate();
  worker = null;
  answers?.snapshot.resolve(null);
}

/* The runtime's script (1.2 MB), fetched and parsed off the main thread from now on, not run:
 * boot/pyodide-early.mjs runs it once the form's frame is drawn. V8 keeps no compiled code for
 * a module, and its parse takes another thread 60-90 ms of each visit: begun when the boot's
 * modules run (~100 ms later), it was not always done when the boot wanted the script. */
function preloadRuntimeScript() {
  const preload = document.createElement("link");
  preload.rel = "modulepreload";
  preload.href = new URL("../static/vendor/pyodide/pyodide.asm.mjs", import.meta.url).href;
  document.head.append(preload);
}

if (typeof Worker === "function" && navigator.serviceWorker?.controller) {
  start(new URL("../static/vendor/pyodide/pyodide.asm.wasm", import.meta.url).href);
  preloadRuntimeScript();
}
