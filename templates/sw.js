{#- The service worker (web/app_shell.py serves it from /sw.js). Rendered per release: `shell`
    lists the pages and static files that open offline from the first visit on, `version` names
    this release's cache. Pages of matches are kept as this phone opens them. -#}
"use strict";

const VERSION = {{ version | tojson }};
const SHELL = {{ shell | tojson }};
const SHELL_CACHE = `shell-${VERSION}`;
const PAGES_CACHE = "pages";
// A page served from the cache says so: its body carries this attribute (offline.js).
const OFFLINE_MARK = "data-offline-copy";

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
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
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
