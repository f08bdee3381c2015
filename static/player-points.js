// Each partner counts their own hand and foot: as their points are typed in the round form, the
// side's box of left-over points shows what they add up to, and the live score follows it.
// Without this script the side's box may be left empty, and saving adds the players' points up.
"use strict";

(() => {
  document.querySelectorAll("[data-per-player]").forEach((players) => {
    const side = players.closest(".cards-points").querySelector("input[name$='leftover_points']");
    const boxes = [...players.querySelectorAll("input")];
    let written = null; // the sum this script last put in the side's box

    function added() {
      const points = boxes.map((box) => self.typedNumber.read(box.value));
      const typed = boxes.some((box) => box.value.trim() !== "");
      if (!typed || points.includes(null)) return null;
      return points.reduce((sum, value) => sum + value, 0);
    }

    // What saving refused and the live score's engine never sees stays beside its box until
    // it is put right: a player's points below 0, players' points at odds with their side's.
    function keep(box, kept) {
      if (kept) box.dataset.keepErrors = "";
      else delete box.dataset.keepErrors;
    }

    function judge() {
      boxes.forEach((box) => keep(box, (self.typedNumber.read(box.value) ?? 0) < 0));
      const sum = added();
      const own = side.value.trim() === "" ? null : self.typedNumber.read(side.value);
      keep(side, sum !== null && own !== null && sum !== own);
    }

    players.addEventListener("input", (event) => {
      if (!boxes.includes(event.target)) return;
      const sum = added();
      const typed = boxes.some((box) => box.value.trim() !== "");
      if (typed && sum === null) return; // a box holds no number: it says so itself
      if (!typed && side.value !== written) return; // the side's own figure: left as typed
      written = typed ? String(sum) : "";
      side.value = written;
      side.dispatchEvent(new Event("input", { bubbles: true }));
    });
    side.addEventListener("input", judge);
    players.addEventListener("input", judge);
    judge(); // as the page came back from saving
  });
})();
