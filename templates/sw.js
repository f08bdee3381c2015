{#- The service worker (web/app_shell.py serves it from /sw.js). Rendered per release: `shell`
    lists the pages and static files that open offline from the first visit on, `version` names
    this release's cache. Pages of matches are kept as this phone opens them. -#}
"use strict";

importScripts({{ url_for("static", filename="round-queue.js") | tojson }});

const VERSION = {{ version | tojson }};
const SHELL = {{ shell | tojson }};
const SHELL_CACHE = `shell-${VERSION}`;
const PAGES_CACHE = "pages";
// A page served from the cache says so: its body carries this attribute (offline.js).
const OFFLINE_MARK = "data-offline-copy";
// Where a round form posts, entering or editing a round; what comes before "/rounds" is the
// match's standings under its edit link.
const ROUND_FORM = /^(\/m\/[^/]+\/edit\/[^/]+)\/rounds\/(new|\d+)$/;
const SEND_ROUNDS = "send-rounds";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name !== SHELL_CACHE && name !== PAGES_CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate" && ROUND_FORM.test(url.pathname)) {
    event.respondWith(savedOrKept(request, url));
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(cachedFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request));
  }
});

// Static files never change under their hashed names: the cache answers for the network.
async function cachedFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(SHELL_CACHE)).put(request, response.clone());
  return response;
}

// A page comes from the server while it answers, and is kept for when it does not.
async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok && isPage(response)) {
      (await caches.open(PAGES_CACHE)).put(request, response.clone());
    }
    return response;
  } catch (offline) {
    const kept = await caches.match(request, { ignoreVary: true });
    if (kept) return markedOffline(kept);
    const fallback = await caches.match({{ url_for("app_shell.offline") | tojson }});
    if (fallback) return markedOffline(fallback);
    throw offline;
  }
}

function isPage(response) {
  return (response.headers.get("Content-Type") || "").startsWith("text/html");
}

async function markedOffline(response) {
  const html = (await response.text()).replace("<body", `<body ${OFFLINE_MARK}`);
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// A round saved without a network is kept to send later, and the phone goes on to the standings
// as it has them, which show it waiting; with a network the save goes as it always did.
async function savedOrKept(request, url) {
  const body = await request.clone().text();
  try {
    return await fetch(request);
  } catch {
    await roundQueue.keep(request.url, body);
    await self.registration.sync?.register(SEND_ROUNDS).catch(() => {});
    return Response.redirect(url.pathname.match(ROUND_FORM)[1], 303);
  }
}

self.addEventListener("sync", (event) => {
  if (event.tag === SEND_ROUNDS) event.waitUntil(roundQueue.sendAll());
});

// The standings under an edit link ask for the forms of the rounds still to play, to open them
// without a network later.
self.addEventListener("message", (event) => {
  if (Array.isArray(event.data?.keepPages)) event.waitUntil(keepPages(event.data.keepPages));
});

async function keepPages(urls) {
  const cache = await caches.open(PAGES_CACHE);
  await Promise.all(
    urls.map(async (url) => {
      const response = await fetch(url, { credentials: "same-origin" }).catch(() => null);
      if (response?.ok && isPage(response)) await cache.put(url, response);
    }),
  );
}
