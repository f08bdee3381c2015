// The standings under an edit link, with the rounds this phone saved that the server does not
// have yet: each listed as waiting to send, or as refused with a link back to its form. The
// queue is sent on opening the page, when the network comes back, and every half minute; once
// a round is stored, the standings are read again. With a network, the page also asks the
// service worker to keep the forms of the rounds still to play, to open them offline.
"use strict";

(() => {
  if (!self.roundQueue || !document.querySelector("[data-queued-rounds]")) return;
  const standings = location.pathname;
  const keptCopy = document.body.hasAttribute("data-offline-copy");
  const RESEND_MS = 30_000;

  const list = () => document.querySelector("[data-queued-rounds]"); // poll.js replaces it
  const entered = () => JSON.parse(list().dataset.entered);
  const label = (template, round) => template.replaceAll("%(round)s", String(round));
  const ofThisMatch = (round) => new URL(round.url).pathname.startsWith(`${standings}/rounds/`);
  const queuedHere = async () => (await roundQueue.all()).filter(ofThisMatch);

  async function show() {
    const queued = (await queuedHere()).sort((a, b) => a.round - b.round);
    const shown = list();
    shown.replaceChildren(...queued.map((round) => item(shown, round)));
    shown.hidden = queued.length === 0;
    nextRound(queued);
    forgetSentDrafts(shown);
  }

  function item(shown, round) {
    const line = document.createElement("li");
    if (round.state === roundQueue.REFUSED) {
      const link = document.createElement("a");
      link.href = round.url;
      link.textContent = label(shown.dataset.refused, round.round);
      line.append(link);
      line.className = "is-refused";
    } else {
      line.textContent = label(shown.dataset.waiting, round.round);
    }
    return line;
  }

  // The button to the next round skips the rounds waiting here, as the server will have them.
  function nextRound(queued) {
    const button = document.querySelector("[data-enter-round]");
    if (!button || queued.length === 0) return; // as the server rendered it
    const taken = new Set([...entered(), ...queued.map((round) => round.round)]);
    const rounds = Number(button.dataset.rounds);
    const next = Array.from({ length: rounds }, (_, index) => index + 1).find((n) => !taken.has(n));
    button.hidden = next === undefined;
    if (next === undefined) return;
    button.href = label(button.dataset.urlTemplate, next);
    button.textContent = label(button.dataset.labelTemplate, next);
  }

  // A draft sent as a round the standings show entered has done its work.
  function forgetSentDrafts(shown) {
    if (keptCopy) return;
    for (const round of entered()) {
      for (const mode of ["new", "edit"]) {
        const key = `scorekeeper.draft.${shown.dataset.match}:${round}:${mode}`;
        try {
          if (JSON.parse(localStorage.getItem(key))?.sent) localStorage.removeItem(key);
        } catch {
          // Storage refused: there is no draft to forget.
        }
      }
    }
  }

  async function send() {
    if (!navigator.onLine) return;
    const before = (await queuedHere()).length;
    await roundQueue.sendAll();
    if ((await queuedHere()).length < before) location.reload(); // as the server has it now
    else await show();
  }

  // The forms of the rounds still to play, and these standings when they came before the
  // service worker did (the first visit): a round saved offline comes back to them.
  function keepPages() {
    const pages = JSON.parse(list().dataset.keepPages);
    if (!navigator.serviceWorker?.controller) pages.push(standings);
    navigator.serviceWorker?.ready.then((worker) => worker.active?.postMessage({ keepPages: pages }));
  }

  show().then(send);
  if (!keptCopy && navigator.onLine) keepPages();
  window.addEventListener("online", send);
  document.addEventListener("standings-refreshed", show);
  setInterval(send, RESEND_MS);
})();
