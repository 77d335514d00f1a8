/* A later visit's first step, as the page's head is parsed (a classic script, with the shell's
 * other parser-blocking one): on a page that a service worker controls, it starts the worker
 * that compiles the runtime's wasm and reads and checks the kept boot snapshot
 * (boot/later-visit-worker.mjs), and has the runtime's script preloaded (fetched and parsed off
 * the main thread, not run). A worker's start waits for the page's main thread at one step
 * (its script loaded): started by the boot's modules, ~60 ms in, it waited there for the first
 * frames' layout and scripts and ran its first line ~250 ms after navigation.
 * boot/later-visit.mjs takes the worker over (`window.lcLaterVisit`: the worker and its
 * answers so far). */
(function () {
  var container = navigator.serviceWorker;
  if (typeof Worker !== "function" || !(container && container.controller)) return;
  var here = document.currentScript.src;
  var worker = new Worker(new URL("later-visit-worker.mjs", here), { type: "module" });
  var early = [];
  worker.onmessage = function (event) { early.push({ data: event.data }); };
  worker.onerror = function (event) {
    early.push({ error: event.message || "the later visit's worker failed" });
  };
  worker.postMessage({ wasm: new URL("../static/vendor/pyodide/pyodide.asm.wasm", here).href });
  window.lcLaterVisit = { worker: worker, early: early };

  var preload = document.createElement("link");
  preload.rel = "modulepreload";
  preload.href = new URL("../static/vendor/pyodide/pyodide.asm.mjs", here).href;
  document.head.append(preload);
})();
