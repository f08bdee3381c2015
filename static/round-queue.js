// Changes to rounds that this phone saved while the server could not be reached: rounds
// entered, corrected and deleted, kept (IndexedDB) until the server has them. Each is the form as
// it was sent, under the form's operation id, which goes with it as its Idempotency-Key: sending
// it again, however often, changes the match once, and no session cookie is needed for it.
//
// A match's changes go to the server in the order they were saved. When the server refuses
// one, the changes saved after it for that match wait behind it, until it is saved again or
// thrown away: a match never gets a hole that the table did not make. The service worker keeps
// and sends the changes (service-worker.js); the pages list them (queued-rounds.js).
"use strict";

self.roundQueue = (() => {
  const DATABASE = "scorekeeper";
  const STORE = "queued-rounds";
  const LOCK = "scorekeeper-round-queue";
  const FORM = "application/x-www-form-urlencoded";
  // Where a change is sent: a round entered, corrected or deleted under a match's edit link.
  const CHANGE_PATH = /^(\/m\/([^/]+)\/edit\/[^/]+)\/rounds\/(?:(new)|(\d+)(\/delete)?)$/;

  const NEW = "new";
  const CORRECTION = "correction";
  const DELETION = "delete";

  // A change's state in the queue; `BEHIND` is never stored: it is a waiting change with a
  // refused one of its match before it.
  const WAITING = "waiting";
  const REFUSED = "refused";
  const BEHIND = "behind";

  // What became of a change sent to the server.
  const STORED = "stored";
  const UNREACHABLE = "unreachable";
  // Answers worth sending again later: a proxy or the server in trouble for a moment.
  const TRY_LATER = new Set([429, 502, 503, 504]);
  // A send on a network that dropped may wait for minutes before it fails: it is given up
  // sooner, and sent again later, which its Idempotency-Key makes safe if it arrived after all.
  const SEND_TIMEOUT_MS = 15_000;

  function isChange(url) {
    return CHANGE_PATH.test(new URL(url).pathname);
  }

  // A kept change with what its address and form say: its match, round and kind, the standings
  // it belongs to and where its form opens; null for what is no change to a round.
  function described(kept) {
    const url = new URL(kept.url);
    const parts = url.pathname.match(CHANGE_PATH);
    if (!parts) return null;
    const [, standings, match, isNew, number, isDeletion] = parts;
    const round = Number(isNew ? new URLSearchParams(kept.body).get("round_number") : number);
    const form = isNew ? `${standings}/rounds/new?round=${round}` : `${standings}/rounds/${round}`;
    return {
      ...kept,
      match,
      round,
      change: isNew ? NEW : isDeletion ? DELETION : CORRECTION,
      standings: new URL(standings, url).href,
      form: new URL(form, url).href,
    };
  }

  // A change as sent: where it posts, the form as sent (application/x-www-form-urlencoded).
  function change(url, body) {
    const operation = new URLSearchParams(body).get("operation");
    return described({ operation, url, body, state: WAITING });
  }

  // -- Storage --------------------------------------------------------------------------------

  function opened() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () =>
        request.result.createObjectStore(STORE, { keyPath: "operation" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  function done(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  // Run `work` on the store in one transaction; resolve with what it returns once the
  // transaction is done.
  async function inStore(mode, work) {
    const database = await opened();
    try {
      const transaction = database.transaction(STORE, mode);
      const finished = new Promise((resolve, reject) => {
        transaction.oncomplete = resolve;
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error);
      });
      const result = await work(transaction.objectStore(STORE));
      await finished;
      return result;
    } finally {
      database.close();
    }
  }

  const inOrder = (a, b) => a.queuedAt - b.queuedAt;

  async function changesIn(store) {
    return (await done(store.getAll())).map(described).filter(Boolean).sort(inOrder);
  }

  // Every kept change, described, in the order saved.
  async function all() {
    return inStore("readonly", changesIn);
  }

  // Keep a change the server could not be reached for, or one that waits behind others of its
  // match. Saved again after the server refused it, it takes the refused one's place, so that
  // the changes behind it stay behind it; so does a form sent again before the server had it
  // (a double tap, or the same page changed and saved again), with what it holds now.
  function keep(url, body) {
    const kept = change(url, body);
    return inStore("readwrite", async (store) => {
      const changes = await changesIn(store);
      const replaced = replacedBy(changes, kept);
      if (replaced) store.delete(replaced.operation);
      const last = Math.max(0, ...changes.map((other) => other.queuedAt));
      const queuedAt = replaced?.queuedAt ?? Math.max(Date.now(), last + 1);
      await done(store.put({ ...asKept(kept), queuedAt }));
    });
  }

  // The kept change that `kept` takes the place of: the same form sent before, or a refused
  // change of the same round, which saving the round again settles.
  function replacedBy(changes, kept) {
    return (
      changes.find((other) => other.operation === kept.operation) ??
      changes.find((other) => other.state === REFUSED && sameRound(other, kept))
    );
  }

  // Whether changes of the match saved before `sent` wait on this phone, which must reach the
  // server first: `sent` takes the place of the change it replaces, else it comes last.
  async function waitingAhead(sent) {
    const changes = (await all()).filter((other) => other.match === sent.match);
    const place = replacedBy(changes, sent)?.queuedAt ?? Infinity;
    return changes.some((other) => other.queuedAt < place);
  }

  // A change as it is kept: what its address and form do not already say.
  function asKept({ operation, url, body, state, page, queuedAt }) {
    return { operation, url, body, state, page, queuedAt };
  }

  const sameRound = (a, b) => a.match === b.match && a.round === b.round;

  function remove(operation) {
    return inStore("readwrite", (store) => done(store.delete(operation)));
  }

  // -- What the server answered ---------------------------------------------------------------

  // Settle a change the server answered, sent from the queue or from its form: the server
  // stored it (or had it already), which settles any earlier refusal of the same round; or it
  // refused it, and a refused change of that round kept here takes the newer answer, kept to
  // show where the form opens; or the server was in trouble, and the change is tried again.
  async function answered(sent, response) {
    // A redirect, followed or not (opaque to a service worker), leads to the standings.
    if (response.type === "opaqueredirect" || response.status < 400) {
      await settle(sent);
      return STORED;
    }
    if (TRY_LATER.has(response.status)) return UNREACHABLE;
    await refuse(sent, await response.text());
    return REFUSED;
  }

  function settle(sent) {
    return inStore("readwrite", async (store) => {
      const changes = await changesIn(store);
      for (const other of changes) {
        const settled = other.state === REFUSED && sameRound(other, sent);
        if (settled || other.operation === sent.operation) store.delete(other.operation);
      }
    });
  }

  // Keep the server's answer to a refused change in the place of the change it replaces: its
  // own when it came from the queue, or a refused change of the same round saved again.
  function refuse(sent, page) {
    return inStore("readwrite", async (store) => {
      const replaced = replacedBy(await changesIn(store), sent);
      if (!replaced) return; // refused as it was typed: its page is on the screen
      store.delete(replaced.operation);
      const refused = { ...asKept(sent), state: REFUSED, page, queuedAt: replaced.queuedAt };
      await done(store.put(refused));
    });
  }

  // -- Sending --------------------------------------------------------------------------------

  // Post a change as its form posts, with its operation id as its Idempotency-Key; the
  // server's redirect, which means that it stored the change, is not followed.
  function post(kept) {
    return fetch(kept.url, {
      method: "POST",
      body: kept.body,
      headers: { "Content-Type": FORM, "Idempotency-Key": kept.operation },
      credentials: "same-origin",
      redirect: "manual",
      cache: "no-store",
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  }

  // Send a kept change, and settle it as the server answers.
  async function send(kept) {
    let response;
    try {
      response = await post(kept);
    } catch {
      return UNREACHABLE;
    }
    return answered(kept, response);
  }

  // One sender at a time, across the service worker and the pages.
  function exclusive(work) {
    const locks = self.navigator?.locks;
    return locks ? locks.request(LOCK, work) : work();
  }

  // Send the changes waiting, each match's in the order saved. A refused change holds back
  // the rest of its match; a server that cannot be reached, the rest of the queue. Resolve with
  // the changes the server answered, each with what became of it.
  function sendAll() {
    return exclusive(async () => {
      const answers = [];
      for (const changes of byMatch(await all()).values()) {
        for (const kept of changes) {
          if (kept.state === REFUSED) break;
          const outcome = await send(kept);
          if (outcome === UNREACHABLE) return answers;
          answers.push({ ...kept, outcome });
          if (outcome === REFUSED) break;
        }
      }
      return answers;
    });
  }

  function byMatch(changes) {
    const matches = new Map();
    for (const kept of changes) matches.set(kept.match, [...(matches.get(kept.match) ?? []), kept]);
    return matches;
  }

  // A match's changes in order, each with the state to show: a waiting change saved after a
  // refused one waits behind it (`blocker`, the first refused before it).
  function shown(changes) {
    let blocker = null;
    return [...changes].sort(inOrder).map((kept) => {
      if (kept.state === REFUSED) {
        blocker ??= kept;
        return kept;
      }
      return blocker ? { ...kept, state: BEHIND, blocker } : kept;
    });
  }

  return {
    NEW,
    CORRECTION,
    DELETION,
    WAITING,
    REFUSED,
    BEHIND,
    STORED,
    UNREACHABLE,
    isChange,
    change,
    all,
    keep,
    waitingAhead,
    remove,
    answered,
    post,
    sendAll,
    shown,
  };
})();
