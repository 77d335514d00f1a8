/* What the service worker (sw.js) keeps for faster boots (docs/boot.md), in its version's
 * cache (loaded with importScripts: it shares sw.js's constants, CACHE, PRECACHE, STDLIB and
 * STDLIB_URL).
 *
 * - Bytecode: Pyodide compiles every standard module from source at each boot. Once a page has
 *   booted, it compiles the standard library zip (py/webui/browser/boot/bytecode.py) and posts
 *   {type: "bytecode", key: {runtime, stdlib, app}, zip}. The worker keeps the zip in this
 *   version's cache (under BYTECODE_KEY), and answers the page's request for
 *   python_stdlib.zip.gz with it (a plain zip, which the page takes as it is) from then on,
 *   only if it is what a page of this version compiles (checkBytecode): the key names this
 *   version's runtime (the Pyodide release), standard library zip and app.zip (the precache
 *   hashes of what they unpack to), and the zip, read from its central
 *   directory, holds exactly the entries of this version's standard library zip, unchanged
 *   (same CRC-32 and size), a `.pyc` beside each `.py`, and the marker, all stored. Anything
 *   else is refused ({kept: false, reason}) and the kept zip, if any, stays. A new version
 *   starts without it (its cache is new) until a page of it posts one again.
 *   {type: "drop-bytecode"} deletes it (boot/pyodide-early.mjs, when a boot from it failed).
 *   What this cannot check is the code inside the pycs: see docs/architecture.md.
 * - Boot snapshot: once a page has booted and kept its bytecode, it makes a memory snapshot of
 *   a runtime with the game imported (boot/snapshot.mjs) and posts
 *   {type: "snapshot", key: {runtime, stdlib, app}, snapshot}. It is kept in this version's
 *   cache (under SNAPSHOT_KEY, with a header, its record: what it was made from and its
 *   image's size) if the key names this version's runtime and app.zip and the standard library
 *   zip served now (the bytecode zip if one is kept), and it is a well-formed container;
 *   keeping or dropping the bytecode drops it.
 *   A GET of SNAPSHOT_URL answers its record ({build, stdlib, size}, JSON) while it matches
 *   (this version, the same standard library served), else drops it and answers 204, never
 *   the network; the page then reads SNAPSHOT_KEY from the cache itself (faster than through
 *   this worker) and checks it (the container's checksum).
 *   {type: "drop-snapshot", failed} deletes it; `failed` (its restore threw) also keeps this
 *   version from taking another one.
 * - The runtime's wasm from the HTTP cache, where V8 keeps its compiled code
 *   (boot/wasm-cache.mjs): a GET of RUNTIME_WASM_URL answers the validators of this version's
 *   copy ({validators}, JSON; 204 without them); a request for the wasm that carries
 *   HTTP_CACHE_HEADER is not answered here (`passToHttpCache`): the page checks the HTTP
 *   cache's answer against those validators and asks again without the header if they differ.
 */
"use strict";

const BYTECODE_KEY = new URL("./__bytecode-stdlib__.zip", self.location).href;
const BYTECODE_MAX_BYTES = 32 * 1024 * 1024;
const BYTECODE_MARKER = "lc-bytecode.txt";  // py/webui/browser/boot/bytecode.py MARKER
const SNAPSHOT_URL = new URL("./__boot-snapshot__", self.location).href;
const SNAPSHOT_KEY = new URL("./__boot-snapshot__.bin", self.location).href;
/* Set when a snapshot of this version failed to restore: no other is taken. */
const SNAPSHOT_FAILED_KEY = new URL("./__boot-snapshot-failed__", self.location).href;
const SNAPSHOT_MAX_BYTES = 256 * 1024 * 1024;
const SNAPSHOT_MAGIC = 0x3253434c;  // "LCS2", boot/snapshot.mjs
const SNAPSHOT_PAGE = 65536;
const SNAPSHOT_HEADER = 24;
const APP = "static/vendor/app.zip.gz";
const RUNTIME_WASM_URL = new URL("./__runtime-wasm__", self.location).href;
const WASM_URL = new URL("static/vendor/pyodide/pyodide.asm.wasm", self.location).href;
const HTTP_CACHE_HEADER = "X-LC-Runtime";  // boot/wasm-cache.mjs HEADER
/* The Pyodide release of the runtime files (its npm package.json, copied by scripts/build.py). */
const RUNTIME_INFO = "static/vendor/pyodide/package.json";

async function dropBytecode() {
  const cache = await caches.open(CACHE);
  await Promise.all([cache.delete(BYTECODE_KEY), cache.delete(SNAPSHOT_KEY)]);
}

async function keepBytecode({key, zip}) {
  const cache = await caches.open(CACHE);
  const refusal = await checkBytecode(cache, key, zip);
  if (refusal) return {kept: false, reason: refusal};
  const hash = (await sha256(zip)).slice(0, 16);
  await cache.put(BYTECODE_KEY, new Response(zip, {
    headers: {"Content-Type": "application/zip", "Content-Length": String(zip.byteLength),
              "X-LC-Hash": hash}}));
  await cache.delete(SNAPSHOT_KEY);  // made on the zip served until now
  return {kept: true, reason: ""};
}

