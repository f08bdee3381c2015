// This browser's recent matches, kept in localStorage: match pages remember their link, and the
// lists on the home and "My matches" pages show them. Nothing of it reaches the server.
"use strict";

(() => {
  const KEY = "scorekeeper.recent";
  const MOST = 30;

  function load() {
    try {
      const list = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list : [];
    } catch {
      return [];
    }
  }

  function save(list) {
    try {
      localStorage.setItem(KEY, JSON.stringify(list.slice(0, MOST)));
    } catch {
      // Private browsing may refuse storage: the list is a convenience only.
    }
  }

  function remember(opened) {
    const list = load();
    const known = list.find((item) => item.id === opened.id);
    // The edit link opens more than the view link: once known, keep it.
    const keepEdit = known && known.role === "edit" && opened.role !== "edit";
    const entry = keepEdit ? { ...known, name: opened.name } : opened;
    save([{ ...entry, opened: Date.now() }, ...list.filter((item) => item.id !== opened.id)]);
  }

  // An edit link this browser kept, refused where it was followed (a new one replaced it),
  // gives way to the match's view link; a newer edit link kept for the match stays.
  function revoke(revoked) {
    save(
      load().map((item) =>
        item.role === "edit" && isHere(item.url) ? { ...item, url: revoked.url, role: "view" } : item,
      ),
    );
  }

  function isHere(url) {
    return resolved(url)?.href === window.location.href;
  }

  function isOwnLink(url) {
    return resolved(url)?.origin === window.location.origin;
  }

  // A kept URL as this page reads it; null for one that is no URL (localStorage is editable).
  function resolved(url) {
    try {
      return new URL(url, window.location.href);
    } catch {
      return null;
    }
  }

  function show(section) {
    const list = load().filter((item) => isOwnLink(item.url));
    const items = section.querySelector("ul");
    if (!list.length) return;
    section.querySelector("[data-recent-empty]").hidden = true;
    items.hidden = false;
    for (const item of list) {
      const link = document.createElement("a");
      link.href = item.url;
      link.textContent = item.name;
      const role = document.createElement("span");
      role.className = "recent-role";
      role.textContent = item.role === "edit" ? section.dataset.editLabel : section.dataset.viewLabel;
      const row = document.createElement("li");
      row.append(link, role);
      items.append(row);
    }
  }

  const opened = document.querySelector("[data-recent]");
  if (opened) remember(JSON.parse(opened.dataset.recent));
  const refused = document.querySelector("[data-recent-revoked]");
  if (refused) revoke(JSON.parse(refused.dataset.recentRevoked));
  document.querySelectorAll("[data-recent-list]").forEach(show);
})();
