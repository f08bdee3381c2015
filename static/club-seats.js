// A club's match: each seat offers the club's players in a list and a box for a new name under
// it. The box shows only while nobody is picked from the list, so that a table picking its
// regulars sees one control a seat; a name typed stays typed, and wins over the list.
"use strict";

document.querySelectorAll("[data-seat]").forEach((seat) => {
  const list = seat.querySelector("select");
  const typed = seat.querySelector("[data-new-player]");
  const update = () => {
    typed.hidden = list.value !== "" && typed.querySelector("input").value === "";
  };
  list.addEventListener("change", update);
  update();
});
