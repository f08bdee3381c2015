// Rounds saved while the server could not be reached, kept on this phone (IndexedDB) until the
// server has them. Each is the round form as it was sent, under its operation id (the form's
// idempotency key), so that sending it again, however often, stores it once. The service worker
// (sw.js) queues a save that cannot reach the server and sends the queue when the network comes
// back; the pages show the queue (queued-rounds.js) and send it too.
"use strict";

self.roundQueue = (() => {
  const DATABASE = "scorekeeper";
  const STORE = "queued-rounds";
  const WAITING = "waiting";
  const REFUSED = "refused";

  function opened() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () =>
        request.result.createObjectStore(STORE, { keyPath: "operation" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  // Run `work` on the store in one transaction; resolve with what its request gave, once the
  // transaction is done.
  async function inStore(mode, work) {
    const database = await opened();
    return new Promise((resolve, reject) => {
      const transaction = database.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => {
        database.close();
        resolve(request.result);
      };
      transaction.onerror = () => reject(transaction.error);
    });
  }

  const put = (round) => inStore("readwrite", (store) => store.put(round));
  const remove = (operation) => inStore("readwrite", (store) => store.delete(operation));
  const all = () => inStore("readonly", (store) => store.getAll());

  // Keep a save the server could not be reached for: `url` is where the form posts, `body` the
  // form as sent (application/x-www-form-urlencoded).
  function keep(url, body) {
    const fields = new URLSearchParams(body);
    return put({
      operation: fields.get("operation"),
      url,
      body,
      round: Number(fields.get("round_number")),
      state: WAITING,
      queuedAt: Date.now(),
    });
  }

  // Send one kept round: "stored" when the server took it (or had it already, under its
  // operation id), "refused" when it answered why not (the page it answered is kept, to show
  // in place of the form), "waiting" when it could not be reached.
  async function send(round) {
    let response;
    try {
      response = await fetch(round.url, {
        method: "POST",
        body: round.body,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        credentials: "same-origin",
      });
    } catch {
      return WAITING;
    }
    if (response.ok) {
      await remove(round.operation);
      return "stored";
    }
    if (response.status >= 500) return WAITING; // the server's trouble: try again later
    await put({ ...round, state: REFUSED, page: await response.text() });
    return REFUSED;
  }

  // Send every round still waiting, in the order of their rounds; a second call while one runs
  // waits for it instead of sending the same rounds twice at once.
  let sending = null;
  function sendAll() {
    sending ??= (async () => {
      try {
        const waiting = (await all()).filter((round) => round.state === WAITING);
        waiting.sort((a, b) => a.round - b.round || a.queuedAt - b.queuedAt);
        for (const round of waiting) await send(round);
      } finally {
        sending = null;
      }
    })();
    return sending;
  }

  return { WAITING, REFUSED, keep, all, remove, sendAll };
})();
