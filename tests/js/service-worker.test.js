import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";

import { load } from "./load.js";
import {
  dispatch,
  form,
  navigation,
  ORIGIN,
  page,
  redirect,
  Server,
  STANDINGS,
  workerScope,
} from "./phone.js";

const STYLE = `${ORIGIN}/static/style-0123456789abcdef0123456789abcdef.css`;
const RELEASE = { version: "r2", shell: [`${ORIGIN}/`, `${ORIGIN}/offline`, STYLE], offlinePage: "/offline" };
const ROUND_2 = `${STANDINGS}/rounds/new?round=2`;
const ROUND_3 = `${STANDINGS}/rounds/new?round=3`;

// The server: pages as they are now, a tag per form, and the changes to rounds it stores or
// refuses; each change must carry its Idempotency-Key (no CSRF token goes with it).
let refusing;
let formTags;
const server = new Server((request) => {
  const url = new URL(request.url);
  if (request.method === "POST") {
    const operation = request.headers.get("Idempotency-Key");
    assert.ok(operation, "a change to a round carries its Idempotency-Key");
    if (refusing.has(operation)) return page(`<body><p>Refused ${operation}</p></body>`, { status: 422 });
    return redirect(STANDINGS);
  }
  if (url.pathname === "/static/style-0123456789abcdef0123456789abcdef.css") {
    return new Response("body {}", { headers: { "Content-Type": "text/css" } });
  }
  const tag = formTags.get(url.href);
  if (tag && request.headers.get("If-None-Match") === tag) return new Response(null, { status: 304 });
  return page(`<body><h1>${url.pathname}${url.search}</h1></body>`, { headers: tag ? { ETag: tag } : {} });
});
const scope = workerScope(server, RELEASE);
load("round-queue.js", "service-worker.js");
const queue = scope.roundQueue;

const fetched = (request) => dispatch(scope, "fetch", { request });
const told = (data, ports = []) => dispatch(scope, "message", { data, ports });

function saved(url, fields) {
  return fetched(navigation(url, { method: "POST", body: form(fields) }));
}

async function pagesKept() {
  const cache = await scope.caches.open("pages");
  return (await cache.keys()).map((request) => request.url);
}

beforeEach(async () => {
  for (const name of await scope.caches.keys()) await scope.caches.delete(name);
  for (const kept of await queue.all()) await queue.remove(kept.operation);
  server.online = true;
  server.requests = [];
  scope.messages = [];
  scope.syncs = [];
  refusing = new Set();
  formTags = new Map();
});

describe("installing a release", () => {
  it("keeps the shell, and drops the caches of other releases but the pages kept", async () => {
    await (await scope.caches.open("shell-r1")).put(STYLE, new Response("old"));
    await (await scope.caches.open("pages")).put(STANDINGS, page("kept"));

    await dispatch(scope, "install");
    await dispatch(scope, "activate");

    assert.deepEqual((await scope.caches.keys()).sort(), ["pages", "shell-r2"]);
    assert.equal(await (await scope.caches.match(STYLE)).text(), "body {}");
  });
});

describe("pages", () => {
  it("come from the server while it answers, and are kept", async () => {
    const answer = await fetched(navigation(STANDINGS));

    assert.match(await answer.text(), /<h1>\/m\/Mx7\/edit\/tok3n</);
    assert.deepEqual(await pagesKept(), [STANDINGS]);
  });

  it("come from the phone's copy offline, which says so", async () => {
    await fetched(navigation(STANDINGS));
    server.online = false;

    const answer = await fetched(navigation(STANDINGS));

    assert.match(await answer.text(), /<body data-offline-copy="">/);
  });

  it("never opened here, offline, give the page that says the phone is offline", async () => {
    await dispatch(scope, "install");
    server.online = false;

    const answer = await fetched(navigation(`${ORIGIN}/rules`));

    assert.match(await answer.text(), /<h1>\/offline</);
  });

  it("take static files from the cache once kept, without asking the server", async () => {
    await dispatch(scope, "install");
    server.requests = [];

    await fetched({ url: STYLE, method: "GET", mode: "no-cors" });

    assert.deepEqual(server.requests, []);
  });
});

describe("the forms of a match's rounds", () => {
  const keepForms = (...forms) => told({ keepForms: { standings: STANDINGS, forms } });

  it("are kept, and not asked for again while the standings give the ETag of the copy kept", async () => {
    formTags.set(ROUND_2, 'W/"v7"');
    await keepForms({ url: ROUND_2, etag: 'W/"v7"' });
    server.requests = [];

    await keepForms({ url: ROUND_2, etag: 'W/"v7"' });

    assert.deepEqual(server.requests, []);
    assert.deepEqual(await pagesKept(), [ROUND_2]);
    assert.match(await (await scope.caches.match(ROUND_2)).text(), /round=2/);
  });

  it("are asked for again with the validator of the copy kept when the ETag differs", async () => {
    formTags.set(ROUND_2, 'W/"v7"');
    await keepForms({ url: ROUND_2, etag: 'W/"v7"' });
    server.requests = [];

    await keepForms({ url: ROUND_2, etag: 'W/"v8"' });

    assert.equal(server.requests[0].headers.get("If-None-Match"), 'W/"v7"');
    assert.deepEqual(await pagesKept(), [ROUND_2]); // the server said 304: the copy stays
  });

  it("go once their round is entered", async () => {
    await keepForms({ url: ROUND_2, etag: null }, { url: ROUND_3, etag: null });

    await keepForms({ url: ROUND_3, etag: null });

    assert.deepEqual(await pagesKept(), [ROUND_3]);
  });
});

