// A moment as a page in `language` writes it: its time of day, and its day too when that was
// not today. For what a page says of what this phone kept: a copy, a draft.
"use strict";

self.localTime = (moment, language, now = new Date()) => {
  const when = new Date(moment);
  const today = when.toDateString() === now.toDateString();
  const style = today ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" };
  return new Intl.DateTimeFormat(language, style).format(when);
};
