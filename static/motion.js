/* Motion that helps reading the table: a card that changes place moves there (FLIP).

   Python patches the screen (#screen) synchronously on each click, peer message or computer
   move. A MutationObserver on #screen sees each patch: when cards came or went, the next
   frame (a requestAnimationFrame callback, before that frame is painted: the click's own
   handling is not made longer) compares every card's place with its place in the previous
   settled screen and starts a short Web Animation that carries each card from where it was
   to where it is now; otherwise (a card picked, a new screen, a new window size) the places
   are only measured again once the screen has been painted:

   - a card still in its zone (hand, an expedition, a pile: `[data-zone]` with its
     `data-player` and `data-colour`) that moved slides there (the hand closing up, say);
     equal handshakes share a code, so cards are paired by code and order within a zone;
   - a card that arrives in another zone flies from the place it left (a hand card played or
     discarded, a pile top drawn). Without such a place it flies from where it must have
     come from: the opponent's hand (`.backs`: no codes) for a card the opponent
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

  /** A measure of layout places relative to #screen for one snapshot (offsets: transforms
      left out), remembering each offset parent's place: cards share a few of them. */
  function measurer() {
    const origins = new Map();
    const origin = (node) => {
      if (node === null) return {x: 0, y: 0};
      let place = origins.get(node);
      if (place === undefined) {
        const parent = origin(node.offsetParent);
        place = {x: parent.x + node.offsetLeft, y: parent.y + node.offsetTop};
        origins.set(node, place);
      }
      return place;
    };
    /** The centre of an element's layout box, or null when it is not rendered. */
    const centre = (element) => {
      if (element.offsetParent === null) return null;
      const parent = origin(element.offsetParent);
      return {x: parent.x + element.offsetLeft + element.offsetWidth / 2,
              y: parent.y + element.offsetTop + element.offsetHeight / 2};
    };
    const base = centre(screen);
    if (base === null) return null;
    return (element) => {
      const place = centre(element);
      return place && {x: place.x - base.x, y: place.y - base.y};
    };
  }

  function zoneKey(zone) {
    const data = zone.dataset;
    return `${data.zone}|${data.player ?? ""}|${data.colour ?? ""}`;
  }

  /** Which screen, seen by which player: places compare only within one. */
  function screenKey() {
    const mine = screen.querySelector('[data-zone="hand"]:not(.backs)');
    return `${document.body.dataset.screen ?? ""}|${mine ? mine.dataset.player : ""}`;
  }

  /** Every zone and card of the screen with its place, or null when it is not shown. */
  function snapshot() {
    const place = measurer();
    if (place === null) return null;
    const mine = screen.querySelector('[data-zone="hand"]:not(.backs)');
    const zones = new Map();  // zone key -> {zone, player, colour, x, y, cards, backs}
    for (const element of screen.querySelectorAll("[data-zone]")) {
      const centre = place(element);
      if (centre === null) continue;
      const data = element.dataset;
      const zone = {zone: data.zone, player: data.player, colour: data.colour,
                    x: centre.x, y: centre.y, cards: [], backs: 0};
      zones.set(zoneKey(element), zone);
      for (const card of element.querySelectorAll("[data-card], .back")) {
        const at = place(card);
        if (at === null) continue;
        const code = card.dataset.card ?? "?";
        if (code === "?") zone.backs += 1;
        zone.cards.push({element: card, code, x: at.x, y: at.y});
      }
    }
    return {key: screenKey(), me: mine ? mine.dataset.player : null, zones};
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
    flights.get(element)?.animation.cancel();
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
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
    const departures = [];  // {key, zone, entry}: a card no longer in its zone
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

  let waiting = null;  // the places before cards came or went, until the next frame

  /** Cards came or went: fly them in the next frame (before it is painted, so the new
      places show only as the end of each move), from the places before this patch. */
  function changed() {
    if (waiting !== null) return;  // a frame is coming already, from the earlier places
    if (last === null || document.hidden) {
      last = null;  // nothing to compare with (or nothing shown): measured once painted
      later();
      return;
    }
    waiting = last;
    requestAnimationFrame(() => {
      const before = waiting;
      waiting = null;
      if (reduced.matches) last = null;
      else flyFrom(before);
    });
  }

  /** Fly every card whose place changed since `before`, and keep the new places. */
  function flyFrom(before) {
    if (before.key !== screenKey()) {  // another screen: no move, places measured anew
      last = null;
      later();
      return;
    }
    const now = snapshot();
    last = now;
    if (now === null) return;
    const {arrivals, departures} = pair(before, now);
    const left = [...departures];
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

  let measuring = false;
  /** Measure the places once the screen has been painted (off the input's path): after a
      patch that moved no card in or out, a new screen, a new window size. */
  function later() {
    if (measuring) return;
    measuring = true;
    const measure = () => {
      measuring = false;
      last = reduced.matches ? null : snapshot();
    };
    if (document.hidden) setTimeout(measure, 0);
    else requestAnimationFrame(() => setTimeout(measure, 0));
  }

  const CARDS = "[data-card], .back, [data-zone]";
  /** Whether a batch of mutations added or removed a card (or a zone that holds cards). */
  function movesCards(records) {
    for (const record of records) {
      if (record.type !== "childList") continue;
      for (const nodes of [record.addedNodes, record.removedNodes]) {
        for (const node of nodes) {
          if (node.nodeType === 1 && (node.matches(CARDS) || node.querySelector(CARDS))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  function watch(element) {
    screen = element;
    new MutationObserver((records) => {
      if (reduced.matches) {
        last = null;
      } else if (movesCards(records)) {
        changed();
      } else if (!records.every((r) => r.type === "attributes" && OWN.has(r.attributeName))) {
        later();  // the same cards: their places may have shifted a little
      }
    }).observe(screen, {childList: true, subtree: true, attributes: true});
    addEventListener("resize", () => later());
    later();
  }

  // #screen is made by Python once it has booted (py/webui/browser/app.py)
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
