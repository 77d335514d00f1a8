/* Motion that helps reading the table: a card that changes place moves there (FLIP).

   Python patches the screen (#screen) synchronously on each click, peer message or computer
   move. A MutationObserver on #screen then compares every card's place with its place in the
   previous settled screen and, before the browser paints, starts a short Web Animation that
   carries each card from where it was to where it is now:

   - a card still in its zone (hand, an expedition, a pile: `[data-zone]` with its
     `data-player` and `data-colour`) that moved slides there (the hand closing up, say);
     equal handshakes share a code, so cards are paired by code and order within a zone;
   - a card that arrives in another zone flies from the place it left (a hand card played or
     discarded, a pile top drawn). Without such a place it flies from where it must have
     come from: the opponent's hand (whose backs carry no code) for a card the opponent
     played or discarded, the deck for a card drawn from it; a back that joins the
     opponent's hand flies from the pile whose top left, else from the deck. A pile's new
     top that was only uncovered stays put.

   Places are layout boxes relative to #screen (offsets, so a CSS transform such as the
   picked card's lift or a running animation never counts as a move, and scrolling neither).
   A card dropped by a drag (static/drag.js) flies from where it was dropped: drag.js leaves
   the drop offset in `data-drag-x` / `data-drag-y` on the card before it plays it.

   The animation moves the CSS `translate` property (kept apart from `transform`, so the
   card's own transform, its lift or the pop of `.fresh`, still applies), for DURATION ms,
   and never blocks input: nothing waits for it, and a card in flight that is not a button
   lets clicks through (`[data-moving]` in app.css). While it runs the card carries
   `data-moving`. A card replaced while in flight goes on from where it is. With
   `prefers-reduced-motion: reduce` nothing moves.
*/
(() => {
  "use strict";

  const DURATION = 200;
  const EASING = "cubic-bezier(0.2, 0.7, 0.3, 1)";
  const reduced = matchMedia("(prefers-reduced-motion: reduce)");
  // attributes this file and drag.js write while a card moves: no new screen
  const OWN = new Set(["data-moving", "style", "data-drag-x", "data-drag-y"]);
  const flights = new WeakMap();  // element -> {animation, dx, dy} of its running move

  let screen = null;
  let last = null;  // the settled screen: see snapshot()

  /** The centre of an element's layout box in page coordinates, or null if not rendered. */
  function centre(element) {
    if (element.offsetParent === null) return null;
    let x = element.offsetWidth / 2;
    let y = element.offsetHeight / 2;
    for (let node = element; node !== null; node = node.offsetParent) {
      x += node.offsetLeft;
      y += node.offsetTop;
    }
    return {x, y};
  }

  function zoneKey(zone) {
    const data = zone.dataset;
    return `${data.zone}|${data.player ?? ""}|${data.colour ?? ""}`;
  }

  /** Every zone and card of the screen with its place, or null when it is not shown. */
  function snapshot() {
    const base = centre(screen);
    if (base === null) return null;
    const mine = screen.querySelector('[data-zone="hand"]:not(.backs)');
    const zones = new Map();  // zone key -> {zone, player, colour, x, y, cards, backs}
    for (const element of screen.querySelectorAll("[data-zone]")) {
      const place = centre(element);
      if (place === null) continue;
      const data = element.dataset;
      zones.set(zoneKey(element), {
        zone: data.zone, player: data.player, colour: data.colour,
        x: place.x - base.x, y: place.y - base.y, cards: [], backs: 0,
      });
    }
    for (const element of screen.querySelectorAll("[data-zone] [data-card], [data-zone] .back")) {
      const zoneElement = element.closest("[data-zone]");
      const zone = zones.get(zoneKey(zoneElement));
      const place = zone && centre(element);
      if (!place) continue;
      const code = element.dataset.card ?? "?";
      if (code === "?") zone.backs += 1;
      zone.cards.push({element, code, x: place.x - base.x, y: place.y - base.y});
    }
    const key = `${document.body.dataset.screen ?? ""}|${mine ? mine.dataset.player : ""}`;
    return {key, me: mine ? mine.dataset.player : null, zones};
  }

  /** Where the element shows now relative to its layout place (a move in flight). */
  function inFlight(element) {
    const flight = flights.get(element);
    if (!flight) return {x: 0, y: 0};
    const progress = flight.animation.effect.getComputedTiming().progress;
    if (progress === null) return {x: 0, y: 0};
    return {x: flight.dx * (1 - progress), y: flight.dy * (1 - progress)};
  }

  /** Where a card that left `entry` showed last: its place, its flight, a drag's offset. */
  function shown(entry) {
    const element = entry.element;
    const flight = inFlight(element);
    const dragX = Number(element.dataset.dragX) || 0;
    const dragY = Number(element.dataset.dragY) || 0;
    return {x: entry.x + flight.x + dragX, y: entry.y + flight.y + dragY};
  }

  function fly(card, from) {
    const element = card.element;
    if (element.classList.contains("dragging")) return;
    const dx = Math.round(from.x - card.x);
    const dy = Math.round(from.y - card.y);
    const previous = flights.get(element);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) {
      if (previous) previous.animation.cancel();
      return;
    }
    if (previous) previous.animation.cancel();
    const animation = element.animate(
      [{translate: `${dx}px ${dy}px`}, {translate: "0px 0px"}],
      {duration: DURATION, easing: EASING});
    flights.set(element, {animation, dx, dy});
    element.setAttribute("data-moving", "");
    const done = () => {
      if (flights.get(element)?.animation !== animation) return;
      flights.delete(element);
      element.removeAttribute("data-moving");
    };
    animation.addEventListener("finish", done);
    animation.addEventListener("cancel", done);
  }

  /** Pair the cards of each zone with the previous screen's; list who arrived and left. */
  function pair(before, now) {
    const arrivals = [];
    const departures = [];  // {zoneKey, zone, entry}
    for (const [key, zone] of now.zones) {
      const old = before.zones.get(key);
      const pool = new Map();
      for (const entry of old ? old.cards : []) {
        if (!pool.has(entry.code)) pool.set(entry.code, []);
        pool.get(entry.code).push(entry);
      }
      for (const card of zone.cards) {
        const match = pool.get(card.code)?.shift();
        if (match) {
          // the same element where it was goes on as it was (in flight or not)
          const kept = card.element === match.element && match.x === card.x && match.y === card.y;
          if (!kept) fly(card, shown(match));
        } else {
          arrivals.push({key, zone, card});
        }
      }
      for (const entries of pool.values()) {
        for (const entry of entries) departures.push({key, zone: old, entry});
      }
    }
    for (const [key, zone] of before.zones) {
      if (!now.zones.has(key)) {
        for (const entry of zone.cards) departures.push({key, zone, entry});
      }
    }
    return {arrivals, departures};
  }

  /** Where a card that arrived without leaving a shown place came from, or null. */
  function source(arrival, before, now, left) {
    const {zone, card} = arrival;
    const theirs = [...before.zones.values()].find(
      (z) => z.zone === "hand" && z.player !== before.me && z.player !== undefined);
    const deck = before.zones.get("deck||");
    if (card.code === "?") {  // the opponent drew: from the pile whose top left, or the deck
      const index = left.findIndex((d) => d.zone.zone === "discard");
      if (index >= 0) return shown(left.splice(index, 1)[0].entry);
      return deck ?? null;
    }
    if (zone.zone === "hand") return deck ?? null;  // drawn from the deck
    if (!theirs) return null;
    if (zone.zone === "expedition" && zone.player !== before.me) return theirs;
    const nowTheirs = now.zones.get(`hand|${theirs.player}|`);
    if (zone.zone === "discard" && nowTheirs && nowTheirs.backs < theirs.backs) {
      theirs.backs -= 1;  // one card of theirs accounted for
      return theirs;
    }
    return null;  // a pile's top uncovered by a draw
  }

  function update() {
    const now = reduced.matches ? null : snapshot();
    const before = last;
    last = now;
    if (now === null || before === null || before.key !== now.key) return;
    const {arrivals, departures} = pair(before, now);
    const left = [];
    for (const departure of departures) left.push(departure);
    const pending = [];
    for (const arrival of arrivals) {  // a card seen leaving another zone
      const index = left.findIndex(
        (d) => d.entry.code === arrival.card.code && d.key !== arrival.key);
      if (index >= 0) fly(arrival.card, shown(left.splice(index, 1)[0].entry));
      else pending.push(arrival);
    }
    for (const arrival of pending) {
      const from = source(arrival, before, now, left);
      if (from !== null) fly(arrival.card, from);
    }
  }

  function watch(element) {
    screen = element;
    new MutationObserver((records) => {
      if (records.every((r) => r.type === "attributes" && OWN.has(r.attributeName))) return;
      update();
    }).observe(screen, {childList: true, subtree: true, attributes: true});
    let resized = false;
    addEventListener("resize", () => {  // a new layout: places measured again, no move
      if (resized) return;
      resized = true;
      requestAnimationFrame(() => {
        resized = false;
        last = reduced.matches ? null : snapshot();
      });
    });
    update();
  }

  // #screen is made by Python once it has booted (py/webui/app.py)
  function start() {
    const found = document.getElementById("screen");
    if (found) return watch(found);
    const app = document.getElementById("app");
    if (!app) return;
    const waiting = new MutationObserver(() => {
      const made = document.getElementById("screen");
      if (made) {
        waiting.disconnect();
        watch(made);
      }
    });
    waiting.observe(app, {childList: true});
  }

  start();
})();
