// What is typed into a round form stays on this phone as it is typed (localStorage), one draft
// per form: a round of a match, entered or corrected. Leaving the page, Back, a reload or a crash
// brings it back into its form, which says so. A draft remembers when it was typed and the
// version of the round it was typed over, so that a draft of a round that has changed since is
// never put back unseen: the form offers it instead. Saving, Cancel and throwing the draft away
// each remove it (round-drafts.js).
"use strict";

self.drafts = (() => {
  const PREFIX = "scorekeeper.draft.";

  // What becomes of a draft as its form opens.
  const PUT_BACK = "put-back"; // into the form, which says so
  const OFFERED = "offered"; // typed over a round that has changed since: put back if asked
  const NONE = "none";

  // The drafts kept in `storage`, the page's localStorage unless told. Storage may refuse
  // (private browsing): then no draft is kept, and the form works as it does without this script.
  function keptIn(storage = pageStorage()) {
    function read(name) {
      try {
        return asDraft(JSON.parse(storage.getItem(PREFIX + name)));
      } catch {
        return null;
      }
    }

    function write(name, draft) {
      try {
        storage.setItem(PREFIX + name, JSON.stringify(draft));
      } catch {
        // Not kept: the form still holds what is typed.
      }
    }

    function remove(name) {
      try {
        storage.removeItem(PREFIX + name);
      } catch {
        // Storage refused: there is no draft to remove.
      }
    }

    // Forget the drafts of a match that were sent: the server has them, or this phone's queue
    // of changes waiting to be sent.
    function forgetSent(match) {
      for (const name of namesOf(storage, `${PREFIX}${match}:`)) {
        if (read(name)?.sent) remove(name);
      }
    }

    return { read, write, remove, forgetSent };
  }

  function pageStorage() {
    try {
      return self.localStorage ?? null;
    } catch {
      return null; // refused outright
    }
  }

  function namesOf(storage, prefix) {
    try {
      const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
      return keys.filter((key) => key?.startsWith(prefix)).map((key) => key.slice(PREFIX.length));
    } catch {
      return [];
    }
  }

  // A draft as read back, or null for what is none. A draft kept by an older release knows
  // neither its time nor its round's version: it is offered, as typed when first read again.
  function asDraft(kept) {
    if (typeof kept?.values !== "object" || kept.values === null) return null;
    const { values, over = null, typedAt = Date.now(), sent = false } = kept;
    return { values, over, typedAt, sent: Boolean(sent) };
  }

  // A draft of `values`, typed now over the round at version `over` ("" for a round not entered).
  function typed(values, over, { sent = false, at = Date.now() } = {}) {
    return { values, over, typedAt: at, sent };
  }

  // What becomes of `draft` as its form opens `fresh` (as the server drew it) over the round
  // at version `over`. A form the server answered a save with holds what was sent: it is the
  // draft now, and no other is put back into it.
  function fate(draft, { fresh, over }) {
    if (!draft || !fresh) return NONE;
    return draft.over === over ? PUT_BACK : OFFERED;
  }

  // Only what the table types is kept: never the form's token, operation id or version.
  const typedInto = (field) =>
    field.name && !["hidden", "submit", "button", "reset"].includes(field.type);
  const isChoice = (field) => field.type === "radio" || field.type === "checkbox";

  // What the fields of a form hold, as a draft keeps it: each box's text, each group of radio
  // buttons by its choice.
  function valuesOf(fields) {
    return Object.fromEntries(
      fields
        .filter((field) => typedInto(field) && (!isChoice(field) || field.checked))
        .map((field) => [field.name, field.value]),
    );
  }

  // Put `values` into the fields; a group with no choice kept has none.
  function fill(fields, values) {
    for (const field of fields.filter(typedInto)) {
      const value = Object.hasOwn(values, field.name) ? values[field.name] : null;
      if (isChoice(field)) field.checked = value === field.value;
      else if (value !== null) field.value = value;
    }
  }

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  return { PUT_BACK, OFFERED, NONE, keptIn, typed, fate, valuesOf, fill, same };
})();
