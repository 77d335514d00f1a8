/* The runtime's wasm from the browser's HTTP cache (docs/boot.md), for the page and the
 * snapshot worker.
 *
 * V8 keeps a wasm module's compiled code beside the HTTP cache entry it was loaded from
 * (Chromium's code cache), never beside a Cache Storage entry: answered by the service worker,
 * each boot compiles every wasm function it calls, on its first call, on the main thread
 * (~1,500 functions in a warm snapshot boot). So the next fetch of the wasm (loadPyodide's own)
 * asks the HTTP cache (`cache: "force-cache"`: no network when it holds the file, offline
 * too), with a header by which the service worker lets the request through (boot/sw-kept.js).
 * Its answer is used only if its validators (ETag, Last-Modified, Content-Length) are those of
 * the copy this version's service worker keeps; else, or if it fails, the wasm is fetched again
 * the normal way, from the service worker. Every load of the wasm must take this way: one
 * answered from Cache Storage makes compiled code of its own in place of the HTTP cache's.
 */

export const HEADER = "X-LC-Runtime";  // boot/sw-kept.js HTTP_CACHE_HEADER
/* The service worker's answer: {validators} of its copy, or 204 when it has none. */
const RECORD_URL = new URL("../__runtime-wasm__", import.meta.url).href;

/* What identifies a response's file: its validators, "" when it has none. */
export function validators(response) {
  const tag = ["ETag", "Last-Modified", "Content-Length"]
    .map((name) => response.headers.get(name) ?? "");
  return tag.some(Boolean) ? tag.join("|") : "";
}

/* The validators of this version's copy, as its service worker names them ("": none, or no
 * service worker to ask). */
export async function keptValidators() {
  try {
    const record = await fetch(RECORD_URL);
    return record.status === 200 ? String((await record.json()).validators ?? "") : "";
  } catch (error) {
    return "";
  }
}

/* A fetch of `url` that asks the HTTP cache, and uses its answer if it has the `expected`
 * validators, else fetches `url` the normal way (with `original`, the fetch function):
 * `onAnswer(fromHttpCache)` is told which way the wasm came. */
export function httpCacheFetch(original, expected, onAnswer = () => {}) {
  return function (resource, options) {
    const normal = () => {
      onAnswer(false);
      return original.call(this, resource, options);
    };
    const cached = {...options, cache: "force-cache", headers: {[HEADER]: "http-cache"}};
    return original.call(this, resource, cached).then((response) => {
      if (!response.ok || validators(response) !== expected) {
        response.body?.cancel();
        return normal();
      }
      onAnswer(true);
      return response;
    }, normal);
  };
}

/* Sets the next fetch of `url` to be httpCacheFetch's (one set before and not used yet is
 * dropped). */
export function fromHttpCache(url, expected, onAnswer = () => {}) {
  restore?.();
  const original = globalThis.fetch;
  const fromCache = httpCacheFetch(original, expected, onAnswer);
  const wrapper = function (resource, options) {
    if (String(resource) !== url) return original.call(this, resource, options);
    restore();
    return fromCache.call(this, resource, options);
  };
  globalThis.fetch = wrapper;
  restore = () => {
    if (globalThis.fetch === wrapper) globalThis.fetch = original;
    restore = null;
  };
}

let restore = null;

/* The compiled module of the next WebAssembly.instantiateStreaming() call: a Promise, for a
 * worker that boots a runtime for the page (boot/snapshot-worker.mjs) and hands the module over
 * with its image. */
export function nextModule() {
  const original = WebAssembly.instantiateStreaming;
  return new Promise((resolve, reject) => {
    WebAssembly.instantiateStreaming = async (source, imports) => {
      WebAssembly.instantiateStreaming = original;
      try {
        const result = await original.call(WebAssembly, source, imports);
        resolve(result.module);
        return result;
      } catch (error) {
        reject(error);
        throw error;
      }
    };
  });
}

/* The next runtime instantiates `module` (compiled in a worker: boot/snapshot-worker.mjs or
 * boot/later-visit-worker.mjs) in place of the wasm at `url`: that fetch is answered with an
 * empty body and never reaches the network, and the next WebAssembly.instantiateStreaming()
 * call takes the module. `module` may be a Promise, so that the runtime is set up while the
 * worker compiles: the fetch and the instantiation wait for it, and if it resolves to null the
 * wasm is fetched with `fallback` (a fetch function; the normal fetch without one) and compiled
 * as usual.
 * V8 shares a module's code between the threads of a page, the functions the worker's runtime
 * compiled at their first call included, so the page compiles none of them again. */
export function withModule(url, module, fallback = null) {
  restore?.();
  const original = globalThis.fetch;
  const instantiate = WebAssembly.instantiateStreaming;
  const given = Promise.resolve(module);
  given.catch(() => {});  // the runtime's instantiation hands it on
  const wrapper = function (resource, options) {
    if (String(resource) !== url) return original.call(this, resource, options);
    globalThis.fetch = original;
    return given.then((compiled) => (compiled ? new Response(null, {
      headers: { "Content-Type": "application/wasm" } })
      : (fallback ?? original).call(this, resource, options)));
  };
  globalThis.fetch = wrapper;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    WebAssembly.instantiateStreaming = instantiate;
    const compiled = await given;
    if (!compiled) return instantiate.call(WebAssembly, source, imports);
    return { module: compiled, instance: await WebAssembly.instantiate(compiled, imports) };
  };
  restore = () => {
    if (globalThis.fetch === wrapper) globalThis.fetch = original;
    WebAssembly.instantiateStreaming = instantiate;
    restore = null;
  };
}

/* Drops what `fromHttpCache` or `withModule` set and the next runtime has not used. */
export function reset() {
  restore?.();
}
