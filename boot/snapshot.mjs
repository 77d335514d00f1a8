/* Boot snapshots (docs/boot.md): a memory image of a Pyodide runtime with the game imported,
 * so that a later visit starts from it instead of starting Python and importing the game again.
 *
 * Made (make): once the page has booted the normal way and the player leaves it alone
 * (py/webui/browser/boot/warm.py), a worker (boot/snapshot-worker.mjs) boots a second runtime with
 * Pyodide's private `_makeSnapshot` option, imports the modules the page has imported, and
 * takes `pyodide.makeMemorySnapshot()`; this module hands it to the service worker, which keeps
 * it in the version's cache if it matches that version (boot/sw-kept.js).
 * Used (open): boot/pyodide-early.mjs asks the service worker whether one matches and how
 * large its image is, starts the runtime at once with an array of zeros of that size as
 * `_loadSnapshot` (the wasm compiles meanwhile), and reads the bytes from the cache and checks
 * them; the runtime awaits that (Pyodide's `fsInit` hook), then restores the image, whose pages
 * are written straight from the stored bytes into its memory (`restorable`).
 *
 * The image is stored without its empty pages (most of the runtime's 30 MB memory is zeros):
 *   u32 MAGIC, u32 size (bytes of the image), u32 PAGE, u32 count, u32 sum[2] (`checksum` of
 *   all that follows), u32 index[count] (ascending: the pages that hold a non-zero byte), then
 *   those pages in order (the last page of the image may be short). All little-endian.
 */

/* The service worker's answer: the kept snapshot's record {build, stdlib, size} (JSON), or 204
 * when none matches (boot/sw-kept.js); the snapshot itself is stored under SNAPSHOT_KEY. */
const SNAPSHOT_URL = new URL("../__boot-snapshot__", import.meta.url).href;
const SNAPSHOT_KEY = new URL("../__boot-snapshot__.bin", import.meta.url).href;
/* Where the app's zip lives in the runtime's file system (boot/pyodide-early.mjs). */
export const APP_PATH = "/lib/lostcities-app.zip";
export const APP_URL = new URL("../static/vendor/app.zip.gz", import.meta.url).href;
/* app-more.zip, where the page fetches and writes it (MORE_URL, MORE_PATH of
 * py/webui/browser/boot/more.py): a snapshot holds its modules, mounted. */
export const MORE_PATH = "/lib/lostcities-app-more.zip";
export const MORE_URL = new URL("../static/vendor/app-more.zip.gz", import.meta.url).href;
/* The runtime's standard library, shipped gzipped whole (scripts/build.py); the service worker
 * answers this URL with its kept bytecode zip, plain (boot/sw-kept.js). */
export const STDLIB_URL = new URL("../static/vendor/pyodide/python_stdlib.zip.gz",
                                  import.meta.url).href;
/* What the runtime asks for itself (loadPyodide fetches indexURL + "python_stdlib.zip"). */
const STDLIB_ZIP_URL = new URL("../static/vendor/pyodide/python_stdlib.zip", import.meta.url).href;
const MAGIC = 0x3253434c;  // "LCS2"; boot/sw-kept.js checks the layout too
const PAGE = 65536;
const HEADER = 24;
const CHECKED_A_TASK = 4 * 1024 * 1024;  // bytes of a snapshot checksummed in one task

/* Fletcher's checksum over 32-bit words (the last few bytes one by one), as [a, b]: any
 * changed, lost or moved word changes it. Given the sums of the bytes before (a whole number
 * of words), it goes on from them. Storage damage is what it is for, not an attacker
 * (see docs/architecture.md); a SHA-256 of the 13 MB ran on the boot's main thread (~230 ms
 * in a profile on a loaded 2-core machine). */
export function checksum(bytes, [a, b] = [1, 0]) {
  const whole = bytes.byteLength >>> 2;
  const words = bytes.byteOffset % 4 === 0
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, whole)
    : new Uint32Array(bytes.slice(0, whole * 4).buffer);
  for (let i = 0; i < whole; i++) {
    a = (a + words[i]) >>> 0;
    b = (b + a) >>> 0;
  }
  for (let i = whole * 4; i < bytes.byteLength; i++) {
    a = (a + bytes[i]) >>> 0;
    b = (b + a) >>> 0;
  }
  return [a, b];
}