describe("a change to a round", () => {
  it("saved offline waits on the phone, and the phone goes on to the standings", async () => {
    server.online = false;

    const answer = await saved(`${STANDINGS}/rounds/new`, { round_number: "1", operation: "one" });

    assert.equal(answer.status, 303);
    assert.equal(answer.headers.get("Location"), STANDINGS);
    assert.deepEqual(
      (await queue.all()).map(({ round, change, state }) => [round, change, state]),
      [[1, queue.NEW, queue.WAITING]],
    );
    assert.deepEqual(scope.syncs, ["send-rounds"]);
    assert.deepEqual(scope.messages, [{ queueChanged: true }]);
  });

  it("saved offline as a correction or a deletion, waits as one", async () => {
    server.online = false;

    await saved(`${STANDINGS}/rounds/2`, { round_number: "", operation: "fix" });
    await saved(`${STANDINGS}/rounds/3/delete`, { operation: "drop" });

    assert.deepEqual(
      (await queue.all()).map(({ round, change }) => [round, change]),
      [
        [2, queue.CORRECTION],
        [3, queue.DELETION],
      ],
    );
  });

  it("leaves the pages be when nothing waited to be sent", async () => {
    await told({ sendQueue: true });

    assert.deepEqual(scope.messages, []);
  });

  it("goes to the server with its Idempotency-Key when it answers, and the answer shows", async () => {
    const answer = await saved(`${STANDINGS}/rounds/new`, { round_number: "1", operation: "one" });

    assert.equal(answer.status, 303);
    assert.equal(server.posted()[0].headers.get("Idempotency-Key"), "one");
    assert.deepEqual(await queue.all(), []);
  });

  it("waiting ones are sent in order once the network is back", async () => {
    server.online = false;
    await saved(`${STANDINGS}/rounds/new`, { round_number: "2", operation: "two" });
    await saved(`${STANDINGS}/rounds/new`, { round_number: "3", operation: "three" });
    server.online = true;

    await dispatch(scope, "sync", { tag: "send-rounds" });

    const sent = server.posted().map((request) => request.headers.get("Idempotency-Key"));
    assert.deepEqual(sent, ["two", "three"]);
    assert.deepEqual(await queue.all(), []);
  });
});

describe("a change the server refused", () => {
  async function refusedRoundTwoWithThreeBehind() {
    refusing.add("two");
    server.online = false;
    await saved(`${STANDINGS}/rounds/new`, { round_number: "2", operation: "two" });
    await saved(`${STANDINGS}/rounds/new`, { round_number: "3", operation: "three" });
    server.online = true;
    await told({ sendQueue: true });
  }

  it("holds back the changes saved after it", async () => {
    await refusedRoundTwoWithThreeBehind();

    const sent = server.posted().map((request) => request.headers.get("Idempotency-Key"));
    assert.deepEqual(sent, ["two"]);
  });

  it("shows its answer where its form opens, marked as the phone's", async () => {
    await refusedRoundTwoWithThreeBehind();

    const answer = await fetched(navigation(ROUND_2));

    assert.match(await answer.text(), /<body data-refused-change="two"><p>Refused two/);
  });

  it("holds back a change saved after it with the server reachable", async () => {
    await refusedRoundTwoWithThreeBehind();
    server.requests = [];

    const answer = await saved(`${STANDINGS}/rounds/new`, { round_number: "4", operation: "four" });

    assert.equal(answer.headers.get("Location"), STANDINGS);
    assert.deepEqual(server.posted(), []); // round 2 waits for the keeper, and 3 and 4 behind it
    assert.deepEqual(
      queue.shown(await queue.all()).map(({ round, state }) => [round, state]),
      [
        [2, queue.REFUSED],
        [3, queue.BEHIND],
        [4, queue.BEHIND],
      ],
    );
  });

  it("saved again from its form, is stored, and what waited behind it follows", async () => {
    await refusedRoundTwoWithThreeBehind();

    await saved(`${STANDINGS}/rounds/new`, { round_number: "2", operation: "two-corrected" });

    const sent = server.posted().map((request) => request.headers.get("Idempotency-Key"));
    assert.deepEqual(sent, ["two", "two-corrected", "three"]);
    assert.deepEqual(await queue.all(), []);
  });

  it("thrown away, lets what waited behind it go", async () => {
    await refusedRoundTwoWithThreeBehind();
    const replies = [];

    await told({ throwAway: "two" }, [{ postMessage: (message) => replies.push(message) }]);

    assert.deepEqual(replies, [{ thrownAway: "two" }]);
    assert.equal(server.posted().at(-1).headers.get("Idempotency-Key"), "three");
    assert.deepEqual(await queue.all(), []);
    assert.match(await (await fetched(navigation(ROUND_2))).text(), /<h1>/);
  });
});
