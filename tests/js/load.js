// Runs scripts of static/ as a browser or a service worker runs them: as classic scripts whose
// global is `self`. Each test file runs in a process of its own (node --test), so the globals a
// test sets up (IndexedDB, caches, fetch) are its own.
import { readFileSync } from "node:fs";
import vm from "node:vm";

globalThis.self = globalThis;

// Run the scripts, named as in static/, in order; return the global they wrote to.
export function load(...names) {
  for (const name of names) {
    const url = new URL(`../../static/${name}`, import.meta.url);
    vm.runInThisContext(readFileSync(url, "utf8"), { filename: url.pathname });
  }
  return globalThis;
}
