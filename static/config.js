/* Browser config: which PeerJS broker and which ICE (STUN/TURN) servers the page uses.
 *
 * The one place that decides it. Order:
 *   1. static/config.json (the public PeerJS broker in the repository; the dev server
 *      scripts/serve.py answers this URL with its own loopback broker instead);
 *   2. URL parameters override it:
 *        ?broker=[scheme://]host[:port][/path]   scheme https/wss = secure, http/ws = not;
 *                                                 no scheme: secure unless the host is loopback
 *        ?ice=none | ice=JSON array of RTCIceServer |
 *        ?ice=turn:USER:CREDENTIAL@host:3478,stun:host:3478   (comma-separated)
 *
 * window.LC_CONFIG is a Promise of {peer: {host, port, path, secure}, iceServers: [...]},
 * rejected with a clear Error when config.json or a parameter is malformed.
 * window.lcResolveConfig(base, search) is the pure resolver behind it.
 * Use: new Peer(id, {...config.peer, config: {iceServers: config.iceServers}}).
 *
 * window.lcOnlineLibraries() loads what only online play needs: PeerJS (window.Peer), the
 * QR code library (window.qrcode, npm qrcode-generator) and libsodium (window.sodium, npm
 * libsodium-wrappers-sumo: the ES module static/vendor/sodium/libsodium-wrappers.js, its wasm
 * inside, for fair play's group, py/webui/browser/online/sodium_group.py). The first screen needs none
 * of them, and PeerJS opens a test RTCPeerConnection as it runs, so they are not in index.html:
 * this returns a Promise resolved once all have run and libsodium is ready
 * (py/webui/online/lobby.py awaits it before a room is opened or joined), rejected with an
 * Error naming a file that could not be loaded (the next call tries that file again). Choosing
 * online mode on the setup screen starts loading them. The vendored paths named here in quotes
 * are those scripts/precache.py marks "later": the service worker keeps their folders' files
 * the first time they are loaded, not at install.
 *
 * window.lcRistrettoCombine(sodium, scalars, points) is fair play's long sum in one call from
 * Python (JsSodiumGroup.combine, py/webui/browser/online/sodium_group.py): sum of s_i * P_i, the
 * 32-byte scalars and points each concatenated in one Uint8Array, looped here over libsodium's
 * own crypto_scalarmult_ristretto255 and crypto_core_ristretto255_add (of `sodium`, the
 * library's object), so that a sum of 150 terms crosses the Python bridge once, not 300
 * times. It throws what libsodium throws (a point not in the group, a product that is the
 * identity), and an Error on lengths that are not as many 32-byte scalars as points, at
 * least one.
 *
 * window.lcRistrettoEach(sodium, name, first[, second]) is one of the library's calls made on
 * every value of a batch (JsSodiumGroup's mults, bases, adds, muladds, scalars, are_points):
 * `first` (and `second`) hold the inputs concatenated, the answer the outputs concatenated
 * (one byte a point for crypto_core_ristretto255_is_valid_point). It throws what the call throws.
 */
