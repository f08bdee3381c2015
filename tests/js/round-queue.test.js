import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";

import { load } from "./load.js";
import { form, ORIGIN, page, phone, redirect, Server, STANDINGS } from "./phone.js";

// The server this phone talks to: it stores what the test lets it, and refuses the rest.
let refusing = new Set(); // operation ids the server refuses
let troubled = false; // the server answers 503
const server = new Server((request) => {
  if (troubled) return page("Busy", { status: 503 });
  const operation = request.headers.get("Idempotency-Key");
  if (refusing.has(operation)) return page(`<p>Refused ${operation}</p>`, { status: 422 });
  return redirect(STANDINGS);
});
phone(server);
const { roundQueue: queue } = load("round-queue.js");

const NEW_ROUND = `${STANDINGS}/rounds/new`;
const OTHER_MATCH = `${ORIGIN}/m/Zq2/edit/0ther/rounds/new`;

function newRound(round, operation) {
  return [NEW_ROUND, form({ round_number: String(round), operation })];
}

async function queued() {
  return (await queue.all()).map(({ operation, state }) => [operation, state]);
}

beforeEach(async () => {
  for (const kept of await queue.all()) await queue.remove(kept.operation);
  server.online = true;
  server.requests = [];
  refusing = new Set();
  troubled = false;
});

describe("a change to a round, as its address and form say", () => {
  it("names a new round by the round its form enters, and opens it by that number", () => {
    const change = queue.change(...newRound(2, "op-2"));

    assert.equal(change.match, "Mx7");
    assert.equal(change.round, 2);
    assert.equal(change.change, queue.NEW);
    assert.equal(change.operation, "op-2");
    assert.equal(change.standings, STANDINGS);
    assert.equal(change.form, `${STANDINGS}/rounds/new?round=2`);
  });

  it("names a correction by the round in its address, which its form need not carry", () => {
    const change = queue.change(`${STANDINGS}/rounds/3`, form({ round_number: "", operation: "c" }));

    assert.equal(change.round, 3);
    assert.equal(change.change, queue.CORRECTION);
    assert.equal(change.form, `${STANDINGS}/rounds/3`);
  });

  it("names a deletion, which opens where the round is edited", () => {
    const change = queue.change(`${STANDINGS}/rounds/4/delete`, form({ operation: "d" }));

    assert.equal(change.round, 4);
    assert.equal(change.change, queue.DELETION);
    assert.equal(change.form, `${STANDINGS}/rounds/4`);
  });

  it("is told apart from what changes no round", () => {
    assert.ok(queue.isChange(NEW_ROUND));
    assert.ok(queue.isChange(`${STANDINGS}/rounds/12/delete`));
    assert.ok(!queue.isChange(`${STANDINGS}/token`));
    assert.ok(!queue.isChange(`${ORIGIN}/m/new`));
  });
});

describe("keeping changes", () => {
  it("keeps them in the order saved", async () => {
    await queue.keep(...newRound(3, "three"));
    await queue.keep(...newRound(2, "two"));

    assert.deepEqual(await queued(), [
      ["three", queue.WAITING],
      ["two", queue.WAITING],
    ]);
  });

  it("keeps a repeat of the same form once", async () => {
    await queue.keep(...newRound(2, "two"));
    await queue.keep(...newRound(2, "two"));

    assert.equal((await queue.all()).length, 1);
  });

  it("keeps a form sent again before the server had it with what it holds now, in its place", async () => {
    await queue.keep(...newRound(2, "two"));
    await queue.keep(...newRound(3, "three"));
    const [url] = newRound(2, "two");

    await queue.keep(url, form({ round_number: "2", operation: "two", "sides-1-leftover_points": "45" }));

    const [first, second] = await queue.all();
    assert.equal(first.operation, "two");
    assert.match(first.body, /leftover_points=45/);
    assert.equal(second.operation, "three");
  });

  it("puts a refused change saved again in its own place, ahead of those behind it", async () => {
    refusing.add("two");
    await queue.keep(...newRound(2, "two"));
    await queue.keep(...newRound(3, "three"));
    await queue.sendAll();

    await queue.keep(...newRound(2, "two-corrected"));

    assert.deepEqual(await queued(), [
      ["two-corrected", queue.WAITING],
      ["three", queue.WAITING],
    ]);
  });

  it("takes a refused change saved again under the same operation id with what it holds now", async () => {
    refusing.add("two");
    await queue.keep(...newRound(2, "two"));
    await queue.sendAll();
    const [url] = newRound(2, "two");

    await queue.keep(url, form({ round_number: "2", operation: "two", "sides-0-clean_books": "3" }));

    const [kept] = await queue.all();
    assert.equal(kept.state, queue.WAITING);
    assert.match(kept.body, /clean_books=3/);
  });
});