/* Why `zip` is not the bytecode zip that a page of this version compiles, or "" if it is. */
async function checkBytecode(cache, key, zip) {
  const keyRefusal = await checkKey(cache, key, unpackedHashOf(STDLIB));
  if (keyRefusal) return keyRefusal;
  if (!(zip instanceof ArrayBuffer) || zip.byteLength > BYTECODE_MAX_BYTES) return "not a zip";
  const entries = zipEntries(zip);
  const original = await cache.match(STDLIB_URL);
  const sources = original && zipEntries(await unpacked(original));
  if (!entries) return "not a zip";
  if (!sources) return "this version's standard library is missing";
  const expected = new Map([[BYTECODE_MARKER, null]]);
  for (const entry of sources.values()) {
    expected.set(entry.name, entry);
    if (entry.name.endsWith(".py")) expected.set(entry.name.slice(0, -3) + ".pyc", null);
  }
  const extra = [...entries.keys()].filter((name) => !expected.has(name));
  const missing = [...expected.keys()].filter((name) => !entries.has(name));
  const changed = [...entries.values()].filter((entry) => {
    const source = expected.get(entry.name);
    const changed = source && (source.crc !== entry.crc || source.size !== entry.size);
    return entry.method !== 0 || changed;
  }).map((entry) => entry.name);
  if (extra.length) return `unexpected entries: ${listed(extra)}`;
  if (missing.length) return `missing entries: ${listed(missing)}`;
  if (changed.length) return `changed or compressed entries: ${listed(changed)}`;
  return "";
}

/* Why `key` ({runtime, stdlib, app}) is not this version's with the standard library zip
 * `stdlib` (a hash), or "" if it is. */
async function checkKey(cache, key, stdlib) {
  if (!key || typeof key !== "object") return "no key";
  const info = await cache.match(absolute(RUNTIME_INFO));
  let runtime = null;
  try {
    runtime = info && (await info.json()).version;
  } catch (error) {
    runtime = null;  // an unreadable file: no runtime matches
  }
  if (typeof runtime !== "string" || key.runtime !== runtime) return "built by another runtime";
  if (typeof stdlib !== "string" || key.stdlib !== stdlib) {
    return "built from another standard library";
  }
  if (key.app !== unpackedHashOf(APP)) return "built by another version of the app";
  return "";
}

/* The precache hash of what a gzipped file of this version unpacks to (app.zip.gz and the
 * standard library's: the zips the runtime imports from, which a key names). */
function unpackedHashOf(url) {
  return PRECACHE.files.find((file) => file.url === url)?.unpacked;
}

/* The hash of the standard library zip that this version serves now: the bytecode zip if one
 * is kept, else the precached one's, unpacked. */
async function servedStdlib(cache) {
  const kept = await cache.match(BYTECODE_KEY);
  return kept ? kept.headers.get("X-LC-Hash") : unpackedHashOf(STDLIB);
}

/* A gzipped file's body unpacked (an ArrayBuffer), or as it is if the host sent it decoded, as
 * boot/snapshot.mjs `zipBytes` takes it. */
