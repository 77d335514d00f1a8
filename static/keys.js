/* Arrow keys on the table: a second way to move the focus, beside Tab.

   - In the hand (`[data-zone="hand"]`), only one card is in the tab order (the page renders
     it with tabindex="0", the others "-1"); Left and Right (Up and Down too), Home and End
     move the focus between the enabled cards and take the tab order with it. Enter or Space
     picks the card, as a click does.
   - Among the piles (`.piles`: the discard piles and the deck), Left and Right move the focus
     between the piles one may draw from now.

   Nothing here decides a move: every key ends in the focus moving, and the page's own buttons
   do the rest. */
(() => {
  "use strict";

  const NEXT = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1};

  function target(event) {
    const element = event.target;
    if (!(element instanceof Element)) return null;
    const card = element.closest('#screen [data-zone="hand"] [data-action="select"]');
    if (card !== null) {
      return {element: card, group: [...card.parentElement.querySelectorAll(
        '[data-action="select"]:not([disabled])')], roving: true};
    }
    const pile = element.closest('#screen .piles [data-action="draw"]');
    if (pile !== null && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      return {element: pile, group: [...pile.closest(".piles").querySelectorAll(
        '[data-action="draw"]:not([disabled])')], roving: false};
    }
    return null;
  }

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (!(event.key in NEXT) && event.key !== "Home" && event.key !== "End") return;
    const found = target(event);
    if (found === null || found.group.length === 0) return;
    const {element, group, roving} = found;
    const at = group.indexOf(element);
    let index;
    if (event.key === "Home") index = 0;
    else if (event.key === "End") index = group.length - 1;
    else index = (Math.max(at, 0) + NEXT[event.key] + group.length) % group.length;
    const next = group[index];
    event.preventDefault();
    if (roving) {
      for (const card of group) card.setAttribute("tabindex", card === next ? "0" : "-1");
    }
    next.focus();
  });
})();
