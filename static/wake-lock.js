// Keeps the screen on while a round is being entered or the standings are open (the Screen Wake
// Lock API), as long as the toggle is on; this phone remembers the choice. The lock goes as the
// page is left or hidden, and comes back when it is shown again.
"use strict";

(() => {
  const toggle = document.querySelector("[data-wake-lock]");
  if (!toggle || !("wakeLock" in navigator)) return;
  const KEY = "scorekeeper.screen-on";
  let lock = null;

  function wanted() {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch {
      return true;
    }
  }

  async function hold() {
    if (lock || !wanted() || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => {
        lock = null;
      });
    } catch {
      lock = null; // refused (a battery saver, say): the screen follows its own settings
    }
  }

  function letGo() {
    lock?.release();
    lock = null;
  }

  toggle.hidden = false;
  toggle.setAttribute("aria-pressed", String(wanted()));
  toggle.addEventListener("click", () => {
    const on = !wanted();
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch {
      // Not remembered: it holds for this page.
    }
    toggle.setAttribute("aria-pressed", String(on));
    if (on) hold();
    else letGo();
  });
  document.addEventListener("visibilitychange", hold);
  window.addEventListener("pagehide", letGo);
  hold();
})();
