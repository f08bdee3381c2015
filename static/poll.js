// Keeps a standings page current: asks the API every few seconds whether the match changed
// since the version the page shows (If-None-Match, so an unchanged match costs a 304 from the
// first ask on), and on a new version swaps in the page's fresh match region; at once too when
// this phone's own waiting changes reached the server. A finished match is asked about a while
// longer, as the table checks the result and may correct a round, then no more until the page
// is looked at again. A copy kept on the phone is not polled: it gives way to the server's page
// as a whole (offline.js).
"use strict";

(() => {
  const INTERVAL_MS = 4000;
  const FINISHED_GRACE_MS = 10 * 60_000;
  const SELECTOR = "[data-poll-url]";
  const region = () => document.querySelector(SELECTOR);
  if (!region() || document.body.hasAttribute("data-offline-copy")) return;
  let stopped = false;
  let changedAt = Date.now();

  async function refresh() {
    const response = await fetch(window.location.href, { cache: "no-store" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const freshRegion = fresh.querySelector(SELECTOR);
    if (!freshRegion) return;
    const current = region();
    const open = [...current.querySelectorAll("details[open] > summary")].map(placeOf);
    const focused = current.contains(document.activeElement) && placeOf(document.activeElement);
    current.replaceWith(freshRegion);
    changedAt = Date.now();
    open.forEach((place) => at(freshRegion, place)?.parentElement.setAttribute("open", ""));
    if (focused) at(freshRegion, focused)?.focus();
    document.dispatchEvent(new Event("standings-refreshed")); // for what the region's scripts add
  }

  // The score breakdowns a reader opened stay open in the fresh standings, and what had the
  // focus (a breakdown, an edit link) has it again: each is known by its round's row and its
  // place in the row.
  const IN_ROW = "summary, a";

  function placeOf(element) {
    const row = element.closest("tr[id]");
    return row && { row: row.id, index: [...row.querySelectorAll(IN_ROW)].indexOf(element) };
  }

  function at(freshRegion, place) {
    const row = place && freshRegion.querySelector(`tr[id="${place.row}"]`);
    return row?.querySelectorAll(IN_ROW)[place.index];
  }

  // The match's ETag is its version: the page's own names what it shows.
  async function poll() {
    const { pollUrl, version } = region().dataset;
    if (document.hidden) return;
    const headers = { Accept: "application/json", "If-None-Match": `"${version}"` };
    const response = await fetch(pollUrl, { headers, cache: "no-store" });
    if (response.status !== 200) return;
    const match = await response.json();
    if (String(match.version) !== version) await refresh();
  }

  const asking = () =>
    !region().hasAttribute("data-finished") || Date.now() - changedAt < FINISHED_GRACE_MS;

  async function loop() {
    try {
      await poll();
    } catch {
      // Offline for a moment: the next turn tries again.
    }
    if (asking()) setTimeout(loop, INTERVAL_MS);
    else stopped = true;
  }

  document.addEventListener("match-changed", () => refresh().catch(() => {}));
  document.addEventListener("visibilitychange", () => {
    if (document.hidden || !stopped) return;
    stopped = false; // looked at again, once it had stopped asking
    loop();
  });
  setTimeout(loop, INTERVAL_MS);
})();
