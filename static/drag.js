/* Drag and drop: a second way to play a hand card, beside tap and keyboard.

   Drag a card of the hand (`[data-zone="hand"] [data-action="select"][data-card]`, enabled)
   onto its expedition (`[data-zone="expedition"]` of the hand's player and the card's colour)
   to play it, or onto its discard pile (`[data-zone="discard"]` of its colour) to discard it.
   Everything goes through the page's own buttons, so the rules stay in Python:

   - once the pointer has moved a few pixels (a tap stays a tap), the card is picked by
     clicking it (unless it was already): the page renders at once, and the Play and Discard
     buttons then say by `disabled` whether each move is legal; only those targets light up
     (class `drop-target`, plus `drop-over` while the pointer is over one);
   - the card follows the pointer (CSS `translate`, class `dragging`);
   - dropped on a lit target, the page's Play or Discard button is clicked; dropped anywhere
     else (or the pointer cancelled), the card goes back and the picked card is the one picked
     before the drag (or none).

   Pointer Events serve the mouse, touch and pens alike; hand cards have `touch-action: none`
   (app.css) so that a drag on one never scrolls the page. The click that the browser may send
   after a drag is swallowed (it would pick or unpick the card again).
*/
(() => {
  "use strict";

  const CARD = '[data-zone="hand"] [data-action="select"][data-card]';
  const THRESHOLD = {mouse: 5, pen: 8, touch: 10};  // px moved before a press becomes a drag
  const reduced = matchMedia("(prefers-reduced-motion: reduce)");
  let drag = null;  // the press or drag under way

  function copies(hand, code) {
    return [...hand.querySelectorAll(`[data-action="select"][data-card="${CSS.escape(code)}"]`)];
  }

  function pickedCopy(hand, code) {
    return copies(hand, code).find((card) => card.getAttribute("aria-pressed") === "true") ?? null;
  }

  /** The hand of `player` and the card that is the dragged one (it may have been replaced). */
  function find(state) {
    const hand = document.querySelector(
      `#screen [data-zone="hand"][data-player="${CSS.escape(state.player)}"]`);
    if (hand === null) return null;
    if (state.card.isConnected) return {hand, card: state.card};
    const card = copies(hand, state.code)[state.copy] ?? copies(hand, state.code)[0];
    return card ? {hand, card} : null;
  }

  function actionButton(action) {
    const button = document.querySelector(`#screen [data-action="${action}"]`);
    return button && !button.disabled ? button : null;
  }

  /** Pick the card (the page renders at once) and light the targets its legal moves allow. */
  function begin(state) {
    const found = find(state);
    if (found === null || found.card.disabled) return false;
    state.wasPicked = pickedCopy(found.hand, state.code) !== null;
    const before = found.hand.querySelector('[data-action="select"][aria-pressed="true"]');
    state.before = before ? before.dataset.card : null;  // the card picked before, if another
    if (!state.wasPicked) found.card.click();
    const now = find(state);
    if (now === null || pickedCopy(now.hand, state.code) === null) return false;
    state.card = now.card;
    const colour = CSS.escape(state.code.charAt(0));
    const targets = [];
    if (actionButton("play")) {
      const player = CSS.escape(state.player);
      const zone = document.querySelector(
        `#screen [data-zone="expedition"][data-player="${player}"][data-colour="${colour}"]`);
      if (zone) targets.push({zone, action: "play"});
    }
    if (actionButton("discard")) {
      const zone = document.querySelector(`#screen [data-zone="discard"][data-colour="${colour}"]`);
      if (zone) targets.push({zone, action: "discard"});
    }
    for (const target of targets) target.zone.classList.add("drop-target");
    state.targets = targets;
    state.card.classList.add("dragging");
    state.started = true;
    return true;
  }

  function targetAt(state, x, y) {
    return state.targets.find((target) => {
      const box = target.zone.getBoundingClientRect();
      return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
    }) ?? null;
  }

  function onMove(event) {
    const state = drag;
    if (state === null || event.pointerId !== state.id) return;
    const dx = event.clientX - state.x;
    const dy = event.clientY - state.y;
    if (!state.started) {
      if (Math.hypot(dx, dy) < (THRESHOLD[event.pointerType] ?? THRESHOLD.mouse)) return;
      if (!begin(state)) {
        finish();
        return;
      }
    }
    state.dx = dx;
    state.dy = dy;
    state.card.style.translate = `${dx}px ${dy}px`;
    const over = targetAt(state, event.clientX, event.clientY);
    for (const target of state.targets) target.zone.classList.toggle("drop-over", target === over);
  }

  /** The card back in its place (moving there from where it was dropped). */
  function putBack(card, dx, dy) {
    card.style.removeProperty("translate");
    if (!card.isConnected || reduced.matches || (dx === 0 && dy === 0)) return;
    card.animate([{translate: `${dx}px ${dy}px`}, {translate: "0px 0px"}],
                 {duration: 150, easing: "ease-out"});
  }

  /** Swallow the click the browser may send after the drag (until the next press or key). */
  function swallowClick() {
    const swallow = (event) => {
      event.preventDefault();
      event.stopImmediatePropagation();
      stop();
    };
    const stop = () => {
      removeEventListener("click", swallow, true);
      removeEventListener("pointerdown", stop, true);
      removeEventListener("keydown", stop, true);
      clearTimeout(timer);
    };
    const timer = setTimeout(stop, 1000);
    addEventListener("click", swallow, true);
    addEventListener("pointerdown", stop, true);
    addEventListener("keydown", stop, true);
  }

  function onEnd(event) {
    const state = drag;
    if (state === null || event.pointerId !== state.id) return;
    finish();
    if (!state.started) return;  // a tap: its click follows as usual
    drop(state, event);
    swallowClick();  // after the drop's own clicks
  }

  /** Play or discard the card if dropped on a lit target, else put it back as it was. */
  function drop(state, event) {
    for (const target of state.targets) target.zone.classList.remove("drop-target", "drop-over");
    const card = state.card;
    card.classList.remove("dragging");
    const target = event.type === "pointerup" && card.isConnected
      ? targetAt(state, event.clientX, event.clientY) : null;
    const button = target && actionButton(target.action);
    if (button) {
      // where the card was dropped: static/motion.js flies it from there
      card.dataset.dragX = String(state.dx);
      card.dataset.dragY = String(state.dy);
      button.click();
      if (!card.isConnected) return;  // played or discarded
      delete card.dataset.dragX;
      delete card.dataset.dragY;
    }
    putBack(card, state.dx, state.dy);
    if (!state.wasPicked) {  // the drag picked it: pick again what was picked before, or none
      const found = find(state);
      const again = found && state.before && copies(found.hand, state.before)[0];
      const picked = found && pickedCopy(found.hand, state.code);
      if (again) again.click();
      else if (picked) picked.click();
    }
  }

  function finish() {
    drag = null;
    removeEventListener("pointermove", onMove, true);
    removeEventListener("pointerup", onEnd, true);
    removeEventListener("pointercancel", onEnd, true);
  }

  addEventListener("pointerdown", (event) => {
    if (drag !== null || !event.isPrimary || event.button !== 0) return;
    const card = event.target.closest ? event.target.closest(CARD) : null;
    if (card === null || card.disabled || !card.closest("#screen")) return;
    const hand = card.closest('[data-zone="hand"]');
    const code = card.dataset.card;
    drag = {
      id: event.pointerId, card, code, copy: copies(hand, code).indexOf(card),
      player: hand.dataset.player ?? "", x: event.clientX, y: event.clientY, dx: 0, dy: 0,
      started: false, wasPicked: false, before: null, targets: [],
    };
    addEventListener("pointermove", onMove, true);
    addEventListener("pointerup", onEnd, true);
    addEventListener("pointercancel", onEnd, true);
  }, true);
})();
