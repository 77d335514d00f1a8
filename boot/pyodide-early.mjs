/* Pyodide booted early: PyScript's "interpreter" module (static/pyscript.json); the boot path
 * as a whole is described in docs/boot.md.
 *
 * PyScript asks for the interpreter only after its own chunks, its config and the page's
 * deferred scripts: about half a second after navigation. index.html imports this module at
 * once (an async module script), and it starts loadPyodide() from the vendored runtime as soon
 * as the shell has painted (the interpreter's start-up is one long task that would otherwise
 * hold back the first frame), or at once in a hidden tab (boot/preboot.js tells which). When
 * PyScript then calls loadPyodide(), it gets that same boot (PyScript asking first starts it).
 *
 * PyScript passes {stdout, stderr, indexURL}: the runtime always comes from
 * static/vendor/pyodide/, and the output callbacks are attached once the runtime is up.
 *
 * A later visit starts the runtime from the boot snapshot that the service worker keeps
 * (boot/snapshot.mjs), read and checked by a worker while the setup form paints, as the wasm is
 * compiled (boot/later-visit.mjs): Python already started, the game already imported. Without
 * one, or if it fails (damaged, or its restore throws), it boots the normal way and has the
 * service worker drop it. <html data-boot> says which: "snapshot" or "normal".
 * window.lcBoot.makeSnapshot(modulesJson) makes one (py/webui/browser/boot/warm.py, when idle);
 * window.lcBoot.zipBytes(url) fetches and unpacks app-more.zip.gz for py/webui/browser/boot/more.py
 * as this module does app.zip.gz (boot/snapshot.mjs).
 */
import "./no-stack-switching.mjs";  // first: before the runtime is evaluated
import { loadPyodide as loadRuntime, version } from "../static/vendor/pyodide/pyodide.mjs";
import * as snapshots from "./snapshot.mjs";
import * as laterVisitWorker from "./later-visit.mjs";
import * as wasmCache from "./wasm-cache.mjs";

snapshots.unpackStdlibRequests();  // the standard library ships gzipped

const indexURL = new URL("../static/vendor/pyodide/", import.meta.url).href;
const { APP_URL, APP_PATH, nextTask } = snapshots;  // app.zip: first on sys.path, never extracted
const RETRIED = "lostcities.bytecode-retried";  // sessionStorage: retried once from the sources
/* app.zip first on sys.path (once, even if a snapshot has it already: PyScript's own files,
 * written in the working directory, must not come before its compiled copy in app.zip). */
const APP_FIRST = `import sys
if "${APP_PATH}" in sys.path: sys.path.remove("${APP_PATH}")
sys.path.insert(0, "${APP_PATH}")`;
/* Run on a runtime restored from a snapshot: it must hold the game, and each boot draws its own
 * random numbers (the snapshot holds the generator's state). */
const RESTORED = `import random, sys
if "webui.browser.app" not in sys.modules: raise RuntimeError("this snapshot does not hold the game")
random.seed()`;
const WASM_URL = new URL("pyodide.asm.wasm", indexURL).href;
/* What a boot without a kept snapshot imports in its worker: the first screen's Python. */
const FIRST_SCREEN = ["webui.browser.app", "random"];  // random: RESTORED reseeds it
/* A restore's start-up is long stretches of main-thread work: the runtime's JavaScript is
 * compiled and set up, V8 instantiates the wasm, the runtime links it (every exported symbol),
 * then it restores the image and finishes Python's bootstrap, and PyScript's prelude follows.
 * Each is made a task of its own, so a key typed meanwhile is handled between them: the
 * runtime's module is imported in a task before loadRuntime() sets it up (`runtimeScript`),
 * the instantiation's result reaches the runtime in the next task (`loadInTasks`), the fsInit
 * hook, which the runtime awaits after the link, resolves in the next task (`linked`), and the
 * restored runtime reaches the page, and then PyScript, a task later each. A message, not a
 * timer: a hidden tab's timers wait a second. */