/* The image without its empty pages (an ArrayBuffer). */
export function encode(image) {
  const pages = Math.ceil(image.length / PAGE);
  const kept = [];
  for (let index = 0; index < pages; index++) {
    const start = index * PAGE;
    const end = Math.min(image.length, start + PAGE);
    if (start % 8 === 0 && end % 8 === 0 && image.byteOffset % 8 === 0) {
      const words = new BigUint64Array(image.buffer, image.byteOffset + start, (end - start) / 8);
      if (words.some((word) => word !== 0n)) kept.push(index);
    } else if (image.subarray(start, end).some((byte) => byte !== 0)) {
      kept.push(index);
    }
  }
  const sizes = kept.map((index) => Math.min(PAGE, image.length - index * PAGE));
  const out = new Uint8Array(HEADER + 4 * kept.length + sizes.reduce((a, b) => a + b, 0));
  const view = new DataView(out.buffer);
  let at = HEADER + 4 * kept.length;
  kept.forEach((index, i) => {
    view.setUint32(HEADER + 4 * i, index, true);
    out.set(image.subarray(index * PAGE, index * PAGE + sizes[i]), at);
    at += sizes[i];
  });
  const header = [MAGIC, image.length, PAGE, kept.length, ...checksum(out.subarray(HEADER))];
  header.forEach((value, i) => view.setUint32(4 * i, value, true));
  return out.buffer;
}

/* Rejects unless `buffer` is a container that `encode` wrote, undamaged (its checksum, summed
 * `slice` bytes a task: 4 MiB, ~35 ms of a phone's main thread). */
export async function check(buffer, slice = CHECKED_A_TASK) {
  if (slice <= 0 || slice % 4 !== 0) throw new RangeError("a slice is a whole number of words");
  const view = new DataView(buffer);
  if (buffer.byteLength < HEADER || view.getUint32(0, true) !== MAGIC) fail("not a snapshot");
  const [page, count, a, b] = [8, 12, 16, 20].map((at) => view.getUint32(at, true));
  if (page !== PAGE || HEADER + 4 * count > buffer.byteLength) fail("bad header");
  const body = new Uint8Array(buffer, HEADER);
  let sums = [1, 0];
  for (let at = 0; at < body.length; at += slice) {
    if (at > 0) await nextTask();
    sums = checksum(body.subarray(at, at + slice), sums);
  }
  if (sums[0] !== a || sums[1] !== b) fail("damaged");
}

/* The stored pages of the container `buffer` (its checksum already checked), as
 * {size, pages: [{index, at, length}]} (`at`: where the page's bytes are in `buffer`); throws
 * on a malformed layout. */
function layout(buffer) {
  const view = new DataView(buffer);
  const [size, count] = [4, 12].map((at) => view.getUint32(at, true));
  const pages = [];
  let at = HEADER + 4 * count;
  let previous = -1;
  for (let i = 0; i < count; i++) {
    const index = view.getUint32(HEADER + 4 * i, true);
    const length = Math.min(PAGE, size - index * PAGE);
    if (index <= previous || length <= 0 || at + length > buffer.byteLength) fail("bad page");
    pages.push({index, at, length});
    at += length;
    previous = index;
  }
  if (at !== buffer.byteLength) fail("trailing bytes");
  return {size, pages};
}

/* Makes `into` (zeros, exactly the image's length) the runtime's `_loadSnapshot` for the
 * container `buffer` (checked): throws on a malformed layout, else writes into it the pages that
 * hold Pyodide's header (the image's second word is where the memory's bytes start) and gives
 * it `writeImage(heap, from, dirtyEnd)`, which the runtime's restore calls in place of copying
 * the rest of the image into its memory (js_edits.WRITTEN_INTO_MEMORY): it writes the image's
 * bytes from `from` on straight into `heap`, and zeros where the container stores no page,
 * below `dirtyEnd` only (the runtime's heap break: it never wrote above it, so that memory is
 * zeros still). One pass over the memory, no 30 MB image between. */
