/* Lost Cities service worker: the whole game offline after one visit.
 *
 * - install: precaches every file of static/vendor/precache.js (written by scripts/precache.py
 *   from the built site) into the cache "lostcities-<version>", the version being a hash of all
 *   the files. A file whose hash is unchanged since the previous version is copied from the old
 *   cache instead of downloaded again (the Pyodide runtime is 13 MB).
 * - fetch: same-origin GETs are answered cache-first; navigations inside the scope get the
 *   cached page ("./"), so a room link like ./?room=CODE opens offline too, and ./join/CODE
 *   redirects to ./?room=CODE as netlify.toml does.
 * - updates: a new version installs in the background and then WAITS. It never takes over by
 *   itself: static/sw-register.js offers it to the player between games, and only when the
 *   player accepts does the page post {type: "skip-waiting"}. activate then deletes the caches
 *   of every other version.
 * - message {type: "version"} answers {version} on the message port (for tests and the UI).
 * - bytecode: Pyodide compiles every standard module from source at each boot. Once a page has
 *   booted, it compiles the standard library zip (py/webui/bytecode.py) and posts
 *   {type: "bytecode", key: {runtime, stdlib, app}, zip}. The worker keeps the zip in this
 *   version's cache (under BYTECODE_KEY), and answers the runtime's request for
 *   python_stdlib.zip with it from then on, only if it is what a page of this version compiles
 *   (checkBytecode): the key names this version's runtime (the Pyodide release), standard
 *   library zip and app.zip (their precache hashes), and the zip, read from its central
 *   directory, holds exactly the entries of this version's standard library zip, unchanged
 *   (same CRC-32 and size), a `.pyc` beside each `.py`, and the marker, all stored. Anything
 *   else is refused ({kept: false, reason}) and the kept zip, if any, stays. A new version
 *   starts without it (its cache is new) until a page of it posts one again.
 *   {type: "drop-bytecode"} deletes it (static/pyodide-early.mjs, when a boot from it failed).
 *   What this cannot check is the code inside the pycs: see docs/architecture.md.
 * - boot snapshot: once a page has booted and kept its bytecode, it makes a memory snapshot of
 *   a runtime with the game imported (static/boot-snapshot.mjs) and posts
 *   {type: "snapshot", key: {runtime, stdlib, app}, snapshot}. It is kept in this version's
 *   cache (under SNAPSHOT_KEY, with its SHA-256 and what it was made from in a header) if the
 *   key names this version's runtime and app.zip and the standard library zip served now
 *   (the bytecode zip if one is kept), and it is a well-formed container; keeping or dropping
 *   the bytecode drops it. A GET of SNAPSHOT_URL answers its record ({build, stdlib, sha256},
 *   JSON) while it still matches (this version, the same standard library served), else drops
 *   it and answers 204, never the network; the page then reads SNAPSHOT_KEY from the cache
 *   itself (faster than through this worker) and checks its SHA-256 against the record.
 *   {type: "drop-snapshot", failed} deletes it; `failed` (its restore threw) also keeps this
 *   version from taking another one.
 */
"use strict";

importScripts("./static/vendor/precache.js");

const PREFIX = "lostcities-";
const PRECACHE = self.LC_PRECACHE;
const CACHE = PREFIX + PRECACHE.version;
const PAGE = new URL("./", self.location).href;
/* Where each cache keeps the list it was filled from (never a real file of the site). */
const LIST_KEY = new URL("./__precache-list__.json", self.location).href;
const JOIN = /^join\/([A-Za-z0-9_-]{1,64})\/?$/;
const STDLIB = "static/vendor/pyodide/python_stdlib.zip";
const STDLIB_URL = new URL(STDLIB, self.location).href;
const BYTECODE_KEY = new URL("./__bytecode-stdlib__.zip", self.location).href;
const BYTECODE_MAX_BYTES = 32 * 1024 * 1024;
const BYTECODE_MARKER = "lc-bytecode.txt";  // py/webui/bytecode.py MARKER
const SNAPSHOT_URL = new URL("./__boot-snapshot__", self.location).href;
const SNAPSHOT_KEY = new URL("./__boot-snapshot__.bin", self.location).href;
/* Set when a snapshot of this version failed to restore: no other is taken. */
const SNAPSHOT_FAILED_KEY = new URL("./__boot-snapshot-failed__", self.location).href;
const SNAPSHOT_MAX_BYTES = 256 * 1024 * 1024;
const SNAPSHOT_MAGIC = 0x3153434c;  // "LCS1", static/boot-snapshot.mjs
const APP = "static/vendor/app.zip";
/* The Pyodide release of the runtime files (its npm package.json, copied by scripts/build.py). */
const RUNTIME_INFO = "static/vendor/pyodide/package.json";

function absolute(url) {
  return new URL(url, self.location).href;
}

/* url -> {hash, cacheName} for every file of the older caches that recorded its list. */
async function reusableEntries() {
  const found = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const listResponse = await (await caches.open(name)).match(LIST_KEY);
    if (!listResponse) continue;
    try {
      for (const file of (await listResponse.json()).files) {
        found.set(absolute(file.url), {hash: file.hash, cacheName: name});
      }
    } catch (error) {
      continue; // an unreadable list: download those files again
    }
  }
  return found;
}

