// What is typed into a round form stays on this phone (localStorage) as it is typed, one draft
// per match and round: leaving the page, Back, a reload or a crash brings it back. A draft goes
// once the round it was sent as is stored (queued-rounds.js, on the standings), or when Cancel
// throws it away, which asks first. A queued round the server refused comes back in place of
// its form, as the server answered it: with its messages and everything typed.
"use strict";

(() => {
  const form = document.querySelector("form[data-draft]");
  if (!form) return;
  const key = `scorekeeper.draft.${form.dataset.draft}`;
  const fields = () => [...form.elements].filter((field) => field.name && keeps(field));
  const initial = snapshot();

  // Only what the table types: never the form's token, operation id or version.
  function keeps(field) {
    return field.type !== "hidden" && field.type !== "submit" && field.type !== "button";
  }

  function snapshot() {
    return Object.fromEntries(
      fields()
        .filter((field) => (field.type !== "radio" && field.type !== "checkbox") || field.checked)
        .map((field) => [field.name, field.value]),
    );
  }

  function read() {
    try {
      return JSON.parse(localStorage.getItem(key));
    } catch {
      return null;
    }
  }

  function write(draft) {
    try {
      if (draft) localStorage.setItem(key, JSON.stringify(draft));
      else localStorage.removeItem(key);
    } catch {
      // Storage refused (private browsing): the form works as without this script.
    }
  }

  function restore(values) {
    for (const field of fields()) {
      if (!(field.name in values)) {
        if (field.type === "radio" || field.type === "checkbox") field.checked = false;
        continue;
      }
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = values[field.name] === field.value;
      } else {
        field.value = values[field.name];
      }
    }
    form.dispatchEvent(new Event("input", { bubbles: true })); // the live score follows
  }

  const changed = () => JSON.stringify(snapshot()) !== JSON.stringify(initial);

  // A page the server answered a save with holds what was sent: it is the draft now.
  const draft = read();
  if (form.dataset.formState === "fresh" && draft && !draft.sent) restore(draft.values);
  else if (form.dataset.formState !== "fresh") write({ values: snapshot(), sent: false });

  form.addEventListener("input", () => write({ values: snapshot(), sent: false }));
  form.addEventListener("change", () => write({ values: snapshot(), sent: false }));
  form.addEventListener("submit", () => write({ values: snapshot(), sent: true }));

  const cancel = document.querySelector("[data-cancel]");
  cancel?.addEventListener("click", (event) => {
    if ((changed() || read()?.values) && !window.confirm(cancel.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    write(null);
  });

  // A queued round that the server refused: its answer replaces the form it came from.
  self.roundQueue?.all().then((queued) => {
    const refused = queued.find(
      (round) => round.state === roundQueue.REFUSED && new URL(round.url).pathname === location.pathname,
    );
    if (!refused) return;
    roundQueue.remove(refused.operation).then(() => {
      document.open();
      document.write(refused.page);
      document.close();
    });
  });
})();