export function restorable(buffer, into) {
  const {size, pages} = layout(buffer);
  if (into.length !== size) fail("not the size recorded");
  const bytes = (page) => new Uint8Array(buffer, page.at, page.length);
  const first = pages[0]?.index === 0 ? bytes(pages[0]) : new Uint8Array(8);
  into.set(first.subarray(0, 8));
  const header = size < 8 ? size
    : Math.min(size, new DataView(into.buffer, into.byteOffset).getUint32(4, true));
  for (const page of pages) {
    if (page.index * PAGE < header) into.set(bytes(page), page.index * PAGE);
  }
  into.writeImage = (heap, from, dirtyEnd) => {
    if (size - from > heap.length) fail("larger than the memory");
    let written = from;  // the image up to here is in heap (from `from` on)
    const zeros = (end) => {
      const stop = Math.min(end, from + dirtyEnd);
      if (stop > written) heap.fill(0, written - from, stop - from);
    };
    for (const page of pages) {
      const start = page.index * PAGE;
      if (start + page.length <= from) continue;
      zeros(start);
      const skip = Math.max(0, from - start);
      heap.set(bytes(page).subarray(skip), start + skip - from);
      written = start + page.length;
    }
    zeros(size);
  };
  return into;
}

/* A Promise resolved in the next task: a posted message, not a timer (a hidden tab's timers
 * wait a second). */
export function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

function fail(why) {
  throw new Error(`boot snapshot: ${why}`);
}

/* The zip at `url` (APP_URL, MORE_URL, STDLIB_URL: a zip gzipped whole, boot/build/app_zip.py),
 * unpacked by the browser's own gzip (a Uint8Array over the whole of its buffer). A host that
 * sent it decoded (Content-Encoding) has left the zip itself, which is taken as it is. */
export async function zipBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const unpacked = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(unpacked).arrayBuffer());
}

/* Answer the runtime's own request for its standard library zip, in this page or worker, with
 * STDLIB_URL unpacked (zipBytes); every other request is fetched as before. Installed once,
 * before the runtime starts (the runtime fetches with the global fetch). The answer holds what
 * the runtime reads of it (pyodide.mjs `loadBinaryFile`: `ok`, then `arrayBuffer()`), and hands
 * over zipBytes' buffer (a whole one) as it is: a Response made of a later visit's 5 MB bytecode
 * zip took 70-90 ms of a 4x-throttled main thread to be read again. */
export function unpackStdlibRequests() {
  const fetchFirst = globalThis.fetch;
  if (fetchFirst.unpacksStdlib) return;
  const answering = (input, init) => {
    const url = input instanceof Request ? input.url : new URL(input, location.href).href;
    if (url !== STDLIB_ZIP_URL) return fetchFirst(input, init);
    return zipBytes(STDLIB_URL).then((bytes) => ({
      ok: true, status: 200, arrayBuffer: async () => bytes.buffer}));
  };
  answering.unpacksStdlib = true;
  globalThis.fetch = answering;
}

export async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/* The kept snapshot's container, read from the cache and checked (all at once: for a worker,
 * boot/later-visit-worker.mjs); rejects if there is none or it is damaged. */
export async function readKept() {
  const buffer = await readStored();
  await check(buffer, Math.ceil(buffer.byteLength / 4) * 4 || 4);
  return buffer;
}

/* The kept snapshot's container as the cache holds it, read as a blob (a fetched body would
 * wait for a busy main thread chunk by chunk); rejects if there is none. */
async function readStored() {
  const found = await caches.match(SNAPSHOT_KEY);
  if (!found) fail("missing");
  return (await found.blob()).arrayBuffer();
}

/* {size, image(into)}, or null when the service worker has none (the page is not controlled,
 * or nothing matches). `size` is the image's length, from the service worker's record: the
 * runtime can be started with an array of that size before the bytes are in. `checked` is a
 * Promise of the container as a worker read and checked it (readKept), or of null: then the
 * bytes are read here at once (`readStored`), while the service worker checks the record, and
 * checked in image(into). image(into) makes `into` (zeros) the runtime's `_loadSnapshot` for
 * them (`restorable`), main-thread work left until the caller is ready for it (after the shell's
 * first paint), and says who read and checked them: "worker" or "page". It rejects if the image
 * is missing, damaged or malformed (`check`, `restorable`). */
