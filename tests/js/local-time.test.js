import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { load } from "./load.js";

const { localTime } = load("local-time.js");
const EVENING = new Date(2026, 11, 7, 22, 42);
// ICU's versions space a time from its AM or PM differently: any space will do.
const spaced = (text) => text.replace(/\s/g, " ");

describe("a moment this phone kept something at", () => {
  it("is its time of day when it was today", () => {
    assert.equal(spaced(localTime(EVENING.getTime(), "en", new Date(2026, 11, 7, 23, 5))), "10:42 PM");
  });

  it("is its day and time when it was another day", () => {
    const nextDay = new Date(2026, 11, 8, 9, 0);

    assert.equal(spaced(localTime(EVENING, "en", nextDay)), "Dec 7, 2026, 10:42 PM");
  });

  it("is written as the page's language writes it", () => {
    assert.equal(localTime(EVENING, "nl", new Date(2026, 11, 7, 23, 0)), "22:42");
  });
});
