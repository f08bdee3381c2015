// Keeps a standings page current: asks the API every few seconds whether the match changed
// (If-None-Match, so an unchanged match costs a 304), and on a new version swaps in the page's
// fresh match region.
"use strict";

(() => {
  const INTERVAL_MS = 4000;
  const SELECTOR = "[data-poll-url]";
  let etag = null;

  async function refresh() {
    const response = await fetch(window.location.href, { cache: "no-store" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const region = fresh.querySelector(SELECTOR);
    if (!region) return;
    const current = document.querySelector(SELECTOR);
    keepOpen(current, region);
    current.replaceWith(region);
  }

  // The score breakdowns a reader opened stay open in the fresh standings: each is known by
  // its round's row and its place in the row.
  function keepOpen(current, fresh) {
    const open = new Set([...current.querySelectorAll("tr[id] details[open]")].map(placeOf));
    fresh.querySelectorAll("tr[id] details").forEach((details) => {
      if (open.has(placeOf(details))) details.open = true;
    });
  }

  function placeOf(details) {
    const row = details.closest("tr[id]");
    return `${row.id}/${[...row.querySelectorAll("details")].indexOf(details)}`;
  }

  async function poll() {
    const page = document.querySelector(SELECTOR);
    if (!page || document.hidden) return;
    const headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    const response = await fetch(page.dataset.pollUrl, { headers, cache: "no-store" });
    if (response.status !== 200) return;
    etag = response.headers.get("ETag");
    const match = await response.json();
    if (String(match.version) !== page.dataset.version) await refresh();
  }

  async function loop() {
    try {
      await poll();
    } catch {
      // Offline for a moment: the next turn tries again.
    }
    setTimeout(loop, INTERVAL_MS);
  }

  if (document.querySelector(SELECTOR)) setTimeout(loop, INTERVAL_MS);
})();
