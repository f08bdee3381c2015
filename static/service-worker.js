// The service worker's work; /sw.js loads it with the release it serves (`self.release`: its
// version, the shell of pages and static files that open offline from the first visit on, and
// the page for a page this phone never opened). Pages come from the server while it answers and
// are kept for when it does not; the forms of a match's rounds, to play and entered, are kept
// too, so that rounds can be entered and corrected offline. Changes to rounds made without a
// network are kept on the phone (round-queue.js) and sent, in order, once it is back.
"use strict";

(() => {
  const { version, shell, offlinePage } = self.release;
  const queue = self.roundQueue;
  const SHELL_CACHE = `shell-${version}`;
  const PAGES_CACHE = "pages";
  // A page served from the cache says so: its body carries this attribute (offline.js).
  const OFFLINE_MARK = "data-offline-copy";
  // So does the server's answer to a change that waited here, shown where its form opens: the
  // attribute holds the change's operation id, to throw it away by.
  const REFUSED_MARK = "data-refused-change";
  const SEND_ROUNDS = "send-rounds";
  // How long a save waits for the changes of its match saved before it to be sent first; it
  // waits behind them on the phone after that, rather than keep the keeper waiting.
  const AHEAD_WAIT_MS = 5_000;
  const HTML = { "Content-Type": "text/html; charset=utf-8" };

  self.addEventListener("install", (event) => {
    event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(shell)));
    self.skipWaiting();
  });

  self.addEventListener("activate", (event) => {
    event.waitUntil(oldCachesDropped().then(() => self.clients.claim()));
  });

  async function oldCachesDropped() {
    const names = await caches.keys();
    const old = names.filter((name) => name !== SHELL_CACHE && name !== PAGES_CACHE);
    await Promise.all(old.map((name) => caches.delete(name)));
  }

  self.addEventListener("fetch", (event) => {
    const request = event.request;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    if (request.method === "POST" && request.mode === "navigate" && queue.isChange(url)) {
      const saved = savedOrKept(request);
      event.respondWith(saved.then(({ response }) => response));
      event.waitUntil(saved.then(({ after }) => after));
    } else if (request.method !== "GET") {
      return;
    } else if (url.pathname.startsWith("/static/")) {
      event.respondWith(cachedFirst(request));
    } else if (request.mode === "navigate") {
      event.respondWith(refusedOrPage(request));
    }
  });

  // Static files never change under their hashed names: the cache answers for the network.
  async function cachedFirst(request) {
    const cached = await caches.match(request);
    if (cached) return cached;
    const response = await fetch(request);
    if (response.ok) await (await caches.open(SHELL_CACHE)).put(request, response.clone());
    return response;
  }

  // Where the form of a change the server refused opens, its answer shows until the change is
  // saved again or thrown away; any other page comes from the network first.
  async function refusedOrPage(request) {
    const refused = (await queue.all()).find(
      (kept) => kept.state === queue.REFUSED && kept.form === request.url,
    );
    if (!refused) return networkFirst(request);
    return marked(new Response(refused.page, { headers: HTML }), REFUSED_MARK, refused.operation);
  }

  // A page comes from the server while it answers, and is kept for when it does not.
  async function networkFirst(request) {
    try {
      const response = await fetch(request);
      if (response.ok && isPage(response)) {
        await (await caches.open(PAGES_CACHE)).put(request, response.clone());
      }
      return response;
    } catch (offline) {
      const kept = (await caches.match(request, { ignoreVary: true })) ?? (await offlineCopy());
      if (!kept) throw offline;
      return marked(kept, OFFLINE_MARK, "");
    }
  }

  const offlineCopy = () => caches.match(offlinePage);

  function isPage(response) {
    return (response.headers.get("Content-Type") ?? "").startsWith("text/html");
  }

  async function marked(response, attribute, value) {
    const html = (await response.text()).replace("<body", `<body ${attribute}="${value}"`);
    return new Response(html, { headers: HTML });
  }

  // A change to a round goes to the server after the changes of its match that wait here, with
  // its operation id as the Idempotency-Key, which stands in for the session's CSRF token (the
  // cookie may have ended while the phone was offline). When the server cannot be reached, or
  // earlier changes of the match still wait, it waits on the phone too, and the phone goes on
  // to the standings as it has them, which show it waiting. Resolve with the answer to show,
  // and what is still to do once it is shown.
  async function savedOrKept(request) {
    const body = await request.text();
    const change = queue.change(request.url, body);
    if (await queue.waitingAhead(change)) {
      await atMost(sent(), AHEAD_WAIT_MS);
      if (await queue.waitingAhead(change)) return kept(change);
    }
    let response;
    try {
      response = await queue.post(change);
    } catch {
      return kept(change);
    }
    const outcome = await queue.answered(change, response.clone());
    if (outcome === queue.UNREACHABLE) return kept(change);
    // A stored change may release changes of its match that waited behind it.
    return { response, after: outcome === queue.STORED ? sent() : Promise.resolve() };
  }

  function atMost(promise, ms) {
    let timer;
    const timeout = new Promise((wake) => {
      timer = setTimeout(wake, ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  async function kept(change) {
    await queue.keep(change.url, change.body);
    await self.registration.sync?.register(SEND_ROUNDS).catch(() => {});
    const response = Response.redirect(change.standings, 303);
    return { response, after: changed() };
  }

  // Send what waits, and tell the open pages, which show the queue and the standings, when
  // the server answered any of it.
  async function sent() {
    const answers = await queue.sendAll();
    if (answers.length) await changed();
    return answers;
  }

  async function changed() {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) client.postMessage({ queueChanged: true });
  }

  self.addEventListener("sync", (event) => {
    if (event.tag === SEND_ROUNDS) event.waitUntil(sent());
  });

  // The pages ask: to keep the forms of a match's rounds (the standings under an edit link), to
  // send what waits (any page, as it opens online), to throw a refused change away.
  self.addEventListener("message", (event) => {
    const message = event.data ?? {};
    if (message.keepForms) event.waitUntil(keepForms(message.keepForms));
    if (message.sendQueue) event.waitUntil(sent());
    if (message.throwAway) event.waitUntil(thrownAway(message.throwAway, event.ports[0]));
  });

  // Keep each form: one kept already under the ETag the standings give it is as the server
  // would draw it now, and is not asked for; another is asked for with the validator of the
  // copy kept, which costs a 304 when the form did not change. The match's other kept forms,
  // of rounds entered or deleted since, go.
  async function keepForms({ standings, forms }) {
    const cache = await caches.open(PAGES_CACHE);
    const rounds = `${standings}/rounds/`;
    const urls = forms.map((form) => form.url);
    for (const request of await cache.keys()) {
      if (request.url.startsWith(rounds) && !urls.includes(request.url)) {
        await cache.delete(request);
      }
    }
    await Promise.all(forms.map((form) => keepForm(cache, form)));
  }

  async function keepForm(cache, { url, etag }) {
    const kept = await cache.match(url);
    const tag = kept?.headers.get("ETag");
    if (tag && tag === etag) return;
    const response = await fetch(url, {
      credentials: "same-origin",
      cache: "no-store", // the validator is this cache's, not the browser's
      redirect: "manual", // a form that moved is no form of a round still to play
      headers: tag ? { "If-None-Match": tag } : {},
    }).catch(() => null);
    if (response?.ok && isPage(response)) await cache.put(url, response);
  }

  async function thrownAway(operation, reply) {
    await queue.remove(operation);
    reply?.postMessage({ thrownAway: operation });
    await sent(); // what waited behind it goes now
  }
})();
