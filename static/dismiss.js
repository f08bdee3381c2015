// The button that hides a message stuck at the top of the page; without this script the message
// simply stays.
"use strict";

document.querySelectorAll("[data-dismiss]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => {
    button.closest(".flash").hidden = true;
  });
});
