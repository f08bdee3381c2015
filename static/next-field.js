// Enter in a box of the round form moves on to the next box, as a pen moves down a paper
// sheet, instead of saving a round half typed in; from the last box it moves to the save
// button, which Enter then presses. Without this script Enter saves, as in any form.
"use strict";

(() => {
  const STOPS = "input:not([type=hidden]):not([disabled]), select:not([disabled]), [type=submit]";

  // The boxes Tab would stop at, in order: shown, and one per group of radio buttons.
  function stops(form) {
    return [...form.querySelectorAll(STOPS)].filter(
      (stop) =>
        stop.tabIndex >= 0 &&
        stop.getClientRects().length > 0 &&
        (stop.type !== "radio" || stop === chosenOfGroup(form, stop)),
    );
  }

  function chosenOfGroup(form, radio) {
    const group = [...form.elements].filter((other) => other.name === radio.name);
    return group.find((other) => other.checked) || group[0];
  }

  document.querySelectorAll("form[data-enter-moves-on]").forEach((form) => {
    form.querySelectorAll("input:not([type=hidden])").forEach((input) => {
      input.enterKeyHint = "next"; // the phone keyboard's Enter key reads "Next"
    });
    form.addEventListener("keydown", (event) => {
      const from = event.target;
      if (event.key !== "Enter" || event.isComposing || !(from instanceof HTMLInputElement)) {
        return;
      }
      event.preventDefault();
      const order = stops(form);
      const here = order.indexOf(from.type === "radio" ? chosenOfGroup(form, from) : from);
      const next = order[here + 1] || form.querySelector("[type=submit]");
      next.focus();
      if (next instanceof HTMLInputElement && next.type !== "radio") next.select();
    });
  });
})();
