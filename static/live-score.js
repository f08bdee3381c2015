// The live score of the round form: as numbers are typed, the round goes to the calculator API
// (POST /api/v1/score, with the match's rules) and each side's card shows its score and
// breakdown, or what the engine refuses. The form still saves and checks everything without it.
// Offline it says so and shows no score: the rules are the server's alone.
"use strict";

(() => {
  const form = document.querySelector("[data-live-score]");
  if (!form) return;
  const DELAY_MS = 250;
  const rules = JSON.parse(form.dataset.rules);
  const COUNTS = form.dataset.countsMode; // the way of counting cards by kind, as the form names it
  const cards = [...form.querySelectorAll("[data-side]")];
  const roundProblems = form.querySelector("[data-problems-round]");
  const offline = form.querySelector("[data-live-offline]");
  const numbers = [...form.querySelectorAll("[data-side] input:not([type='radio'])")];
  let timer = null;
  let pending = null;
  // Cards counted by kind are judged once their counts are all in: while a box of a side's
  // counts is typed in, and some box of the same counts is still empty, the side's problems
  // wait (its score shows "–" meanwhile), so that no red comes and goes between one kind and
  // the next. Leaving those boxes, or filling the last of them, lets them show; saving judges
  // everything as it is.
  const counting = new Set(); // the groups of counts being typed in ([data-cards])

  // An empty field counts as 0; anything but a whole number, signed or not, is no number and
  // says so, as the server reads it (a negative number is the engine's to refuse).
  function wholeNumber(input) {
    return self.typedNumber.read(input.value);
  }

  // What a side's field holds for the engine: a field that holds no number is read as empty,
  // as the server reads it to tell every other problem at once.
  function entered(input) {
    return wholeNumber(input) ?? 0;
  }

  // Next to a field that holds no whole number, the message the server gives on saving,
  // unless the page came back from saving with it.
  function markUnreadable(input, unreadable) {
    const id = `${input.id}-unreadable`;
    const shown = document.getElementById(id);
    if (unreadable === Boolean(shown) || (unreadable && saidOnSaving(input))) return;
    const described = (input.getAttribute("aria-describedby") || "").split(" ");
    const others = described.filter((name) => name && name !== id);
    if (unreadable) {
      const list = document.createElement("ul");
      list.className = "field-errors";
      list.id = id;
      const item = document.createElement("li");
      item.textContent = form.dataset.notANumber;
      list.append(item);
      input.closest(".field").append(list);
      others.push(id);
    } else {
      shown.remove();
    }
    markInvalid(input, "unreadable", unreadable);
    if (others.length) input.setAttribute("aria-describedby", others.join(" "));
    else input.removeAttribute("aria-describedby");
  }

  // A box is invalid to a screen reader while any of three marks it: the server's answer to
  // the save the page came back from, the check that it holds a number, and the live score's
  // problems. Each mark comes and goes on its own.
  const MARKS = ["onSaving", "unreadable", "questioned"];
  numbers.forEach((input) => {
    if (input.getAttribute("aria-invalid") === "true") input.dataset.onSaving = "";
  });

  function markInvalid(input, mark, on) {
    if (on) input.dataset[mark] = "";
    else delete input.dataset[mark];
    if (MARKS.some((each) => each in input.dataset)) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  function saidOnSaving(input) {
    const errors = document.getElementById(`${input.id}-errors`);
    return Boolean(errors?.textContent.includes(form.dataset.notANumber));
  }

  function sideEntry(card, index) {
    const prefix = `sides-${index}-`;
    const side = {
      name: card.dataset.name,
      running_score: Number(card.dataset.running),
      went_out: form.elements.went_out.value === String(index),
    };
    const modes = {};
    for (const input of card.querySelectorAll(`input[name^='${prefix}']`)) {
      // Each player's left-over points add up in the side's box, which is what goes.
      if (input.closest("[data-per-player]")) continue;
      const key = input.name.slice(prefix.length);
      if (input.type === "radio") {
        if (input.checked) modes[key.replace(/_mode$/, "")] = input.value;
      } else {
        const value = entered(input);
        const [group, kind] = key.split("-"); // "melded-jokers": a count of one kind of card
        if (kind) side[group] = { ...side[group], [kind]: value };
        else side[key] = value;
      }
    }
    for (const group of ["melded", "leftover"]) {
      if (modes[group] === COUNTS) delete side[`${group}_points`];
      else delete side[group];
    }
    return side;
  }

  function listProblems(list, messages) {
    list.replaceChildren(
      ...messages.map((message) => {
        const item = document.createElement("li");
        item.textContent = message;
        return item;
      }),
    );
    list.hidden = messages.length === 0;
  }

  // A side's score and breakdown in its card, or "–" where it has none (null): a side with a
  // field that holds no number has none yet.
  function showScore(card, side, unreadable) {
    const known = Boolean(side) && !unreadable.some((input) => card.contains(input));
    for (const total of card.querySelectorAll("[data-total]")) {
      total.textContent = known ? self.typedNumber.write(side.score) : "–";
    }
    for (const part of card.querySelectorAll("[data-part]")) {
      const value = known ? side.breakdown[part.dataset.part] : 0;
      part.querySelector("[data-value]").textContent = self.typedNumber.write(value);
      part.hidden = value === 0;
    }
  }

  function showScores(result, unreadable) {
    cards.forEach((card, index) => {
      showScore(card, result.sides[index], unreadable);
      listProblems(card.querySelector("[data-problems]"), []);
    });
    listProblems(roundProblems, []);
    markQuestioned([]);
    clearSavedProblems(unreadable);
  }

  // Once the engine takes the round, what saving refused beside the fields is put right: those
  // messages go, and the note at the top stops pointing to them. Some stay: a box that still
  // holds no number keeps its own, and so do what the engine never sees, the choice of who went
  // out while none is made and what a script of the page marks data-keep-errors (players' points
  // at odds with their side's). The note's problems of the whole round stay: one may be a later
  // round's, which only saving checks.
  function clearSavedProblems(unreadable) {
    const kept = new Set(unreadable.map((input) => `${input.id}-errors`));
    if (form.elements.went_out.value === "") kept.add("went_out-errors");
    for (const element of form.querySelectorAll("[data-keep-errors]")) {
      kept.add(`${element.id}-errors`);
    }
    for (const errors of form.querySelectorAll(".field-errors")) {
      if (!errors.id.endsWith("-unreadable") && !kept.has(errors.id)) errors.remove();
    }
    for (const element of form.querySelectorAll("[aria-describedby]")) {
      const described = element.getAttribute("aria-describedby").split(" ");
      const present = described.filter((id) => id && document.getElementById(id));
      if (present.length) element.setAttribute("aria-describedby", present.join(" "));
      else element.removeAttribute("aria-describedby");
    }
    numbers.forEach((input) => {
      if (!kept.has(`${input.id}-errors`)) markInvalid(input, "onSaving", false);
    });
    // What saving refused, not what another phone did meanwhile, which stays said.
    const note = document.querySelector("[data-form-problems]");
    if (!note || unreadable.length || [...kept].some((id) => document.getElementById(id))) return;
    note.querySelector("a[href^='#']")?.closest("p")?.remove(); // "2 fields below say..."
    if (!note.querySelector("li")) note.remove();
  }

  // The fields a refused entry's problems name are marked where they are typed, as the
  // problems themselves are listed at the foot of each card, perhaps below the screen: outlined,
  // and their boxes invalid to a screen reader, as the server's own errors mark them.
  function markQuestioned(errors) {
    const named = new Set(errors.flatMap(fieldsOf));
    for (const element of form.querySelectorAll(".is-questioned")) {
      if (!named.has(element)) question(element, false);
    }
    for (const element of named) question(element, true);
  }

  function question(element, questioned) {
    element.classList.toggle("is-questioned", questioned);
    element.querySelectorAll("input[type='text']").forEach((box) => {
      markInvalid(box, "questioned", questioned);
    });
  }

  function fieldsOf(error) {
    const parts = [{ side: error.side, field: error.field }, ...(error.adds_up ?? [])];
    return parts.map(fieldOf).filter(Boolean);
  }

  // "melded_points" and "melded.jokers" are boxes; "melded" the group of a side's melded
  // cards; "went_out" the choice of who went out.
  function fieldOf({ side, field }) {
    if (side === null || !field) return null;
    const box = form.elements[`sides-${side}-${field.replace(".", "-")}`];
    if (box instanceof HTMLInputElement) return box.closest(".field");
    if (field === "went_out") return form.querySelector(".went-out");
    return cards[side]?.querySelector(`[data-cards='${field}']`) ?? null;
  }

  // While an entry is refused: the score of each side no problem concerns, the problems of the
  // others, but those the page already shows next to their fields, as it came back from saving,
  // and those of a side whose counts are still being typed in.
  function showProblems(found, sides, unreadable) {
    const errors = found.filter(
      (error) => !cards.some((_card, index) => waiting(index) && ofSide(error, index)),
    );
    cards.forEach((card, index) => {
      showScore(card, sides?.[index], unreadable);
      const shown = new Set([...card.querySelectorAll(".field-errors li")].map(textOf));
      const mine = errors.filter((error) => ofSide(error, index) && !shown.has(error.message));
      listProblems(card.querySelector("[data-problems]"), mine.map((error) => error.message));
    });
    // Below the cards: what no card told, as a problem of the whole table that names no field.
    const others = errors.filter((error) => !cards.some((_card, index) => ofSide(error, index)));
    listProblems(roundProblems, others.map((error) => error.message));
    markQuestioned(errors);
  }

  function countBoxes(group) {
    return [...group.querySelectorAll(".cards-counts input")];
  }

  function noteCounting(event) {
    const group = event.target.closest?.("[data-cards]");
    if (!group || !event.target.closest(".cards-counts")) return;
    if (countBoxes(group).every((box) => box.value.trim() !== "")) counting.delete(group);
    else counting.add(group);
  }

  function noteCountsLeft(event) {
    const group = event.target.closest?.("[data-cards]");
    if (!group || !counting.has(group) || group.contains(event.relatedTarget)) return;
    counting.delete(group);
    later();
  }

  function waiting(index) {
    return [...counting].some((group) => cards[index].contains(group));
  }

  // A problem of the whole table (more of a card than the decks hold) is also each adding side's.
  function ofSide(error, index) {
    return error.side === index || (error.adds_up ?? []).some((part) => part.side === index);
  }

  // A problem of a field read as empty because it holds no number is no problem of what was
  // typed, which the field's own message already answers; so the server judges on saving too.
  function aboutRead(unreadable) {
    const skipped = unreadable.map((input) => {
      const [, side, key] = input.name.match(/^sides-(\d+)-(.*)$/);
      return { side: Number(side), field: key.split("-")[0] }; // "melded-aces": the counts
    });
    return (error) =>
      !skipped.some(
        ({ side, field }) => error.side === side && (error.field || "").split(".")[0] === field,
      );
  }

  function textOf(element) {
    return element.textContent.trim();
  }

  async function update() {
    // A field hidden with the way of counting cards not chosen is not read: the server skips it.
    const unreadable = numbers.filter((input) => input.offsetParent && wholeNumber(input) === null);
    numbers.forEach((input) => markUnreadable(input, unreadable.includes(input)));
    pending?.abort(); // an answer still on its way is about numbers changed since
    const sides = cards.map(sideEntry);
    pending = new AbortController();
    const body = {
      rules,
      round: Number(form.dataset.round),
      side_players: JSON.parse(form.dataset.sidePlayers),
      sides,
    };
    try {
      const response = await fetch(form.dataset.scoreUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
        signal: pending.signal,
      });
      const result = await response.json();
      if (response.ok) showScores(result, unreadable);
      else if (response.status === 422) {
        showProblems(result.errors.filter(aboutRead(unreadable)), result.sides, unreadable);
      }
      offline.hidden = true;
    } catch (error) {
      if (error.name !== "AbortError") showOffline();
    }
  }

  // Without the calculator the score is unknown: no total stands, stale or guessed, and the
  // form says when it will be checked. Typing and saving go on (the save waits on the phone).
  function showOffline() {
    cards.forEach((card) => {
      showScore(card, null, []);
      listProblems(card.querySelector("[data-problems]"), []);
    });
    listProblems(roundProblems, []);
    offline.hidden = false;
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(update, DELAY_MS);
  }

  form.addEventListener("input", noteCounting);
  form.addEventListener("focusout", noteCountsLeft);
  form.addEventListener("input", later);
  form.addEventListener("change", later);
  window.addEventListener("online", later);
  window.addEventListener("offline", showOffline);
  update();
})();
