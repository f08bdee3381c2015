// A number as the pages write it and read it back, for the scripts of the number boxes: digits
// in groups of three with the separator of the page's language (on <body data-digit-group>,
// from the server: browsers lack some languages' rules), below 0 with a true minus.
"use strict";

self.typedNumber = (() => {
  // Numbers as written in a language that groups digits with `group`.
  function groupedBy(group) {
    // A language that groups with a space takes any space, as the server does.
    const separator = /^\s$/.test(group) ? "\\s" : group.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const grouped = new RegExp(`^[+-]?\\d{1,3}(?:${separator}\\d{3})+$`);

    return {
      groupedBy,
      // What a box holds: 0 when empty, a whole number typed with or without its digit groups
      // (whole groups of three only, so that "12,5" is no number), else null. Full-width digits
      // (a Japanese or Korean keyboard's) are made plain by NFKC, as the server makes them.
      read(text) {
        const trimmed = text.normalize("NFKC").trim();
        if (trimmed === "") return 0;
        const digits = grouped.test(trimmed)
          ? trimmed.replace(new RegExp(separator, "g"), "")
          : trimmed;
        return /^[+-]?\d+$/.test(digits) ? Number(digits) : null;
      },
      // Points as the server prints them.
      write(value) {
        const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, group);
        return value < 0 ? `\u2212${digits}` : digits;
      },
    };
  }

  return groupedBy(self.document?.body.dataset.digitGroup ?? ",");
})();
