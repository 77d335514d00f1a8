/* Compiles the runtime's wasm for the page (boot/wasm-cache.mjs `compiledInWorker`), so that
 * V8's reading of its compiled code from the HTTP cache, ~185 ms of a phone's main thread (the
 * code's copy, and a digest of the 9.6 MB it checks the code against), runs on this thread.
 * Asked {url, expected}, answers {module, cached} (cached: it came from the HTTP cache, with
 * `expected` validators), or {error}. */
import { fromHttpCache } from "./wasm-cache.mjs";

onmessage = async ({ data: { url, expected } }) => {
  try {
    let cached = false;
    if (expected) fromHttpCache(url, expected, (fromCache) => { cached = fromCache; });
    const module = await WebAssembly.compileStreaming(fetch(url));
    postMessage({ module, cached });
  } catch (error) {
    postMessage({ error: String(error) });
  }
};
