// A form whose button is marked data-submit-once sends once: a second tap while the first is on
// its way does nothing. The server refuses repeats too where it can (operation ids); this keeps
// a double tap from making a new edit link twice, which would lose the first new link.
"use strict";

document.querySelectorAll("[data-submit-once]").forEach((button) => {
  button.form.addEventListener("submit", () => {
    setTimeout(() => {
      button.disabled = true; // after the submit, so that the button's own value still goes
    });
  });
});

// Back to a page from the history: its buttons work again.
window.addEventListener("pageshow", () => {
  document.querySelectorAll("[data-submit-once]").forEach((button) => {
    button.disabled = false;
  });
});
