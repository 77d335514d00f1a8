/* Registers the service worker (sw.js), finds waiting updates, asks for persistent storage.
 *
 * window.lcPwa, for the UI (py/webui/screens/update_offer.py wraps it):
 *   updateReady()     true when a new version is installed and waits for the player;
 *   applyUpdate()     activates the waiting version and reloads the page once it controls it;
 *                     false if there is none. Call it between games only: never mid-match;
 *   checkForUpdate()  asks the server for a new sw.js / precache list now (a Promise);
 *   version()         a Promise of the precache version of the controlling worker, or null;
 *   keepBytecode(key, bytes)  hands the worker the standard library zip with bytecode that
 *                     the page compiled (py/webui/browser/boot/warm.py): a Promise of {kept, reason}.
 * When an update is ready, <html data-update-ready="true"> is set and "lc:update-ready" is
 * dispatched on window. <html data-storage> becomes "persistent" or "best-effort" once the
 * browser answered navigator.storage.persist().
 * The worker is registered once the game has booted (html[data-ready=true]) and fetched
 * app-more.zip (html[data-more]). Updates are
 * checked on each load (the browser does it), when the page becomes visible again, and every
 * 30 minutes while it stays open.
 */
(function () {
  "use strict";

  var CHECK_EVERY_MS = 30 * 60 * 1000;
  var BOOT_GRACE_MS = 30 * 1000;
  var root = document.documentElement;
  var waiting = null;
  var accepted = false;
  var registration = null;

  function offer(worker) {
    if (waiting === worker) return;
    waiting = worker;
    root.dataset.updateReady = "true";
    window.dispatchEvent(new CustomEvent("lc:update-ready"));
  }

  function watch(reg) {
    if (!reg) return;  // a browser that keeps its workers off answers nothing
    registration = reg;
    // A waiting worker with a controller is an update; without one it is the first install.
    if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
    reg.addEventListener("updatefound", function () {
      var worker = reg.installing;
      if (!worker) return;
      worker.addEventListener("statechange", function () {
        if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
      });
    });
  }

  function checkForUpdate() {
    return registration ? registration.update() : Promise.resolve();
  }

  function askPersistence() {
    var storage = navigator.storage;
    if (!storage || !storage.persist) return;
    storage.persisted()
      .then(function (already) { return already || storage.persist(); })
      .then(function (granted) { root.dataset.storage = granted ? "persistent" : "best-effort"; })
      .catch(function (error) { console.warn("persistent storage: " + error); });
  }

  function version() {
    var controller = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!controller) return Promise.resolve(null);
    return new Promise(function (resolve) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) { resolve(event.data.version); };
      controller.postMessage({type: "version"}, [channel.port2]);
    });
  }

  /* Hands the bytecode zip built by the page (py/webui/browser/boot/warm.py) to the active worker;
   * a Promise of its answer {kept, reason}. key: {runtime, stdlib, app}, the Pyodide release
   * and the hashes of the standard library zip and app.zip the page booted from
   * (boot/sw-kept.js). */
  function keepBytecode(key, bytes) {
    return navigator.serviceWorker.ready.then(function (reg) {
      return new Promise(function (resolve) {
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) { resolve(event.data); };
        reg.active.postMessage({type: "bytecode", key: key, zip: bytes.buffer},
                               [channel.port2, bytes.buffer]);
      });
    });
  }

  /* Run start once the game has booted (html[data-ready=true]) and fetched app-more.zip
   * (html[data-more], py/webui/browser/boot/more.py), so that the first install revalidates
   * the files the boot just downloaded instead of racing it for the bandwidth and downloading
   * them twice; BOOT_GRACE_MS after "load" at the latest, in case the boot fails. */
  function afterBoot(start) {
    var started = false;
    function once() {
      if (started) return;
      started = true;
      observer.disconnect();
      start();
    }
    function booted() { return root.dataset.ready === "true" && Boolean(root.dataset.more); }
    var observer = new MutationObserver(function () {
      if (booted()) once();
    });
    if (booted()) return once();
    observer.observe(root, {attributes: true, attributeFilter: ["data-ready", "data-more"]});
    window.addEventListener("load", function () { setTimeout(once, BOOT_GRACE_MS); });
  }

  window.lcPwa = {
    updateReady: function () { return waiting !== null; },
    applyUpdate: function () {
      if (waiting === null) return false;
      accepted = true;
      if (waiting.state === "activating" || waiting.state === "activated") {
        location.reload(); // another tab already took this version: just load it
      } else {
        waiting.postMessage({type: "skip-waiting"});
      }
      return true;
    },
    checkForUpdate: checkForUpdate,
    version: version,
    keepBytecode: keepBytecode,
  };

  askPersistence();
  if (!("serviceWorker" in navigator)) return;

  navigator.serviceWorker.addEventListener("controllerchange", function () {
    // Also fired when the first version claims the page: reload only for an accepted update.
    if (accepted) location.reload();
  });
  afterBoot(function () {
    var base = document.baseURI;
    navigator.serviceWorker
      .register(new URL("sw.js", base), {scope: new URL("./", base).href, updateViaCache: "none"})
      .then(watch)
      .catch(function (error) {  // refused (a private window): the game plays, not offline
        console.warn("service worker refused: " + error);
      });
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") checkForUpdate().catch(function () {});
  });
  setInterval(function () { checkForUpdate().catch(function () {}); }, CHECK_EVERY_MS);
})();
