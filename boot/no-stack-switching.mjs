/* The runtime without WebAssembly stack switching (JSPI).
 *
 * Pyodide runs Python on a stack of its own whenever the browser has `WebAssembly.Suspending`
 * (pyodide.asm.mjs looks once, when it is evaluated), so that Python may wait for a promise
 * (`run_sync`), which the game never does. On such a stack Chromium's renderer crashes now and
 * then: a SIGSEGV on the page's main thread, reading past the end of the stack V8 made for it
 * (docs/boot.md, "Without stack switching"). So every script that starts the runtime
 * (boot/pyodide-early.mjs, boot/snapshot-worker.mjs) imports this module before it, and the
 * runtime finds no stack switching in this realm.
 */
delete WebAssembly.Suspending;
delete WebAssembly.Suspender;  // the proposal's earlier API, which Pyodide also looks for