describe("sending changes", () => {
  it("sends each with its operation id as its Idempotency-Key, and forgets it once stored", async () => {
    await queue.keep(...newRound(1, "one"));

    const answers = await queue.sendAll();

    assert.deepEqual(
      answers.map(({ operation, outcome }) => [operation, outcome]),
      [["one", queue.STORED]],
    );
    assert.equal(server.posted()[0].headers.get("Idempotency-Key"), "one");
    assert.equal(server.posted()[0].init.redirect, "manual");
    assert.deepEqual(await queued(), []);
  });

  it("sends a match's changes in the order they were saved", async () => {
    await queue.keep(...newRound(3, "three"));
    await queue.keep(...newRound(2, "two"));
    await queue.keep(`${STANDINGS}/rounds/2`, form({ operation: "fix-two" }));

    await queue.sendAll();

    const sent = server.posted().map((request) => request.headers.get("Idempotency-Key"));
    assert.deepEqual(sent, ["three", "two", "fix-two"]);
  });

  it("holds back a match's changes behind one the server refused, and no other match's", async () => {
    refusing.add("two");
    await queue.keep(...newRound(2, "two"));
    await queue.keep(...newRound(3, "three"));
    await queue.keep(OTHER_MATCH, form({ round_number: "1", operation: "elsewhere" }));

    await queue.sendAll();
    await queue.sendAll();

    const sent = server.posted().map((request) => request.headers.get("Idempotency-Key"));
    assert.deepEqual(sent, ["two", "elsewhere"]);
    const shown = queue.shown((await queue.all()).filter((kept) => kept.match === "Mx7"));
    assert.deepEqual(
      shown.map(({ operation, state, blocker }) => [operation, state, blocker?.round]),
      [
        ["two", queue.REFUSED, undefined],
        ["three", queue.BEHIND, 2],
      ],
    );
    assert.match((await queue.all())[0].page, /Refused two/);
  });

  it("sends what waited behind a refused change once it is thrown away", async () => {
    refusing.add("two");
    await queue.keep(...newRound(2, "two"));
    await queue.keep(...newRound(3, "three"));
    await queue.sendAll();

    await queue.remove("two");
    await queue.sendAll();

    assert.deepEqual(await queued(), []);
    assert.equal(server.posted().at(-1).headers.get("Idempotency-Key"), "three");
  });

  it("keeps every change while the server cannot be reached, and sends nothing after", async () => {
    await queue.keep(...newRound(1, "one"));
    await queue.keep(OTHER_MATCH, form({ round_number: "1", operation: "elsewhere" }));
    server.online = false;

    assert.deepEqual(await queue.sendAll(), []);
    assert.deepEqual(await queued(), [
      ["one", queue.WAITING],
      ["elsewhere", queue.WAITING],
    ]);
  });

  it("tries a change again later when the server is in trouble for a moment", async () => {
    await queue.keep(...newRound(1, "one"));
    troubled = true;

    await queue.sendAll();

    assert.deepEqual(await queued(), [["one", queue.WAITING]]);
  });
});

describe("a change saved from its form, with the server reachable", () => {
  it("waits when earlier changes of its match wait, wherever they are refused", async () => {
    refusing.add("two");
    await queue.keep(...newRound(2, "two"));
    await queue.sendAll();

    assert.ok(await queue.waitingAhead(queue.change(...newRound(4, "four"))));
    assert.ok(!(await queue.waitingAhead(queue.change(...newRound(2, "two-again")))));
    assert.ok(!(await queue.waitingAhead(queue.change(OTHER_MATCH, form({ operation: "x" })))));
  });

  it("settles a refusal of its round once stored", async () => {
    refusing.add("two");
    await queue.keep(...newRound(2, "two"));
    await queue.sendAll();
    const again = queue.change(`${STANDINGS}/rounds/2`, form({ operation: "two-as-edit" }));

    await queue.answered(again, redirect(STANDINGS));

    assert.deepEqual(await queued(), []);
  });

  it("keeps the newer answer in place of a refusal of its round, refused again", async () => {
    refusing.add("two");
    await queue.keep(...newRound(2, "two"));
    await queue.sendAll();
    const again = queue.change(...newRound(2, "two-again"));

    await queue.answered(again, page("Still refused", { status: 409 }));

    const [kept] = await queue.all();
    assert.equal(kept.operation, "two-again");
    assert.equal(kept.page, "Still refused");
    assert.equal(kept.state, queue.REFUSED);
  });

  it("refused as typed, leaves nothing on the phone: its page is on the screen", async () => {
    await queue.answered(queue.change(...newRound(1, "one")), page("No", { status: 422 }));

    assert.deepEqual(await queued(), []);
  });
});
