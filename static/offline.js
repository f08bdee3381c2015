// Registers the service worker (service-worker.js), asks it to send what waits on this phone
// as a page opens online, and lends the pages a way to tell it things (`self.toServiceWorker`).
// Says plainly when a page shows what this phone kept rather than what
// the server has now: a copy kept for when the network drops (which gives way to the server's
// page as soon as the server answers again, unless the keeper has begun typing into it), any
// page while the phone is offline, and the server's answer to a change that waited here, which
// can be thrown away.
"use strict";

(() => {
  const body = document.body;
  let keptCopy = body.hasAttribute("data-offline-copy");
  const banner = document.querySelector("[data-offline-banner]");
  const RETRY_MS = 3_000; // offline, a try fails at once, with nothing sent
  const workers = navigator.serviceWorker;

  if (workers) {
    workers.register(document.currentScript.dataset.serviceWorker).catch(() => {
      // No service worker (a private window, an old browser): pages work online as before.
    });
    if (navigator.onLine) toWorker({ sendQueue: true });
  }

  // Tell the service worker `message`; resolve once it has replied, where it replies (`reply`),
  // else at once. Without a service worker, nothing is told.
  async function toWorker(message, { reply = false } = {}) {
    const worker = (await workers?.ready)?.active;
    if (!worker) return;
    const channel = new MessageChannel();
    const replied = new Promise((resolve) => {
      channel.port1.onmessage = resolve;
    });
    worker.postMessage(message, [channel.port2]);
    if (reply) await replied;
  }

  self.toServiceWorker = toWorker;

  function showBanner() {
    const offline = keptCopy || !navigator.onLine;
    banner.hidden = !offline;
    if (!offline) return;
    const time = self.localTime(body.dataset.renderedAt, document.documentElement.lang);
    banner.textContent = banner.dataset.template.replace("%(time)s", time);
  }

  // A kept copy gives way to the page as the server has it, once the server answers. Not under
  // the keeper's fingers: a form they began typing into stays, and its save reaches the server,
  // which checks it whole; nor when they are on the way to another page.
  let leaving = false;
  let typing = false;

  async function refreshWhenBack() {
    if (!keptCopy) return;
    try {
      await fetch(location.href, { method: "HEAD", cache: "no-store" });
    } catch {
      return; // not yet
    }
    if (leaving) return;
    if (!typing) location.reload();
    keptCopy = false;
    showBanner();
  }

  window.addEventListener("online", showBanner);
  window.addEventListener("offline", showBanner);
  showBanner();
  if (keptCopy) {
    window.addEventListener("beforeunload", () => {
      leaving = true;
    });
    document.addEventListener("input", () => {
      typing = true;
    });
    window.addEventListener("online", refreshWhenBack);
    setInterval(refreshWhenBack, RETRY_MS);
  }

  // The server's answer to a change that waited on this phone: saved again from here, it
  // replaces the change; thrown away, it goes, with its draft, and the page shows afresh.
  const refused = body.dataset.refusedChange;
  const notice = document.querySelector("[data-refused-notice]");
  if (!refused || !notice) return;
  notice.hidden = false;
  const throwAway = notice.querySelector("[data-refused-throw-away]");
  throwAway.addEventListener("click", async () => {
    if (!window.confirm(throwAway.dataset.confirm)) return;
    await toWorker({ throwAway: refused }, { reply: true });
    document.dispatchEvent(new Event("change-thrown-away"));
    location.reload();
  });
})();
