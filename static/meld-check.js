// The meld checker answers as cards are typed, as the round form does: the melds entered go to
// the calculator API (POST /api/v1/meld-check, with the match's rules, the round and the chosen
// side's running score), and the page shows its verdict and each meld's points and problems in
// place. Without this script the Check button reloads the page with the same answer.
"use strict";

(() => {
  const form = document.querySelector("[data-meld-check]");
  if (!form) return;
  const DELAY_MS = 250;
  const rules = JSON.parse(form.dataset.rules);
  const running = JSON.parse(form.dataset.running); // each side's score before the round
  const texts = JSON.parse(form.dataset.texts); // what the page says, "{points}" to fill in
  const rows = [...form.querySelectorAll("[data-meld-row]")];
  const verdict = document.querySelector("[data-verdict]");
  const COUNTS = ["naturals", "twos", "jokers"];
  // A rank the API knows as none: a row left empty above a meld is sent as one, so that the
  // API, which numbers melds by their place, names each meld by its row as the page does. It
  // is no legal meld, and counts nothing.
  const NO_MELD = { rank: "", naturals: 0, twos: 0, jokers: 0 };
  let timer = null;
  let pending = null;
  let answered = false; // whether the page shows this script's answers, not the server's

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, (_whole, key) => self.typedNumber.write(values[key]));
  }

  function read(row) {
    const select = row.querySelector("select");
    const boxes = COUNTS.map((count) => row.querySelector(`input[name$='-${count}']`));
    const counts = boxes.map((box) => self.typedNumber.read(box.value));
    return { select, rank: select.value, boxes, counts };
  }

  // A list of messages under a field or a row, made here and known by its id.
  function showList(parent, id, messages) {
    let list = document.getElementById(id);
    if (!messages.length) {
      list?.remove();
      return null;
    }
    if (!list) {
      list = document.createElement("ul");
      list.className = "field-errors";
      list.id = id;
      list.dataset.live = "";
      parent.append(list);
    }
    list.replaceChildren(
      ...messages.map((message) => {
        const item = document.createElement("li");
        item.textContent = message;
        return item;
      }),
    );
    return list;
  }

  // Beside a box or a rank: what keeps the row from being checked, told as the server tells it.
  function markField(field, suffix, message) {
    const id = `${field.id}-${suffix}`;
    const list = showList(field.closest(".field"), id, message ? [message] : []);
    const described = (field.getAttribute("aria-describedby") || "").split(" ");
    const others = described.filter((name) => name && name !== id);
    if (list) others.push(id);
    if (others.length) field.setAttribute("aria-describedby", others.join(" "));
    else field.removeAttribute("aria-describedby");
    if (list) field.setAttribute("aria-invalid", "true");
    else field.removeAttribute("aria-invalid");
  }

  // The answers of the page as it was loaded (a check sent with the Check button) give way to
  // this script's own, once something is typed.
  function forgetServerAnswers() {
    if (answered) return;
    answered = true;
    form.querySelectorAll(".field-errors:not([data-live]), .meld-points").forEach((element) => {
      element.remove();
    });
    form.querySelectorAll("[aria-invalid]").forEach((field) => {
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
    });
  }

  function showRow(row, index, result) {
    let points = row.querySelector(".meld-points");
    if (result && !points) {
      points = document.createElement("p");
      points.className = "meld-points";
      row.append(points);
    }
    if (result) {
      const text = result.valid ? texts.points : texts.not_counted;
      points.textContent = fill(text, { points: result.points });
    } else {
      points?.remove();
    }
    showList(row, `meld_${index}-problems`, result ? result.problems : []);
    row.classList.toggle("has-error", Boolean(result && !result.valid));
  }

  function showVerdict(result, entered) {
    if (!result) {
      verdict.hidden = true;
      verdict.replaceChildren();
      return;
    }
    const legal = entered.every((index) => result.melds[index].valid);
    const values = { points: result.points, minimum: result.minimum, short: result.short_by };
    let text = texts.short;
    if (legal && result.short_by === 0) text = texts.meets;
    else if (!legal && result.short_by && result.points) text = texts.illegal_short;
    else if (!legal) text = texts.illegal;
    const headline = document.createElement("p");
    headline.className = "result-headline";
    headline.textContent = fill(text, values);
    verdict.replaceChildren(headline);
    verdict.classList.toggle("is-met", text === texts.meets);
    verdict.classList.toggle("is-short", text !== texts.meets);
    verdict.hidden = false;
  }

  function clear() {
    pending?.abort();
    rows.forEach((row, index) => showRow(row, index, null));
    showVerdict(null, []);
  }

  async function update() {
    forgetServerAnswers();
    const melds = rows.map(read);
    let ready = true;
    melds.forEach(({ select, rank, boxes, counts }) => {
      boxes.forEach((box, at) => {
        markField(box, "unreadable", counts[at] === null ? texts.not_a_number : null);
      });
      const unranked = rank === "" && counts.some((count) => count);
      markField(select, "unranked", unranked ? texts.no_rank : null);
      if (counts.includes(null) || unranked) ready = false;
    });
    // A row is a meld once it has a rank and cards: a rank chosen waits for its cards.
    const entered = melds
      .map(({ rank, counts }, index) => (rank !== "" && counts.some((count) => count) ? index : -1))
      .filter((index) => index >= 0);
    if (!ready || !entered.length) {
      clear();
      return;
    }
    const sent = melds.slice(0, entered.at(-1) + 1).map(({ rank, counts }, index) => {
      if (!entered.includes(index)) return NO_MELD;
      const [naturals, twos, jokers] = counts;
      return { rank, naturals, twos, jokers };
    });
    const side = Number(form.elements.side.value || 0);
    pending?.abort(); // an answer still on its way is about melds changed since
    pending = new AbortController();
    const body = { rules, round: Number(form.dataset.round), running_score: running[side] ?? 0 };
    try {
      const response = await fetch(form.dataset.checkUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ ...body, melds: sent }),
        signal: pending.signal,
      });
      if (!response.ok) return; // the Check button still asks the page
      const result = await response.json();
      rows.forEach((row, index) => {
        showRow(row, index, entered.includes(index) ? result.melds[index] : null);
      });
      showVerdict(result, entered);
    } catch (error) {
      if (error.name !== "AbortError") clear(); // offline: the Check button still works
    }
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(update, DELAY_MS);
  }

  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
