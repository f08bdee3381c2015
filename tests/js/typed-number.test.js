import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { load } from "./load.js";

const { typedNumber } = load("typed-number.js");

describe("a number typed in English (digits grouped with a comma)", () => {
  const english = typedNumber.groupedBy(",");

  it("reads an empty box as 0", () => {
    assert.equal(english.read("  "), 0);
  });

  it("reads digits with or without their groups", () => {
    assert.equal(english.read("1,215"), 1215);
    assert.equal(english.read("1215"), 1215);
    assert.equal(english.read("-40"), -40);
  });

  it("reads full-width digits as the server does", () => {
    assert.equal(english.read("１２０"), 120);
  });

  it("refuses what is no whole number", () => {
    for (const text of ["12,5", "1,2345", "twelve", "1.5", "1,,000"]) {
      assert.equal(english.read(text), null, text);
    }
  });

  it("writes points in groups of three, below 0 with a true minus", () => {
    assert.equal(english.write(4495), "4,495");
    assert.equal(english.write(-1200), "\u22121,200");
    assert.equal(english.write(85), "85");
  });
});

describe("a number typed in a language that groups digits with a space", () => {
  const spaced = typedNumber.groupedBy("\u00a0");

  it("takes any space between the groups", () => {
    assert.equal(spaced.read("1 215"), 1215);
    assert.equal(spaced.read("1\u00a0215"), 1215);
  });

  it("writes the language's own space", () => {
    assert.equal(spaced.write(12000), "12\u00a0000");
  });
});

describe("a number typed in a language that groups digits with a dot", () => {
  const dutch = typedNumber.groupedBy(".");

  it("reads the dot as a group, never as a decimal point", () => {
    assert.equal(dutch.read("1.215"), 1215);
    assert.equal(dutch.read("1.5"), null);
  });
});

describe("the page's numbers", () => {
  it("group digits with a comma where the page names no separator", () => {
    assert.equal(typedNumber.write(1000), "1,000");
  });
});