export async function open(checked = Promise.resolve(null)) {
  if (!navigator.serviceWorker?.controller) return null;
  const bytes = checked.then(async (buffer) => buffer ? {buffer, checked: true}
    : {buffer: await readStored(), checked: false})
    .then((read) => {
      performance.mark("lc:snapshot-read");  // for scripts/bench_load.py
      return read;
    });
  bytes.catch(() => {});  // image() hands its failure on
  const record = await fetch(SNAPSHOT_URL);
  if (record.status !== 200) return null;  // 204: none
  const { size } = await record.json();
  if (!Number.isSafeInteger(size) || size <= 0) fail("bad record");
  return {
    size,
    image: (into) => bytes.then(async ({buffer, checked}) => {
      if (!checked) await check(buffer);
      await nextTask();
      restorable(buffer, into);
      performance.mark("lc:snapshot-decoded");
      return checked ? "worker" : "page";
    }),
  };
}

/* Workers whose compiled wasm this page runs, kept (`inWorker`) until it has made its boot
 * snapshot (`make`). */
const compiledHere = [];

/* Runs one job in a new snapshot-worker.mjs: a Promise of its answer, rejected on {error}. The
 * worker ends with its answer, unless `keep`: a worker whose compiled wasm the page runs is
 * kept, idle, for V8 goes on writing the code it compiles later for the module (the functions
 * the page makes hot) into the HTTP cache only through the compile that made it; ended, the
 * code cache kept what the worker's own boot had made hot, and each later visit compiled the
 * rest again (docs/boot.md). It holds its runtime's memory (~40 MB) until it ends. */
function inWorker(job, transfer = [], keep = false) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url),
                              {type: "module"});
    worker.onmessage = ({data}) => {
      if (keep && !data.error) compiledHere.push(worker);
      else worker.terminate();
      if (data.error) reject(new Error(data.error));
      else resolve(data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message));
    };
    worker.postMessage(job, transfer);
  });
}

/* Boots a runtime in a worker with `modules` imported: a Promise of its image and its compiled
 * wasm, for the page to start from at once ({image: Uint8Array, module, timings}); rejected if
 * the worker failed. `wasm`: the
 * validators of the wasm the page takes from the HTTP cache ("" for none, wasm-cache.mjs). */
export async function bootInWorker(modules, wasm) {
  const made = await inWorker({modules, raw: true, wasm}, [], true);
  return {image: new Uint8Array(made.snapshot), module: made.module, timings: made.timings};
}

/* Tells the service worker to drop the kept snapshot; `failed`: it did not boot (no other is
 * taken for this version). */
export function drop(failed) {
  navigator.serviceWorker?.controller?.postMessage({type: "drop-snapshot", failed});
}

/* Makes a snapshot with `modules` (names) imported and hands it to the service worker: a
 * Promise of {kept, reason, bytes, timings}. Nothing is made while the service worker keeps one
 * or refuses any (one of this version failed to boot). Then the kept workers end. */
export async function make(modules) {
  try {
    return await makeOne(modules);
  } finally {  // by now V8 has long cached the code the page's boot made hot
    compiledHere.splice(0).forEach((worker) => worker.terminate());
  }
}

async function makeOne(modules) {
  const container = navigator.serviceWorker;
  await container.ready;
  if (!container.controller) {  // the worker's requests must reach it, as the page's do
    await new Promise((resolve) => container.addEventListener("controllerchange", resolve,
                                                               {once: true}));
  }
  const current = await fetch(SNAPSHOT_URL);
  const refused = current.status === 200 ? "one is kept already"
    : current.headers.get("X-LC-Snapshot-Refused");
  if (refused) return {kept: false, reason: refused};
  let made;
  try {
    made = await inWorker({modules});
  } catch (error) {
    return {kept: false, reason: error.message};
  }
  const answer = await new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = ({data}) => resolve(data);
    container.controller.postMessage({type: "snapshot", key: made.key, snapshot: made.snapshot},
                                     [channel.port2, made.snapshot]);
  });
  return {...answer, timings: made.timings};
}
