// Copy buttons for the share links; without this script the link can still be selected.
"use strict";

document.querySelectorAll("[data-copy]").forEach((button) => {
  const input = document.getElementById(button.dataset.copy);
  const label = button.textContent;
  button.hidden = false;
  button.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      document.execCommand("copy"); // the clipboard API needs HTTPS; a LAN address may lack it
    }
    button.textContent = button.dataset.copied;
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
});
