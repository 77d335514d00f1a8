// The first frame shows the shell alone (title and loading line); the setup form comes in the
// next one, once the shell has painted (html[data-shell="painted"], static/app.css): laying it
// out and drawing it held the first paint back by 100-200 ms without a GPU. A hidden tab, which
// never paints, shows it at once. boot/pyodide-early.mjs starts the runtime once that frame is
// drawn.
(function () {
  function painted() { document.documentElement.dataset.shell = "painted"; }
  if (document.visibilityState === "hidden") return painted();
  if ((PerformanceObserver.supportedEntryTypes || []).indexOf("paint") < 0) {
    return requestAnimationFrame(function () { setTimeout(painted, 0); });
  }
  new PerformanceObserver(function (list, observer) {
    if (!list.getEntriesByName("first-contentful-paint").length) return;
    observer.disconnect();
    painted();
  }).observe({ type: "paint", buffered: true });
})();

// A long wait for Python shows a bar under the loading line (html[data-long-wait], index.html).
setTimeout(function () {
  if (document.documentElement.dataset.ready !== "true") {
    document.documentElement.dataset.longWait = "true";
  }
}, 2500);

// A player with no history yet (no match finished on this device) is offered the guided
// first round at the top of the setup form; others find it among the links below it
// (html[data-first-game], static/app.css). Python asks again each time the setup shows
// (py/webui/browser/page.py), so a first match finished takes the offer away.
window.lcFirstGame = function () {
  try {
    document.documentElement.dataset.firstGame =
      String(localStorage.getItem("lostcities.history") === null);
  } catch (error) {
    document.documentElement.dataset.firstGame = "false";  // storage not readable
  }
};
window.lcFirstGame();

// Before Python has booted, the setup form already works: a press on Start is remembered
// (body[data-pending-start="true"]) and the match starts as soon as Python is ready
// (py/webui/browser/main.py reads the form's values then). Once the page is ready this does nothing.
document.addEventListener("click", function (event) {
  var start = event.target.closest && event.target.closest('[data-action="start"]');
  if (!start || document.documentElement.dataset.ready === "true") return;
  document.body.dataset.pendingStart = "true";
  start.setAttribute("aria-busy", "true");
  var wait = document.getElementById("setup-wait");
  if (wait) wait.hidden = false;
});
