/* A later visit's helper: the worker (boot/later-visit-worker.mjs) that compiles the runtime's
 * wasm and reads and checks the kept boot snapshot, off the main thread, while the page paints
 * its first frames and sets the runtime up (boot/pyodide-early.mjs takes its work). It is started
 * as the page's head is parsed (boot/later-visit-start.js, on a page that a service worker
 * controls): this module takes it over, with what it answered so far. The worker is kept while
 * the page lives: V8 goes on adding the code it compiles later for the wasm module to the HTTP
 * cache's entry through the compile that made it. */

let worker = null;
let wasm = null;  // Promises of the worker's answers
let snapshot = null;
let answers = null;  // how they are settled

/* Settles the answers with one of the worker's messages ({data}) or its failure ({error}). */
function heard({ data, error }) {
  if (error !== undefined) {  // the worker itself failed: the page does its work
    answers.wasm.reject(new Error(error));
    answers.snapshot.resolve(null);
    return;
  }
  if (data.wasm) answers.wasm.resolve(data.wasm);
  if (data.wasmError) answers.wasm.reject(new Error(data.wasmError));
  if (data.snapshot) answers.snapshot.resolve(data.snapshot);
  if (data.snapshotError) answers.snapshot.reject(new Error(data.snapshotError));
}

/* Takes over the worker that later-visit-start.js started, and what it has answered so far. */
function adopt(started) {
  worker = started.worker;
  answers = {};
  wasm = new Promise((resolve, reject) => { answers.wasm = { resolve, reject }; });
  snapshot = new Promise((resolve, reject) => { answers.snapshot = { resolve, reject }; });
  wasm.catch(() => {});  // handed on by compiledWasm
  snapshot.catch(() => {});  // handed on by snapshotBytes
  started.early.forEach(heard);
  worker.onmessage = ({ data }) => heard({ data });
  worker.onerror = (event) => heard({ error: event.message || "the later visit's worker failed" });
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

if (window.lcLaterVisit) adopt(window.lcLaterVisit);