function linked() {
  performance.mark("lc:linked");  // for e2e/test_foundation.py
  return nextTask();
}

let script = null;

/* The runtime's JavaScript (pyodide.asm.mjs, 1.2 MB), compiled and evaluated in a task of its
 * own; loadRuntime() imports the same module, and sets it up in the next task. */
function runtimeScript() {
  script ??= import(new URL("pyodide.asm.mjs", indexURL).href).then(() => {
    performance.mark("lc:runtime-script");  // for e2e/test_foundation.py
  });
  return script;
}

/* loadRuntime(options) in tasks (above): the runtime's WebAssembly.instantiateStreaming() call
 * (whatever it is then: wasm-cache.mjs may have set one that takes a worker's module) resolves
 * a task later, and so does the restored runtime. */
async function loadInTasks(options) {
  await runtimeScript().catch(() => {});  // loadRuntime() reports a failed import
  await nextTask();
  const instantiate = WebAssembly.instantiateStreaming;
  const wrapper = async function (...args) {
    performance.mark("lc:set-up");  // for e2e/test_foundation.py
    await nextTask();  // V8 instantiates a given module at once: not in the set-up's task
    const result = await instantiate.apply(this, args);
    performance.mark("lc:instantiated");  // for e2e/test_foundation.py
    await nextTask();
    return result;
  };
  WebAssembly.instantiateStreaming = wrapper;
  try {
    const runtime = await loadRuntime(options);
    performance.mark("lc:restored");  // for e2e/test_foundation.py
    await nextTask();
    return runtime;
  } finally {
    if (WebAssembly.instantiateStreaming === wrapper) WebAssembly.instantiateStreaming = instantiate;
  }
}

let opening = null;
let asking = null;
let booting = null;
let working = null;
let compiling = null;

/* What a later visit keeps, asked of the service worker as this module runs: the
 * kept snapshot (its 14 MB read and checked by boot/later-visit.mjs's worker), or null... */
function openSnapshot() {
  opening ??= snapshots.open(laterVisitWorker.snapshotBytes()).catch((error) => {
    console.warn(`boot snapshot not read: ${error}`);
    return null;
  });
  return opening;
}

/* ...and this version's wasm as the worker names it, for the HTTP cache (wasm-cache.mjs): "" when
 * there is no worker to ask. */
function keptWasm() {
  asking ??= navigator.serviceWorker?.controller ? wasmCache.keptValidators()
    : Promise.resolve("");
  return asking;
}

/* The app's packages (boot/build/compile_app.mjs): every module compiled, PyScript's package and
 * the standard modules its prelude would compile from source (html) included. */
function appZip() {
  return snapshots.zipBytes(APP_URL);
}

/* The runtime restored from the kept snapshot, or null (none, or it failed: then the service
 * worker drops it). The runtime starts at once on an array of zeros of the image's size, and
 * the wasm is compiled while the snapshot is read and checked, and the image's header written
 * into that array (<html data-snapshot-read>: "worker", or "page" when boot/later-visit.mjs's
 * worker failed): the runtime waits for that (fsInit, before its start-up ends) and then
 * restores it, its pages written from the stored bytes into its memory (snapshot.mjs
 * `restorable`). A snapshot that fails its checks leaves the array without Pyodide's magic
 * number, which the restore refuses. */
async function fromSnapshot(app) {
  const found = await openSnapshot();
  if (!found) return null;
  let damage = null;
  const image = new Uint8Array(found.size);
  const filled = found.image(image).then((by) => {
    root.dataset.snapshotRead = by;  // who read and checked it: "worker" or "page"
  }, (error) => {
    damage = error;
    image.fill(0, 0, 4);  // what was written so far is never restored
  });
  try {
    await wasmFromHttpCache();
    const runtime = await loadInTasks({ indexURL, _loadSnapshot: image,
                                                    fsInit: () => filled.then(linked) });
    runtime.FS.writeFile(APP_PATH, await app);
    runtime.runPython(RESTORED);
    return runtime;
  } catch (error) {
    console.warn(`boot snapshot not used: ${damage ?? error}`);
    snapshots.drop(damage === null);
    return null;
  }
}

