/* Pyodide booted early: PyScript's "interpreter" module (static/pyscript.json).
 *
 * PyScript asks for the interpreter only after its own chunks, its config and the page's
 * deferred scripts: about half a second after navigation. index.html imports this module at
 * once (an async module script), and it starts loadPyodide() from the vendored runtime as soon
 * as the shell has painted (the interpreter's start-up is one long task that would otherwise hold
 * back the first frame), or at once in a hidden tab (static/preboot.js tells which). When PyScript then calls loadPyodide(), it
 * gets that same boot (PyScript asking first starts it too).
 *
 * PyScript passes {stdout, stderr, indexURL}: the runtime always comes from ./vendor/pyodide/
 * next to this file, and the output callbacks are attached once the runtime is up.
 */
import { loadPyodide as loadRuntime, version } from "./vendor/pyodide/pyodide.mjs";

const indexURL = new URL("./vendor/pyodide/", import.meta.url).href;
const APP_URL = new URL("./vendor/app.zip", import.meta.url).href;
const APP_PATH = "/lib/lostcities-app.zip";  // first on sys.path: imported from, never unpacked
const RETRIED = "lostcities.bytecode-retried";  // sessionStorage: retried once from the sources
let booting = null;

/* The app's packages (scripts/compile_app.mjs): every module compiled, PyScript's package and
 * the standard modules its prelude would compile from source (html) included. */
async function appZip() {
  const response = await fetch(APP_URL);
  if (!response.ok) throw new Error(`${APP_URL}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function start() {
  performance.mark("lc:runtime-start");  // for scripts/bench_load.py
  try {
    const [runtime, app] = await Promise.all([loadRuntime({ indexURL }), appZip()]);
    runtime.FS.writeFile(APP_PATH, app);
    runtime.runPython(`import sys; sys.path.insert(0, "${APP_PATH}")`);
    performance.mark("lc:runtime-ready");
    return runtime;
  } catch (error) {
    // A boot that fails on the standard library with the bytecode a previous boot compiled
    // (py/webui/warm_boot.py) drops it and tries once more from the sources.
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

/* Once the shell has painted (html[data-shell="painted"]: static/preboot.js sets it on the first
 * contentful paint, at once in a hidden tab), or 250 ms after navigation if that comes later
 * (what comes first of the boot is mostly fetching and compiling the wasm off the main thread:
 * it costs a slow first paint little, and waiting for it cost the boot more). */
const root = document.documentElement;
if (root.dataset.shell === "painted") {
  boot();
} else {
  new MutationObserver((records, observer) => {
    if (root.dataset.shell !== "painted") return;
    observer.disconnect();
    setTimeout(boot, 0);
  }).observe(root, { attributes: true, attributeFilter: ["data-shell"] });
  setTimeout(boot, Math.max(0, 250 - performance.now()));
}

export { version };

export async function loadPyodide({ stdout, stderr } = {}) {
  const pyodide = await boot();
  if (stdout) pyodide.setStdout({ batched: stdout });
  if (stderr) pyodide.setStderr({ batched: stderr });
  return pyodide;
}
