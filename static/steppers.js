// The - and + buttons beside number fields. They stay hidden without this script, and the
// field takes typing either way. A step sends an "input" event so the live score follows.
"use strict";

(() => {
  // The next multiple of the step up or down: 763 goes to 765 with +5, not to 768.
  function stepped(value, step) {
    const size = Math.abs(step);
    const multiple = step > 0 ? Math.floor(value / size) + 1 : Math.ceil(value / size) - 1;
    return Math.max(0, multiple * size);
  }

  document.querySelectorAll("[data-stepper]").forEach((stepper) => {
    const input = stepper.querySelector("input");
    const [less, more] = stepper.querySelectorAll("[data-step]");
    [less, more].forEach((button) => {
      button.hidden = false;
      // Tab goes from box to box; the arrow keys step the box, as a spin button's do.
      button.tabIndex = -1;
      button.addEventListener("click", () => {
        const current = self.typedNumber.read(input.value) ?? 0; // "1,200" steps from 1200
        input.value = String(stepped(current, Number(button.dataset.step)));
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
    input.setAttribute("aria-keyshortcuts", "ArrowUp ArrowDown");
    input.addEventListener("keydown", (event) => {
      const button = { ArrowUp: more, ArrowDown: less }[event.key];
      if (button) {
        event.preventDefault();
        button.click();
      }
    });
  });
})();
