/* Makes a boot snapshot, in a worker so that the page stays responsive while a second runtime
 * starts (boot/snapshot.mjs starts it; the format is described there).
 *
 * Message in: {modules}, the names of the modules the page has imported. It boots Pyodide with
 * its private `_makeSnapshot` option, from the same files and the same standard library zip as
 * the page (the service worker answers both; the wasm comes from the HTTP cache as the page's
 * does, boot/wasm-cache.mjs), puts app.zip first on sys.path as the page does, imports those
 * modules (a module that cannot be imported here, such as PyScript's, is left to the page),
 * and answers {key: {runtime, stdlib, app}, snapshot, timings} (the image encoded, its
 * ArrayBuffer transferred) or {error, timings}.
 */
import { loadPyodide, version } from "../static/vendor/pyodide/pyodide.mjs";
import { APP_PATH, APP_URL, encode, sha256 } from "./snapshot.mjs";
import { fromHttpCache, keptValidators } from "./wasm-cache.mjs";

const indexURL = new URL("../static/vendor/pyodide/", import.meta.url).href;
const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/* Run with NAMES (a JSON list) set: imports them; the value is the JSON list of those that
 * failed, and the path of the standard library zip imported from. */
const IMPORT = `
import importlib, json, sys
sys.path.insert(0, APP)
failed = []
for name in json.loads(NAMES):
    if name not in sys.modules:
        try:
            importlib.import_module(name)
        except Exception:
            failed.append(name)
json.dumps([failed, json.__loader__.archive])
`;

async function snapshot(modules) {
  const timings = {};
  let time = performance.now();
  const lap = (name) => {
    const now = performance.now();
    timings[name] = Math.round(now - time);
    time = now;
  };
  const expected = await keptValidators();  // the wasm as the page takes it (wasm-cache.mjs)
  if (expected) fromHttpCache(new URL("pyodide.asm.wasm", indexURL).href, expected);
  const [runtime, app] = await Promise.all([
    loadPyodide({ indexURL, _makeSnapshot: true }),
    fetch(APP_URL).then((response) => {
      if (!response.ok) throw new Error(`${APP_URL}: HTTP ${response.status}`);
      return response.arrayBuffer();
    }),
  ]);
  lap("boot");
  const memory = runtime._module.HEAP8.length;
  runtime.FS.writeFile(APP_PATH, new Uint8Array(app));
  const names = modules.filter((name) => MODULE_NAME.test(name));
  const scope = runtime.toPy({ APP: APP_PATH, NAMES: JSON.stringify(names) });
  let failed, stdlibPath;
  try {
    [failed, stdlibPath] = JSON.parse(runtime.runPython(IMPORT, { globals: scope }));
  } finally {
    scope.destroy();
  }
  lap("imports");
  if (runtime._module.HEAP8.length !== memory) {
    // A restore starts with the runtime's initial memory, whatever the image's size, and then
    // fails (Pyodide ignores the INITIAL_MEMORY it asks for): keep to what fits.
    throw new Error(`the runtime's memory grew to ${runtime._module.HEAP8.length} bytes`);
  }
  const image = runtime.makeMemorySnapshot();
  lap("snapshot");
  const key = {
    runtime: version,
    stdlib: (await sha256(runtime.FS.readFile(stdlibPath))).slice(0, 16),
    app: (await sha256(app)).slice(0, 16),
  };
  const encoded = encode(image);
  lap("encode");
  return { key, snapshot: encoded, timings: { ...timings, image: image.length, failed } };
}

self.onmessage = ({ data }) => {
  snapshot(Array.isArray(data.modules) ? data.modules : []).then(
    (made) => self.postMessage(made, [made.snapshot]),
    (error) => self.postMessage({ error: String(error), timings: {} }),
  );
};
