import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { load } from "./load.js";

const { drafts } = load("drafts.js");

// localStorage as a browser has it, or one that refuses everything (private browsing).
class Storage {
  items = new Map();
  get length() {
    return this.items.size;
  }
  key(index) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key) {
    return this.items.get(key) ?? null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}

class RefusingStorage {
  get length() {
    throw new Error("SecurityError");
  }
  getItem() {
    throw new Error("SecurityError");
  }
  setItem() {
    throw new Error("QuotaExceededError");
  }
  removeItem() {
    throw new Error("SecurityError");
  }
}

// The fields of a round form, as the page's form.elements holds them.
function roundForm() {
  return [
    { name: "csrf_token", type: "hidden", value: "t0k" },
    { name: "version", type: "hidden", value: "7" },
    { name: "went_out", type: "radio", value: "0", checked: false },
    { name: "went_out", type: "radio", value: "1", checked: true },
    { name: "sides-0-clean_books", type: "text", value: "2" },
    { name: "sides-1-leftover_points", type: "text", value: "85" },
    { name: "", type: "submit", value: "" },
  ];
}

describe("what a draft keeps of a form", () => {
  it("keeps what the table types, and the choice of each group of radio buttons", () => {
    assert.deepEqual(drafts.valuesOf(roundForm()), {
      went_out: "1",
      "sides-0-clean_books": "2",
      "sides-1-leftover_points": "85",
    });
  });

  it("puts it back: each box's text and each group's choice", () => {
    const fields = roundForm();

    drafts.fill(fields, { went_out: "0", "sides-1-leftover_points": "130" });

    assert.deepEqual(drafts.valuesOf(fields), {
      went_out: "0",
      "sides-0-clean_books": "2",
      "sides-1-leftover_points": "130",
    });
    assert.equal(fields[1].value, "7", "the version is the server's, never a draft's");
  });

  it("puts back no choice where none was made", () => {
    const fields = roundForm();

    drafts.fill(fields, {});

    assert.equal(drafts.valuesOf(fields).went_out, undefined);
  });
});

describe("a draft as its form opens", () => {
  const draft = drafts.typed({ went_out: "1" }, "7", { at: 0 });

  it("is put back into the form drawn over the round it was typed over", () => {
    assert.equal(drafts.fate(draft, { fresh: true, over: "7" }), drafts.PUT_BACK);
  });

  it("is offered, not put back, when the round has changed since", () => {
    assert.equal(drafts.fate(draft, { fresh: true, over: "8" }), drafts.OFFERED);
  });

  it("of a new round is put back while the round is still not entered", () => {
    const typedNew = drafts.typed({}, "", { at: 0 });

    assert.equal(drafts.fate(typedNew, { fresh: true, over: "" }), drafts.PUT_BACK);
  });

  it("is never put into a form that answered a save: it holds what was sent", () => {
    assert.equal(drafts.fate(draft, { fresh: false, over: "7" }), drafts.NONE);
  });

  it("is nothing to do when there is none", () => {
    assert.equal(drafts.fate(null, { fresh: true, over: "7" }), drafts.NONE);
  });
});

describe("drafts kept on the phone", () => {
  it("come back as they were written, with their time and the round's version", () => {
    const kept = drafts.keptIn(new Storage());

    kept.write("Mx7:1:edit", drafts.typed({ a: "1" }, "3", { at: 1000 }));

    assert.deepEqual(kept.read("Mx7:1:edit"), {
      values: { a: "1" },
      over: "3",
      typedAt: 1000,
      sent: false,
    });
  });

  it("go when removed", () => {
    const kept = drafts.keptIn(new Storage());
    kept.write("Mx7:1:new", drafts.typed({}, ""));

    kept.remove("Mx7:1:new");

    assert.equal(kept.read("Mx7:1:new"), null);
  });

  it("go once sent, for the match whose standings show, and no others", () => {
    const kept = drafts.keptIn(new Storage());
    kept.write("Mx7:1:new", drafts.typed({}, "", { sent: true }));
    kept.write("Mx7:2:new", drafts.typed({}, ""));
    kept.write("Zq2:1:new", drafts.typed({}, "", { sent: true }));

    kept.forgetSent("Mx7");

    assert.equal(kept.read("Mx7:1:new"), null);
    assert.notEqual(kept.read("Mx7:2:new"), null, "typed and left, not sent: it stays");
    assert.notEqual(kept.read("Zq2:1:new"), null);
  });

  it("kept by an older release, without a time or a version, are offered, never put back", () => {
    const storage = new Storage();
    storage.setItem("scorekeeper.draft.Mx7:1:edit", JSON.stringify({ values: { a: "1" }, sent: false }));

    const draft = drafts.keptIn(storage).read("Mx7:1:edit");

    assert.equal(drafts.fate(draft, { fresh: true, over: "3" }), drafts.OFFERED);
    assert.equal(typeof draft.typedAt, "number");
  });

  it("are none where storage refuses, and the form goes on without them", () => {
    const kept = drafts.keptIn(new RefusingStorage());

    kept.write("Mx7:1:new", drafts.typed({}, ""));
    kept.forgetSent("Mx7");
    kept.remove("Mx7:1:new");

    assert.equal(kept.read("Mx7:1:new"), null);
  });

  it("are none where the page has no storage", () => {
    const kept = drafts.keptIn(null);

    kept.write("Mx7:1:new", drafts.typed({}, ""));

    assert.equal(kept.read("Mx7:1:new"), null);
  });

  it("are none where what is stored is no draft", () => {
    const storage = new Storage();
    storage.setItem("scorekeeper.draft.a", "{not json");
    storage.setItem("scorekeeper.draft.b", JSON.stringify({ values: null }));
    storage.setItem("scorekeeper.draft.c", "7");

    const kept = drafts.keptIn(storage);

    assert.deepEqual(["a", "b", "c"].map(kept.read), [null, null, null]);
  });
});