/* The worker's boot (fromWorker), started once: as this module runs on a page that no service
 * worker controls (a first visit: no snapshot can be kept), else when the boot finds none. It
 * costs the main thread nothing, so it need not wait for the setup form's frame. */
function workerBoot() {
  working ??= keptWasm().then((wasm) => snapshots.bootInWorker(FIRST_SCREEN, wasm));
  return working;
}

/* A boot without a kept snapshot: a worker starts Python and imports the first screen's modules
 * (FIRST_SCREEN) and hands over its memory image, which this page's runtime restores: the
 * start-up, seconds of one task, runs off the main thread, and the page keeps answering input.
 * Null if that failed (no worker, the worker's error, a restore that throws): the page then
 * boots the normal way. <html data-runtime-start> says where Python started: "worker" or
 * "page". */
async function fromWorker(app) {
  if (typeof Worker !== "function") return null;
  runtimeScript().catch(() => {});  // evaluated while the worker works, not after it
  try {
    const made = await workerBoot();
    performance.mark("lc:worker-booted", { detail: made.timings });
    wasmCache.withModule(WASM_URL, made.module);
    const runtime = await loadInTasks({ indexURL, _loadSnapshot: made.image,
                                                    fsInit: linked });
    runtime.FS.writeFile(APP_PATH, await app);
    runtime.runPython(RESTORED);
    return runtime;
  } catch (error) {
    console.warn(`the worker's boot not used: ${error}`);
    wasmCache.reset();
    return null;
  }
}

/* The next loadRuntime() takes the wasm from the HTTP cache, with its compiled code, if it holds
 * this version's (wasm-cache.mjs); <html data-wasm> says which way it came: "http-cache" or
 * "service-worker" (nothing without a service worker, on a first visit). With a kept snapshot, a
 * worker compiles it (`compiledWasm`), else the page does: <html data-wasm-compiled> says which,
 * "worker" or "page". The runtime is set up meanwhile: its fetch and instantiation of the wasm
 * wait for the worker's module (wasm-cache.mjs `withModule`). */
async function wasmFromHttpCache() {
  const expected = await keptWasm();
  if (!expected) return;
  const answer = (cached) => { root.dataset.wasm = cached ? "http-cache" : "service-worker"; };
  const module = compiledWasm().then((compiled) => {
    root.dataset.wasmCompiled = compiled ? "worker" : "page";
    if (compiled) answer(compiled.cached);
    return compiled?.module ?? null;
  });
  wasmCache.withModule(WASM_URL, module,
                       wasmCache.httpCacheFetch(globalThis.fetch, expected, answer));
}

/* A later visit's wasm, compiled by boot/later-visit.mjs's worker, if a snapshot is kept:
 * {module, cached}, or null (no snapshot or no service worker to ask, or the worker failed: the
 * page compiles it then, and the worker is stopped). */
function compiledWasm() {
  compiling ??= Promise.all([openSnapshot(), keptWasm()]).then(([found, expected]) => {
    if (!found || !expected || typeof Worker !== "function") return null;
    return laterVisitWorker.compiledWasm();
  }).then((compiled) => (compiled?.module ? compiled : null)).catch((error) => {
    console.warn(`the wasm not compiled in a worker: ${error}`);
    return null;
  }).then((compiled) => {
    if (compiled === null) laterVisitWorker.stop();
    return compiled;
  });
  return compiling;
}

/* How far the boot is, on the shell's bar (shown only when the wait is long: index.html). */
function progress(done) {
  const bar = document.getElementById("lc-loading-bar");
  if (bar) bar.value = done;
}

