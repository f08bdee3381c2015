// Registers the service worker, which keeps pages and static files for when the network drops
// (sw.js), and says plainly when a page shows what this phone kept rather than what the server
// has now: a page served from the phone's copy, or any page while the phone is offline.
"use strict";

(() => {
  const script = document.currentScript;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(script.dataset.serviceWorker).catch(() => {
      // No service worker (a private window, an old browser): pages work online as before.
    });
  }

  const banner = document.querySelector("[data-offline-banner]");
  const keptCopy = document.body.hasAttribute("data-offline-copy");

  function renderedAt() {
    const time = new Date(document.body.dataset.renderedAt);
    return new Intl.DateTimeFormat(document.documentElement.lang, { timeStyle: "short" }).format(time);
  }

  function show() {
    const offline = keptCopy || !navigator.onLine;
    banner.hidden = !offline;
    if (offline) banner.textContent = banner.dataset.template.replace("%(time)s", renderedAt());
  }

  window.addEventListener("online", show);
  window.addEventListener("offline", show);
  show();
})();
