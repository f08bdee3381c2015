// The standings under an edit link, with the changes this phone saved that the server does not
// have yet (round-queue.js): each listed as waiting to send, as waiting behind a change the
// server refused, or as refused, with a link to where it opens. The button to enter the next
// round skips the rounds waiting here. The page asks the service worker to keep the forms of
// the match's rounds, to play and entered, to open them offline, as they are now; the drafts of
// the changes sent are done with.
"use strict";

(() => {
  const queue = self.roundQueue;
  const list = () => document.querySelector("[data-queued-rounds]"); // poll.js replaces it
  if (!queue || !list()) return;
  const { match } = list().dataset;
  const standings = location.origin + location.pathname;
  const keptCopy = document.body.hasAttribute("data-offline-copy");
  const RESEND_MS = 30_000;
  const workers = navigator.serviceWorker;
  const toWorker = (message) => self.toServiceWorker?.(message);

  const fill = (template, values) =>
    template.replace(/%\((\w+)\)s/g, (whole, key) => String(values[key] ?? whole));

  async function show() {
    const shown = list();
    const changes = queue.shown((await queue.all()).filter((kept) => kept.match === match));
    shown.replaceChildren(...changes.map((kept) => item(shown.dataset, kept)));
    shown.hidden = changes.length === 0;
    showNextRound(JSON.parse(shown.dataset.nextRounds), changes);
    self.drafts?.keptIn().forgetSent(match);
    return changes;
  }

  function item(texts, kept) {
    const line = document.createElement("li");
    const change = fill(JSON.parse(texts.changeNames)[kept.change], { round: kept.round });
    if (kept.state === queue.REFUSED) {
      const link = document.createElement("a");
      link.href = kept.form;
      link.textContent = fill(texts.refused, { change });
      line.append(link);
      line.className = "is-refused";
    } else if (kept.state === queue.BEHIND) {
      line.textContent = fill(texts.behind, { change, round: kept.blocker.round });
    } else {
      line.textContent = fill(texts.waiting, { change });
    }
    return line;
  }

  // The next round to enter: the first still to play that no change waiting here enters.
  function showNextRound(rounds, changes) {
    const button = document.querySelector("[data-enter-round]");
    const dealer = document.querySelector("[data-next-dealer]");
    if (!button) return;
    const entering = new Set(changes.filter((kept) => kept.change === queue.NEW).map((k) => k.round));
    const next = rounds.find(({ round }) => !entering.has(round));
    for (const shown of [button, dealer]) if (shown) shown.hidden = !next;
    if (!next) return;
    button.href = next.url;
    button.textContent = next.label;
    if (dealer) dealer.textContent = next.dealer;
  }

  // The forms of the rounds still to play and of those entered, each as of its ETag, and these
  // standings when they came before the service worker did (the first visit): a round saved
  // offline comes back to them.
  function keepForms() {
    const { nextRounds, corrections } = list().dataset;
    const forms = [...JSON.parse(nextRounds), ...JSON.parse(corrections)].map(({ url, etag }) => ({
      url: new URL(url, location).href,
      etag,
    }));
    if (!workers?.controller) forms.push({ url: standings, etag: null });
    toWorker({ keepForms: { standings, forms } });
  }

  // What the service worker sent or kept changes the match: the standings show it afresh.
  workers?.addEventListener("message", async (event) => {
    if (!event.data?.queueChanged) return;
    await show();
    document.dispatchEvent(new Event("match-changed"));
  });
  document.addEventListener("standings-refreshed", () => {
    show();
    keepForms(); // the match changed: so did its forms
  });
  window.addEventListener("online", () => toWorker({ sendQueue: true }));
  setInterval(async () => {
    const waiting = (await show()).some((kept) => kept.state === queue.WAITING);
    if (waiting && navigator.onLine) toWorker({ sendQueue: true });
  }, RESEND_MS);

  show();
  if (!keptCopy && navigator.onLine) keepForms();
})();
