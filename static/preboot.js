// Before Python has booted, the setup form already works: a press on Start is remembered
// (body[data-pending-start="true"]) and the match starts as soon as Python is ready
// (py/webui/main.py reads the form's values then). Once the page is ready this does nothing.
document.addEventListener("click", function (event) {
  var start = event.target.closest && event.target.closest('[data-action="start"]');
  if (!start || document.documentElement.dataset.ready === "true") return;
  document.body.dataset.pendingStart = "true";
  start.setAttribute("aria-busy", "true");
  var wait = document.getElementById("setup-wait");
  if (wait) wait.hidden = false;
});
