/* Lost Cities service worker: the whole game offline after one visit.
 *
 * - install: precaches every file of static/vendor/precache.js (written by scripts/precache.py
 *   from the built site) into the cache "lostcities-<version>", the version being a hash of all
 *   the files. A file whose hash is unchanged since the previous version is copied from the old
 *   cache instead of downloaded again (the Pyodide runtime is 13 MB).
 * - on demand: the files the list marks "later" (the online libraries: PeerJS, the QR code
 *   library, libsodium; loaded only when a player goes online) are not downloaded at install,
 *   only copied from an older version's cache if their hash is unchanged. The first request for
 *   one that is not in the cache goes to the network, and the answer is kept in this version's
 *   cache if it is this version's file (its hash), so a player who went online once has them
 *   offline too; a new deploy leaves a changed one to be fetched again. activate copies again
 *   those the older version fetched while this one waited.
 * - fetch: same-origin GETs are answered cache-first; navigations inside the scope get the
 *   cached page ("./"), so a room link like ./?room=CODE opens offline too, and ./join/CODE
 *   redirects to ./?room=CODE as netlify.toml does.
 * - updates: a new version installs in the background and then WAITS. It never takes over by
 *   itself: static/sw-register.js offers it to the player between games, and only when the
 *   player accepts does the page post {type: "skip-waiting"}. activate then deletes the caches
 *   of every other version.
 * - message {type: "version"} answers {version} on the message port (for tests and the UI).
 * - bytecode and boot snapshot: what the idle page prepares for the next boots is kept in this
 *   version's cache only if it is what a page of this version makes (boot/sw-kept.js).
 *   {type: "bytecode"}, {type: "drop-bytecode"}, {type: "snapshot"}, {type: "drop-snapshot"};
 *   GET __boot-snapshot__ answers the kept snapshot's record. The runtime's wasm: GET
 *   __runtime-wasm__ answers the validators of this version's copy, and a request for the wasm
 *   marked for the HTTP cache is left to it (boot/wasm-cache.mjs).
 */
"use strict";

importScripts("./static/vendor/precache.js", "./boot/sw-kept.js");

const PREFIX = "lostcities-";
const PRECACHE = self.LC_PRECACHE;
const CACHE = PREFIX + PRECACHE.version;
const PAGE = new URL("./", self.location).href;
/* Where each cache keeps the list it was filled from (never a real file of the site). */
const LIST_KEY = new URL("./__precache-list__.json", self.location).href;
const JOIN = /^join\/([A-Za-z0-9_-]{1,64})\/?$/;
const STDLIB = "static/vendor/pyodide/python_stdlib.zip.gz";
const STDLIB_URL = new URL(STDLIB, self.location).href;

function absolute(url) {
  return new URL(url, self.location).href;
}

/* url -> file of the list, for the files fetched on demand ("later"). */
const LATER = new Map(PRECACHE.files.filter((file) => file.later)
                                    .map((file) => [absolute(file.url), file]));

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
  if (file.later) return;  // fetched on the first request for it (fetchLater)
  // "no-cache": revalidate with the server, never trust the HTTP cache for a new version.
  const response = await fetch(url, {cache: "no-cache"});
  if (!response.ok) throw new Error(`precache ${file.url}: HTTP ${response.status}`);
  return cache.put(url, response);
}

async function precache() {
  const cache = await caches.open(CACHE);
  const reusable = await reusableEntries();
  await Promise.all(PRECACHE.files.map((file) => precacheFile(cache, file, reusable)));
  // Written last: a cache with its list holds every file of the list but those fetched on
  // demand.
  await cache.put(LIST_KEY, new Response(JSON.stringify(PRECACHE),
                                         {headers: {"Content-Type": "application/json"}}));
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

/* The on-demand files an older version fetched after this one installed, if unchanged. */
async function keepLater() {
  const cache = await caches.open(CACHE);
  const reusable = await reusableEntries();
  await Promise.all([...LATER.values()].map(async (file) => {
    if (!await cache.match(absolute(file.url))) await precacheFile(cache, file, reusable);
  }));
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    await keepLater().catch(() => {});  // saves downloads: never in the way of activating
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
    event.waitUntil(dropBytecode().then(() => event.ports[0]?.postMessage({dropped: true})));
  } else if (type === "snapshot" && event.ports[0]) {
    event.waitUntil(keepSnapshot(event.data).then((answer) => event.ports[0].postMessage(answer)));
  } else if (type === "drop-snapshot") {
    event.waitUntil(dropSnapshot(Boolean(event.data.failed))
      .then(() => event.ports[0]?.postMessage({dropped: true})));
  }
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const bytecode = request.url === STDLIB_URL ? await cache.match(BYTECODE_KEY) : undefined;
  const hit = bytecode || await cache.match(request, {ignoreSearch: true});
  if (hit) return hit;
  const later = LATER.get(request.url.split(/[?#]/, 1)[0]);
  return later ? fetchLater(cache, later) : fetch(request);
}

/* A file fetched on demand, from the network ("no-cache": revalidated, as at install); kept in
 * this version's cache only if it is this version's file (the server may have a newer one). */
async function fetchLater(cache, file) {
  const url = absolute(file.url);
  const response = await fetch(url, {cache: "no-cache"});
  if (response.ok) {
    const hash = (await sha256(await response.clone().arrayBuffer())).slice(0, 16);
    if (hash === file.hash) await cache.put(url, response.clone());
  }
  return response;
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
  if (request.url === RUNTIME_WASM_URL) return event.respondWith(serveRuntimeWasm());
  if (passToHttpCache(request)) return;  // the page checks what the HTTP cache gives
  event.respondWith(request.mode === "navigate" ? navigate(request) : fromCache(request));
});
