// The round form's draft (drafts.js): written as the table types, put back into the form or
// offered as the form opens, each time with a word that says so, and removed by saving, by
// Cancel, or by the notice's "Throw it away".
"use strict";

(() => {
  const form = document.querySelector("form[data-draft]");
  const notice = document.querySelector("[data-draft-notice]");
  if (!form || !notice || !self.drafts) return;
  const { drafts } = self;
  const name = form.dataset.draft;
  const kept = drafts.keptIn();
  const over = form.elements.version?.value ?? "";
  const fresh = form.dataset.formState === "fresh";
  const fields = () => [...form.elements];
  const asDrawn = drafts.valuesOf(fields()); // as the server drew the form
  const draft = kept.read(name);
  const putBackButton = notice.querySelector("[data-draft-put-back]");
  let filling = false;

  const typedNow = (options) => drafts.typed(drafts.valuesOf(fields()), over, options);

  function write() {
    if (!filling) kept.write(name, typedNow());
  }

  // Fill the form as the table would have typed it: the live score follows.
  function put(values) {
    filling = true;
    drafts.fill(fields(), values);
    form.dispatchEvent(new Event("input", { bubbles: true }));
    filling = false;
  }

  function say(template, { offer = false } = {}) {
    const time = self.localTime(draft.typedAt, document.documentElement.lang);
    notice.querySelector("[data-draft-says]").textContent = template.replace("%(time)s", time);
    putBackButton.hidden = !offer;
    notice.hidden = false;
  }

  // A form kept on the phone may be opened and saved more than once, each time a change of
  // its own: each opening gets an operation id of its own, as the server gives each form drawn.
  if (document.body.hasAttribute("data-offline-copy")) {
    form.elements.operation.value = crypto.randomUUID().replaceAll("-", "");
  }

  const fate = drafts.fate(draft, { fresh, over });
  if (fate === drafts.PUT_BACK) {
    put(draft.values);
    say(notice.dataset.putBack);
  } else if (fate === drafts.OFFERED) {
    say(notice.dataset.offered, { offer: true });
  }
  if (!fresh) write(); // a page that answered a save holds what was sent: it is the draft now

  form.addEventListener("input", write);
  form.addEventListener("change", write);
  form.addEventListener("submit", () => kept.write(name, typedNow({ sent: true })));

  putBackButton.addEventListener("click", () => {
    put(draft.values);
    kept.write(name, draft);
    say(notice.dataset.putBack);
  });

  notice.querySelector("[data-draft-throw-away]").addEventListener("click", () => {
    kept.remove(name);
    put(asDrawn);
    notice.hidden = true;
  });

  const cancel = document.querySelector("[data-cancel]");
  cancel?.addEventListener("click", (event) => {
    const typed = !drafts.same(drafts.valuesOf(fields()), asDrawn) || kept.read(name);
    if (typed && !window.confirm(cancel.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    kept.remove(name);
  });

  // A refused change, on the page that shows the server's answer to it, thrown away (offline.js).
  document.addEventListener("change-thrown-away", () => kept.remove(name));
})();
