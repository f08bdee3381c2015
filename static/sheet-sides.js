// The blank score sheet's name boxes: as many as the sides chosen. Without this script all six
// show, and names typed past the sides chosen add columns of their own.
"use strict";

(() => {
  const columns = document.querySelector("[data-columns]");
  if (!columns) return;
  const boxes = [...document.querySelectorAll("[data-side-name]")];

  function showChosen() {
    const chosen = Number(columns.querySelector("input:checked")?.value ?? boxes.length);
    boxes.forEach((box, index) => {
      box.hidden = index >= chosen;
      box.querySelector("input").disabled = box.hidden; // a hidden name is not sent
    });
  }

  columns.addEventListener("change", showChosen);
  showChosen();
})();