async function precacheFile(cache, file, reusable) {
  const url = absolute(file.url);
  const old = reusable.get(url);
  if (old && old.hash === file.hash) {
    const response = await (await caches.open(old.cacheName)).match(url);
    if (response) return cache.put(url, response);
  }
  // "no-cache": revalidate with the server, never trust the HTTP cache for a new version.
  const response = await fetch(url, {cache: "no-cache"});
  if (!response.ok) throw new Error(`precache ${file.url}: HTTP ${response.status}`);
  return cache.put(url, response);
}

async function precache() {
  const cache = await caches.open(CACHE);
  const reusable = await reusableEntries();
  await Promise.all(PRECACHE.files.map((file) => precacheFile(cache, file, reusable)));
  // Written last: a cache with its list is a complete cache.
  await cache.put(LIST_KEY, new Response(JSON.stringify(PRECACHE),
                                         {headers: {"Content-Type": "application/json"}}));
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE)
                           .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "skip-waiting") {
    self.skipWaiting();
  } else if (type === "version" && event.ports[0]) {
    event.ports[0].postMessage({version: PRECACHE.version});
  } else if (type === "bytecode" && event.ports[0]) {
    event.waitUntil(keepBytecode(event.data).then((answer) => event.ports[0].postMessage(answer)));
  } else if (type === "drop-bytecode") {
    event.waitUntil(caches.open(CACHE)
      .then((cache) => Promise.all([cache.delete(BYTECODE_KEY), cache.delete(SNAPSHOT_KEY)]))
      .then(() => event.ports[0]?.postMessage({dropped: true})));
  } else if (type === "snapshot" && event.ports[0]) {
    event.waitUntil(keepSnapshot(event.data).then((answer) => event.ports[0].postMessage(answer)));
  } else if (type === "drop-snapshot") {
    event.waitUntil(dropSnapshot(Boolean(event.data.failed))
      .then(() => event.ports[0]?.postMessage({dropped: true})));
  }
});

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
  const keyRefusal = await checkKey(cache, key, hashOf(STDLIB));
  if (keyRefusal) return keyRefusal;
  if (!(zip instanceof ArrayBuffer) || zip.byteLength > BYTECODE_MAX_BYTES) return "not a zip";
  const entries = zipEntries(zip);
  const original = await cache.match(STDLIB_URL);
  const sources = original && zipEntries(await original.arrayBuffer());
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
    return entry.method !== 0 || (source && (source.crc !== entry.crc || source.size !== entry.size));
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
  if (key.app !== hashOf(APP)) return "built by another version of the app";
  return "";
}

/* The precache hash of a file of this version. */
function hashOf(url) {
  return PRECACHE.files.find((file) => file.url === url)?.hash;
}

/* The hash of the standard library zip that this version serves now: the bytecode zip if one
 * is kept, else the precached one. */
async function servedStdlib(cache) {
  const kept = await cache.match(BYTECODE_KEY);
  return kept ? kept.headers.get("X-LC-Hash") : hashOf(STDLIB);
}

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function keepSnapshot({key, snapshot}) {
  const cache = await caches.open(CACHE);
  const refusal = await checkSnapshot(cache, key, snapshot);
  if (refusal) return {kept: false, reason: refusal};
  const meta = {build: PRECACHE.version, stdlib: key.stdlib, sha256: await sha256(snapshot)};
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

/* Whether `buffer` is laid out as static/boot-snapshot.mjs encodes a snapshot: its header,
 * the ascending indexes of the pages it holds, then those pages. */
function snapshotContainer(buffer) {
  if (buffer.byteLength < 16) return false;
  const view = new DataView(buffer);
  const [magic, size, page, count] = [0, 4, 8, 12].map((at) => view.getUint32(at, true));
  const pages = Math.ceil(size / page);
  if (magic !== SNAPSHOT_MAGIC || page === 0 || page % 4096 || count > pages
      || 16 + 4 * count > buffer.byteLength) {
    return false;
  }
  let expected = 16 + 4 * count;
  let previous = -1;
  for (let i = 0; i < count; i++) {
    const index = view.getUint32(16 + 4 * i, true);
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
    if (meta && meta.build === PRECACHE.version && meta.stdlib === await servedStdlib(cache)) {
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

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const bytecode = request.url === STDLIB_URL ? await cache.match(BYTECODE_KEY) : undefined;
  const hit = bytecode || await cache.match(request, {ignoreSearch: true});
  return hit || fetch(request);
}

async function navigate(request) {
  const scope = self.registration.scope;
  const inside = request.url.startsWith(scope) ? request.url.slice(scope.length) : null;
  const path = inside === null ? null : inside.split(/[?#]/, 1)[0];
  const room = path === null ? null : JOIN.exec(path);
  if (room) return Response.redirect(`${scope}?room=${encodeURIComponent(room[1])}`, 302);
  if (path === "" || path === "index.html") {
    const page = await (await caches.open(CACHE)).match(PAGE);
    if (page) return page;
  }
  return fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.url === SNAPSHOT_URL) return event.respondWith(serveSnapshot());
  event.respondWith(request.mode === "navigate" ? navigate(request) : fromCache(request));
});
