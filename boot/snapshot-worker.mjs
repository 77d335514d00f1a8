/* Makes a boot snapshot, in a worker so that the page stays responsive while a second runtime
 * starts (boot/snapshot.mjs starts it; the format is described there).
 *
 * Message in: {modules}, the names of the modules the page has imported (or, for a page's first
 * boot, {modules, raw: true, wasm}: see `raw` below). It boots Pyodide with
 * its private `_makeSnapshot` option, from the same files and the same standard library zip as
 * the page (unpacked as the page does: snapshot.mjs `unpackStdlibRequests`; the service worker
 * answers both; the wasm comes from the HTTP cache as the page's
 * does, boot/wasm-cache.mjs), puts app.zip first on sys.path as the page does, mounts
 * app-more.zip (not for `raw`), imports those
 * modules (a module that cannot be imported here, such as PyScript's, is left to the page),
 * and answers {key: {runtime, stdlib, app}, snapshot, timings} (the image encoded, its
 * ArrayBuffer transferred) or {error, timings}.
 *
 * raw: the page boots from this image at once (boot/pyodide-early.mjs, a boot without a kept
 * snapshot), so the answer is {snapshot, module, timings}: the image as makeMemorySnapshot()
 * made it, neither encoded nor keyed, its buffer transferred, and the runtime's compiled
 * WebAssembly.Module, whose code the page's runtime then shares (wasm-cache.mjs `withModule`). `wasm` is the validators of the wasm that
 * the page would take from the HTTP cache ("": none).
 */
import "./no-stack-switching.mjs";  // first: before the runtime is evaluated
import { loadPyodide, version } from "../static/vendor/pyodide/pyodide.mjs";
import {
  APP_PATH, APP_URL, MORE_PATH, MORE_URL, encode, sha256, unpackStdlibRequests, zipBytes,
} from "./snapshot.mjs";
import { fromHttpCache, keptValidators, nextModule } from "./wasm-cache.mjs";

unpackStdlibRequests();  // the standard library ships gzipped

const indexURL = new URL("../static/vendor/pyodide/", import.meta.url).href;
const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/* Run with NAMES (a JSON list) set: mounts app-more.zip if MORE (its path) is not "", imports
 * the names; the value is the JSON list of those that failed, and the path of the standard
 * library zip imported from. */
const IMPORT = `
import importlib, json, sys
sys.path.insert(0, APP)
if MORE:
    from webui.browser.boot.more import mount
    mount(MORE)
failed = []
for name in json.loads(NAMES):
    if name not in sys.modules:
        try:
            importlib.import_module(name)
        except Exception:
            failed.append(name)
json.dumps([failed, json.__loader__.archive])
`;

async function snapshot(modules, raw, wasm) {
  const timings = {};
  let time = performance.now();
  const lap = (name) => {
    const now = performance.now();
    timings[name] = Math.round(now - time);
    time = now;
  };
  // the wasm as the page takes it (wasm-cache.mjs); a first boot's page says it (maybe none)
  const expected = raw ? wasm : await keptValidators();
  if (expected) fromHttpCache(new URL("pyodide.asm.wasm", indexURL).href, expected);
  const compiled = raw ? nextModule() : null;
  // a later visit's snapshot holds app-more.zip's modules too (the page writes the zip again)
  const more = raw ? Promise.resolve(null) : zipBytes(MORE_URL).catch(() => null);
  const [runtime, app] = await Promise.all([
    loadPyodide({ indexURL, _makeSnapshot: true }),
    zipBytes(APP_URL),
  ]);
  lap("boot");
  const memory = runtime._module.HEAP8.length;
  runtime.FS.writeFile(APP_PATH, app);
  const moreBytes = await more;
  if (moreBytes) runtime.FS.writeFile(MORE_PATH, moreBytes);
  const names = modules.filter((name) => MODULE_NAME.test(name));
  const scope = runtime.toPy({ APP: APP_PATH, MORE: moreBytes ? MORE_PATH : "",
                               NAMES: JSON.stringify(names) });
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
  if (raw) {
    const module = await compiled;
    return { snapshot: image.buffer, module, timings: { ...timings, image: image.length, failed } };
  }
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
  const modules = Array.isArray(data.modules) ? data.modules : [];
  snapshot(modules, data.raw === true, String(data.wasm ?? "")).then(
    (made) => self.postMessage(made, [made.snapshot]),
    (error) => self.postMessage({ error: String(error), timings: {} }),
  );
};
