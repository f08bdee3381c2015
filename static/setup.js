// The set-up form: when the preset changes, each house rule shows that preset's value and is
// marked "changed" when what was typed differs; team names show the name they get if left empty,
// and the choice of who deals first names the players as they are typed.
"use strict";

(() => {
  const form = document.querySelector("[data-setup]");
  if (!form) return;
  const houseRules = form.querySelector("[data-preset-values]");
  const presets = JSON.parse(houseRules.dataset.presetValues);
  const teams = form.querySelector("[data-seatings]");
  const seatings = JSON.parse(teams.dataset.seatings); // key -> [teams or null, players a team]

  // "50,90, 120" and "50, 90, 120" are the same list of minimums.
  const normal = (text) => text.split(/[\s,;]+/).filter(Boolean).join(",");

  function showPresetValues() {
    const values = presets[form.elements.preset.value];
    if (!values) return;
    for (const row of houseRules.querySelectorAll("[data-house-rule]")) {
      const preset = values[row.dataset.houseRule];
      const field = row.querySelector("input, select");
      row.querySelector("[data-preset-text]").textContent = preset.text;
      if (field.tagName === "INPUT") field.placeholder = preset.value;
      const changed = field.value !== "" && normal(field.value) !== normal(preset.value);
      row.classList.toggle("is-changed", changed);
    }
  }

  function showTeamNames() {
    const [count, size] = seatings[form.elements.seating.value] || [0, 1];
    const players = [...form.querySelectorAll("[name^='players-']")]
      .map((input) => input.value.trim())
      .filter(Boolean);
    teams.querySelectorAll("[data-team]").forEach((team, index) => {
      team.hidden = index >= count;
      const names = players.slice(index * size, (index + 1) * size).join(teams.dataset.joiner);
      team.querySelector("input").placeholder = names;
      teamPlayers(team).textContent = names ? ` (${names})` : "";
    });
  }

  // Who is in a team, in its label: the box's placeholder says so only while it is empty, and
  // a team named before its players are checked is easily named for the wrong pair.
  function teamPlayers(team) {
    const label = team.querySelector("label");
    let players = label.querySelector(".team-players");
    if (!players) {
      players = document.createElement("span");
      players.className = "team-players";
      label.append(players);
    }
    return players;
  }

  // Who deals first: each player by the name typed in their box, else as the box is labelled.
  function showDealerNames() {
    [...form.elements.first_dealer.options].forEach((option, box) => {
      const name = form.elements[`players-${box}`]?.value.trim();
      option.textContent = name || option.dataset.label;
    });
  }

  function update() {
    showPresetValues();
    showTeamNames();
    showDealerNames();
  }

  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();