(function () {
  "use strict";

  var LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

  function fail(what, message) {
    return new Error("Lost Cities config: " + what + ": " + message);
  }

  function checkPeer(peer, what) {
    if (!peer || typeof peer !== "object") throw fail(what, "peer must be an object");
    if (typeof peer.host !== "string" || !peer.host) throw fail(what, "peer.host must be a name");
    if (!Number.isInteger(peer.port) || peer.port < 1 || peer.port > 65535) {
      throw fail(what, "peer.port must be an integer 1-65535");
    }
    if (typeof peer.path !== "string" || peer.path.charAt(0) !== "/") {
      throw fail(what, "peer.path must start with /");
    }
    if (typeof peer.secure !== "boolean") throw fail(what, "peer.secure must be true or false");
    return {host: peer.host, port: peer.port, path: peer.path, secure: peer.secure};
  }

  function checkIceServers(servers, what) {
    if (!Array.isArray(servers)) throw fail(what, "iceServers must be a list");
    return servers.map(function (server) {
      var urls = server && server.urls;
      var list = Array.isArray(urls) ? urls : [urls];
      if (!list.length || !list.every(function (u) { return /^(stuns?|turns?):\S+$/.test(u); })) {
        throw fail(what, "each ICE server needs urls starting with stun:, stuns:, turn: or turns:");
      }
      var isTurn = list.some(function (u) { return /^turns?:/.test(u); });
      if (isTurn && (typeof server.username !== "string" || typeof server.credential !== "string")) {
        throw fail(what, "a TURN server needs a username and a credential");
      }
      var copy = {urls: urls};
      if (server.username !== undefined) copy.username = server.username;
      if (server.credential !== undefined) copy.credential = server.credential;
      return copy;
    });
  }

  function parseBroker(text) {
    var what = "?broker=" + text;
    var m = /^(?:(wss?|https?):\/\/)?([^/:?#@\s]+|\[[0-9a-fA-F:.]+\])(?::(\d+))?(\/[^?#\s]*)?$/
      .exec(text);
    if (!m) throw fail(what, "expected [https://]host[:port][/path], e.g. peer.example.org:443/myapp");
    var host = m[2];
    var secure = m[1] ? (m[1] === "https" || m[1] === "wss") : !LOOPBACK.test(host);
    var port = m[3] === undefined ? (secure ? 443 : 80) : Number(m[3]);
    return checkPeer({host: host, port: port, path: m[4] || "/", secure: secure}, what);
  }

  function parseIce(text) {
    var what = "?ice=" + text;
    if (text === "" || text === "none") return [];
    if (text.charAt(0) === "[") {
      var parsed;
      try { parsed = JSON.parse(text); } catch (e) { throw fail(what, "not valid JSON"); }
      return checkIceServers(parsed, what);
    }
    return checkIceServers(text.split(",").map(function (entry) {
      var m = /^(stuns?|turns?):(?:([^:@]+):([^@]+)@)?(.+)$/.exec(entry.trim());
      if (!m) throw fail(what, "expected turn:USER:CREDENTIAL@host:port or stun:host:port");
      var server = {urls: m[1] + ":" + m[4]};
      if (m[2] !== undefined) {
        server.username = decodeURIComponent(m[2]);
        server.credential = decodeURIComponent(m[3]);
      }
      return server;
    }), what);
  }

  /** The config for base (parsed config.json) with the URL parameters in search applied. */
  function resolveConfig(base, search) {
    if (!base || typeof base !== "object") throw fail("config.json", "must be an object");
    var config = {
      peer: checkPeer(base.peer, "config.json"),
      iceServers: checkIceServers(base.iceServers, "config.json"),
    };
    var params = new URLSearchParams(search || "");
    if (params.has("broker")) config.peer = parseBroker(params.get("broker"));
    if (params.has("ice")) config.iceServers = parseIce(params.get("ice"));
    return config;
  }

  async function loadConfig() {
    var url = new URL("static/config.json", document.baseURI);
    var response = await fetch(url, {cache: "no-cache"});
    if (!response.ok) throw fail(url.pathname, "HTTP " + response.status);
    var base;
    try { base = await response.json(); } catch (e) { throw fail(url.pathname, "not valid JSON"); }
    return resolveConfig(base, location.search);
  }

  var ONLINE_LIBRARIES = ["static/vendor/peerjs/peerjs.min.js", "static/vendor/qrcode/qrcode.js"];
  var loaded = {};  // path -> Promise of that script having run

  function loadScript(path) {
    if (!loaded[path]) {
      loaded[path] = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = new URL(path, document.baseURI).href;
        script.onload = function () { resolve(); };
        script.onerror = function () {
          script.remove();
          delete loaded[path];
          reject(new Error("Lost Cities: could not load " + path));
        };
        document.head.appendChild(script);
      });
    }
    return loaded[path];
  }

  var SODIUM = "static/vendor/sodium/libsodium-wrappers.js";
  var sodium = null;  // Promise of window.sodium being set and ready

  function loadSodium() {
    if (!sodium) {
      sodium = import(new URL(SODIUM, document.baseURI).href).then(function (module) {
        return module.default.ready.then(function () { window.sodium = module.default; });
      }).catch(function (error) {
        sodium = null;
        throw new Error("Lost Cities: could not load " + SODIUM + " (" + error + ")");
      });
    }
    return sodium;
  }

  var VALUE_BYTES = 32;

  function ristrettoCombine(sodium, scalars, points) {
    var terms = scalars.length / VALUE_BYTES;
    if (!(terms >= 1) || terms !== Math.floor(terms) || points.length !== scalars.length) {
      throw new Error("a combination needs as many 32-byte scalars as points, at least one");
    }
    var mult = sodium.crypto_scalarmult_ristretto255, add = sodium.crypto_core_ristretto255_add;
    var total = null;
    for (var i = 0; i < scalars.length; i += VALUE_BYTES) {
      var term = mult(scalars.subarray(i, i + VALUE_BYTES),
                      points.subarray(i, i + VALUE_BYTES));
      total = total === null ? term : add(total, term);
    }
    return total;
  }

  // Elementwise calls: the libsodium function, then the width of each input (bytes a value).
  var EACH = {
    crypto_scalarmult_ristretto255: [32, 32],
    crypto_scalarmult_ristretto255_base: [32],
    crypto_core_ristretto255_add: [32, 32],
    crypto_core_ristretto255_scalar_mul: [32, 32],
    crypto_core_ristretto255_scalar_add: [32, 32],
    crypto_core_ristretto255_scalar_reduce: [64],
    crypto_core_ristretto255_is_valid_point: [32]
  };

  function ristrettoEach(sodium, name, first, second) {
    var widths = EACH[name];
    if (!widths) throw new Error("not an elementwise call: " + name);
    var count = first.length / widths[0];
    if (!(count >= 1) || count !== Math.floor(count)
        || (widths.length === 2) !== (second !== undefined && second !== null)
        || (widths.length === 2 && second.length !== count * widths[1])) {
      throw new Error("an elementwise call needs whole values, as many of each input");
    }
    var fn = sodium[name], valid = name === "crypto_core_ristretto255_is_valid_point";
    var out = new Uint8Array(count * (valid ? 1 : VALUE_BYTES));
    for (var i = 0; i < count; i++) {
      var a = first.subarray(i * widths[0], (i + 1) * widths[0]);
      var result = widths.length === 2
        ? fn(a, second.subarray(i * widths[1], (i + 1) * widths[1])) : fn(a);
      if (valid) out[i] = result ? 1 : 0;
      else out.set(result, i * VALUE_BYTES);
    }
    return out;
  }

  function onlineLibraries() {
    return Promise.all(ONLINE_LIBRARIES.map(loadScript).concat([loadSodium()]))
      .then(function () {});
  }

  window.lcResolveConfig = resolveConfig;
  window.LC_CONFIG = loadConfig();
  window.LC_CONFIG.catch(function (error) { console.error(error.message); });
  window.lcOnlineLibraries = onlineLibraries;
  window.lcRistrettoCombine = ristrettoCombine;
  window.lcRistrettoEach = ristrettoEach;
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.matches && input.matches('[data-option="mode"][value="online"]') && input.checked) {
      onlineLibraries().catch(function () {});  // reported when the lobby awaits them
    }
  });
})();
