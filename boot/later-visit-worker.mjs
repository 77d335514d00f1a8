/* A later visit's boot work off the page's main thread (boot/later-visit.mjs starts it as the
 * page's boot module runs). Asked {wasm} (the runtime's wasm URL), it does two things at once:
 *
 * - compiles the wasm as the page would take it (wasm-cache.mjs): it asks the service worker
 *   (which controls this worker as it does the page) for the validators of the copy it keeps,
 *   and compiles the HTTP cache's copy if it has them, else the service worker's. V8's reading
 *   of the wasm's compiled code from the HTTP cache (~185 ms of a phone's main thread: the
 *   code's copy, and a digest of the 9.6 MB it checks the code against) runs on this thread.
 *   Answers {wasm: {module, cached}} (cached: it came from the HTTP cache), {wasm: {module:
 *   null}} when the service worker keeps no copy, or {wasmError};
 * - reads the kept boot snapshot from the cache and checks it (snapshot.mjs `readKept`: ~130 ms
 *   of a phone's main thread for the checksum alone). Answers {snapshot: ArrayBuffer} (handed
 *   over, not copied), or {snapshotError} (none kept, or it is damaged). */
import { fromHttpCache, keptValidators } from "./wasm-cache.mjs";
import { readKept } from "./snapshot.mjs";

async function compile(url) {
  try {
    const expected = await keptValidators();
    if (!expected) {
      postMessage({ wasm: { module: null, cached: false } });
      return;
    }
    let cached = false;
    fromHttpCache(url, expected, (fromCache) => { cached = fromCache; });
    const module = await WebAssembly.compileStreaming(fetch(url));
    postMessage({ wasm: { module, cached } });
  } catch (error) {
    postMessage({ wasmError: String(error) });
  }
}

async function read() {
  try {
    const snapshot = await readKept();
    postMessage({ snapshot }, [snapshot]);
  } catch (error) {
    postMessage({ snapshotError: String(error.message ?? error) });
  }
}

onmessage = ({ data: { wasm } }) => {
  compile(wasm);
  read();
};
