// The shell in the player's language from the first frame, before Python has started.
// index.html is written in English. This runs in its head, before the body is parsed: it
// picks the language the player chose on this device (localStorage "lostcities.lang", as
// py/webui/text/i18n.py's LANG_KEY) or else the browser's, and for any but English it hides
// the body (html[data-shell-lang="pending"]) until the parser has reached the end of the shell
// (#lc-shell-end), then puts the words of window.LC_SHELL_TEXT (the game's own catalogue) into
// it and shows it: no frame is drawn in English. The page runs it as
// static/vendor/shell-lang.js, which boot/build/shell_text.py makes at build time: this file
// with those words before it, one request rather than two (a parser-blocking request on a
// phone's network held the setup form back by about 200 ms). The language button
// works before Python is ready too: the shell switches at once and the choice is stored,
// where Python reads it when it starts. Once the page is ready this does nothing.
(function () {
  var words = window.LC_SHELL_TEXT;
  var KEY = "lostcities.lang";
  var root = document.documentElement;
  if (!words) return;  // no built text: the shell stays in English

  function stored() {
    try { return localStorage.getItem(KEY); } catch (error) { return null; }
  }

  // As pick_language in py/webui/text/i18n.py: "es-AR" -> "es"; a language without a
  // catalogue -> English.
  function pick(tag) {
    var base = String(tag || "").trim().toLowerCase().replace("_", "-").split("-")[0];
    return Object.prototype.hasOwnProperty.call(words, base) ? base : "en";
  }

  function show(lang) {
    var text = words[lang];
    root.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach(function (node) {
      var said = text[node.dataset.i18n];
      if (said !== undefined) node.textContent = said;
    });
    document.querySelectorAll("[data-i18n-label]").forEach(function (node) {
      var said = text[node.dataset.i18nLabel];
      if (said !== undefined) node.setAttribute("aria-label", said);
    });
  }

  var lang = pick(stored() || navigator.language);
  if (lang !== "en") {
    root.lang = lang;
    root.dataset.shellLang = "pending";
    var reveal = function () {
      if (root.dataset.shellLang !== "pending") return;
      watch.disconnect();
      show(lang);
      delete root.dataset.shellLang;
    };
    // Mutation records are delivered before the browser renders again: the body is put into
    // the player's language in the same task the parser reached the end of the shell in.
    var watch = new MutationObserver(function () {
      if (document.getElementById("lc-shell-end")) reveal();
    });
    watch.observe(root, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", reveal);  // a page without the marker
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest('[data-action="lang"]');
    if (!button || root.dataset.ready === "true") return;
    lang = lang === "es" ? "en" : "es";
    try { localStorage.setItem(KEY, lang); } catch (error) { /* kept for this page only */ }
    show(lang);
  });
})();
