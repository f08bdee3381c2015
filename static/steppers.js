// The - and + buttons beside number fields. They stay hidden without this script, and the
// field takes typing either way. A step sends an "input" event so the live score follows.
"use strict";

document.querySelectorAll("[data-stepper]").forEach((stepper) => {
  const input = stepper.querySelector("input");
  stepper.querySelectorAll("[data-step]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      const current = Number.parseInt(input.value, 10) || 0;
      input.value = String(Math.max(0, current + Number(button.dataset.step)));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });
});