async function unpacked(response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.buffer;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function keepSnapshot({key, snapshot}) {
  const cache = await caches.open(CACHE);
  const refusal = await checkSnapshot(cache, key, snapshot);
  if (refusal) return {kept: false, reason: refusal};
  const size = new DataView(snapshot).getUint32(4, true);  // the image's, checked above
  const meta = {build: PRECACHE.version, stdlib: key.stdlib, size};
  await cache.put(SNAPSHOT_KEY, new Response(snapshot, {headers: {
    "Content-Type": "application/octet-stream", "Content-Length": String(snapshot.byteLength),
    "X-LC-Snapshot": JSON.stringify(meta)}}));
  return {kept: true, reason: "", bytes: snapshot.byteLength};
}

/* Why `snapshot` may not be kept, or "" if it may. */
async function checkSnapshot(cache, key, snapshot) {
  if (await cache.match(SNAPSHOT_FAILED_KEY)) return "a snapshot of this version failed to boot";
  const keyRefusal = await checkKey(cache, key, await servedStdlib(cache));
  if (keyRefusal) return keyRefusal;
  if (!(snapshot instanceof ArrayBuffer) || snapshot.byteLength > SNAPSHOT_MAX_BYTES
      || !snapshotContainer(snapshot)) {
    return "not a snapshot";
  }
  return "";
}

/* Whether `buffer` is laid out as boot/snapshot.mjs encodes a snapshot: its header,
 * the ascending indexes of the pages it holds, then those pages (its checksum is the page's to
 * check, when it reads it back). */
function snapshotContainer(buffer) {
  if (buffer.byteLength < SNAPSHOT_HEADER) return false;
  const view = new DataView(buffer);
  const [magic, size, page, count] = [0, 4, 8, 12].map((at) => view.getUint32(at, true));
  const pages = Math.ceil(size / page);
  if (magic !== SNAPSHOT_MAGIC || page !== SNAPSHOT_PAGE || count > pages
      || SNAPSHOT_HEADER + 4 * count > buffer.byteLength) {
    return false;
  }
  let expected = SNAPSHOT_HEADER + 4 * count;
  let previous = -1;
  for (let i = 0; i < count; i++) {
    const index = view.getUint32(SNAPSHOT_HEADER + 4 * i, true);
    if (index <= previous || index >= pages) return false;
    expected += Math.min(page, size - index * page);
    previous = index;
  }
  return expected === buffer.byteLength;
}

/* The kept snapshot's record while it matches what this version serves now; else it is
 * dropped. None is "204 No Content" (not an error for the browser), with X-LC-Snapshot-Refused
 * saying why no other will be taken once one of this version failed to boot. */
async function serveSnapshot() {
  const cache = await caches.open(CACHE);
  if (await cache.match(SNAPSHOT_FAILED_KEY)) {
    return new Response(null, {status: 204, headers: {
      "X-LC-Snapshot-Refused": "a snapshot of this version failed to boot"}});
  }
  const kept = await cache.match(SNAPSHOT_KEY);
  if (kept) {
    const record = kept.headers.get("X-LC-Snapshot");
    let meta = null;
    try {
      meta = JSON.parse(record);
    } catch (error) {
      meta = null;
    }
    if (meta && meta.build === PRECACHE.version && meta.stdlib === await servedStdlib(cache)
        && Number.isSafeInteger(meta.size) && meta.size > 0) {
      return new Response(record, {headers: {"Content-Type": "application/json"}});
    }
    await cache.delete(SNAPSHOT_KEY);
  }
  return new Response(null, {status: 204});
}

async function dropSnapshot(failed) {
  const cache = await caches.open(CACHE);
  await cache.delete(SNAPSHOT_KEY);
  if (failed) await cache.put(SNAPSHOT_FAILED_KEY, new Response("failed"));
}

function listed(names) {
  return names.slice(0, 5).join(", ") + (names.length > 5 ? `, … (${names.length})` : "");
}

/* name -> {name, method, crc, size} of every entry of a zip, read from its central directory;
 * null unless it is a plain zip: the end record last (no comment), the directory right before
 * it, every entry's local header where the directory says, no zip64, no name twice. */
function zipEntries(buffer) {
  const view = new DataView(buffer);
  const end = buffer.byteLength - 22;
  if (end < 0 || view.getUint32(end, true) !== 0x06054b50 || view.getUint16(end + 20, true)) {
    return null;
  }
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const start = view.getUint32(end + 16, true);
  if (view.getUint16(end + 4, true) || view.getUint16(end + 6, true)
      || view.getUint16(end + 8, true) !== count || start + size !== end) {
    return null;  // a multi-disk or zip64 archive, or bytes between the directory and its end
  }
  const decoder = new TextDecoder("utf-8", {fatal: true});
  const entries = new Map();
  let at = start;
  try {
    for (let i = 0; i < count; i++) {
      if (at + 46 > end || view.getUint32(at, true) !== 0x02014b50) return null;
      const nameLength = view.getUint16(at + 28, true);
      const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      const entry = {
        name: decoder.decode(new Uint8Array(buffer, at + 46, nameLength)),
        method: view.getUint16(at + 10, true),
        crc: view.getUint32(at + 16, true),
        size: view.getUint32(at + 24, true),
      };
      const compressed = view.getUint32(at + 20, true);
      const local = view.getUint32(at + 42, true);
      if (entries.has(entry.name) || local + 30 + nameLength + compressed > start
          || view.getUint32(local, true) !== 0x04034b50) {
        return null;
      }
      entries.set(entry.name, entry);
      at += 46 + skip;
    }
  } catch (error) {
    return null;  // a name that is not UTF-8, or a field past the end
  }
  return at === end ? entries : null;
}

/* The validators of this version's wasm (as boot/wasm-cache.mjs `validators` reads them), or
 * 204 when its copy has none. */
async function serveRuntimeWasm() {
  const kept = await (await caches.open(CACHE)).match(WASM_URL);
  const tag = kept ? validators(kept) : "";
  return tag ? new Response(JSON.stringify({validators: tag}),
                            {headers: {"Content-Type": "application/json"}})
    : new Response(null, {status: 204});
}

/* Whether `request` is one for the wasm that the page takes from the HTTP cache itself. */
function passToHttpCache(request) {
  return request.url === WASM_URL && request.headers.has(HTTP_CACHE_HEADER);
}

function validators(response) {
  const tag = ["ETag", "Last-Modified", "Content-Length"]
    .map((name) => response.headers.get(name) ?? "");
  return tag.some(Boolean) ? tag.join("|") : "";
}