async function start() {
  performance.mark("lc:runtime-start");  // for scripts/bench_load.py
  progress(0.2);
  try {
    const app = appZip();
    app.catch(() => {});  // awaited below
    runtimeScript().catch(() => {});  // awaited by loadInTasks
    let runtime = await fromSnapshot(app);
    root.dataset.boot = runtime ? "snapshot" : "normal";
    if (!runtime) {
      runtime = await fromWorker(app);
      root.dataset.runtimeStart = runtime ? "worker" : "page";
    }
    if (!runtime) {
      await wasmFromHttpCache();
      runtime = await loadInTasks({ indexURL });
      runtime.FS.writeFile(APP_PATH, await app);
    }
    progress(0.7);
    runtime.runPython(APP_FIRST);
    performance.mark("lc:runtime-ready");
    await nextTask();  // PyScript's prelude comes next
    return runtime;
  } catch (error) {
    // A boot that fails on the standard library with the bytecode a previous boot compiled
    // (py/webui/browser/boot/warm.py) drops it and tries once more from the sources.
    const worker = navigator.serviceWorker?.controller;
    if (worker && !sessionStorage.getItem(RETRIED)) {
      sessionStorage.setItem(RETRIED, "1");
      const channel = new MessageChannel();
      channel.port1.onmessage = () => location.reload();
      worker.postMessage({ type: "drop-bytecode" }, [channel.port2]);
    }
    throw error;
  }
}

function boot() {
  booting ??= start();
  return booting;
}

/* Once the setup form has painted: boot/preboot.js sets html[data-shell="painted"] on the shell's
 * first contentful paint (at once in a hidden tab), and the form is laid out and drawn in the
 * frame after it; the runtime's start-up (one long task on this thread) waits for that frame
 * rather than hold it back. If the shell has not painted 250 ms after navigation, the boot
 * starts then (what comes first of it is mostly fetching and compiling the wasm off the main
 * thread: it costs a slow first paint little, and waiting for it cost the boot more). */
const root = document.documentElement;
if (typeof Worker === "function" && !navigator.serviceWorker?.controller) {
  workerBoot().catch(() => {});  // awaited by fromWorker, which falls back on its failure
} else if (typeof Worker === "function") {
  // A later visit (a service worker controls the page) asks at once for what it keeps (the
  // snapshot's record, the wasm's validators: answered on the service worker's thread), while
  // boot/later-visit.mjs's worker, started by index.html before this module, compiles the wasm
  // and reads the snapshot (and that module has the runtime's script preloaded:
  // `runtimeScript` runs it once the form's frame is drawn).
  compiledWasm();
}

function afterTheFormsFrame() {
  // A hidden tab draws no frames: it boots at once, or as soon as it is hidden.
  if (document.visibilityState === "hidden") return boot();
  requestAnimationFrame(() => setTimeout(boot, 0));
  document.addEventListener("visibilitychange", () => boot(), { once: true });
}
if (root.dataset.shell === "painted") {
  afterTheFormsFrame();
} else {
  new MutationObserver((records, observer) => {
    if (root.dataset.shell !== "painted") return;
    observer.disconnect();
    afterTheFormsFrame();
  }).observe(root, { attributes: true, attributeFilter: ["data-shell"] });
  setTimeout(() => {
    if (root.dataset.shell !== "painted") boot();
  }, Math.max(0, 250 - performance.now()));
}

export { version };

window.lcBoot = {
  /* Makes a boot snapshot with the modules named in `modulesJson` imported, once the service
   * worker controls the page: a Promise of {kept, reason}. */
  async makeSnapshot(modulesJson) {
    performance.mark("lc:snapshot-start");  // for scripts/bench_load.py
    const answer = await snapshots.make(JSON.parse(modulesJson));
    performance.mark("lc:snapshot-done", { detail: answer });
    return answer;
  },
  zipBytes: snapshots.zipBytes,
};

export async function loadPyodide({ stdout, stderr } = {}) {
  const pyodide = await boot();
  if (stdout) pyodide.setStdout({ batched: stdout });
  if (stderr) pyodide.setStderr({ batched: stderr });
  return pyodide;
}
