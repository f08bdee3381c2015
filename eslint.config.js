// ESLint reads every script in static/ as the browser runs it (a classic script, no bundler), the
// service worker's with a worker's globals, and the scripts' unit tests as node modules.
import js from "@eslint/js";
import globals from "globals";

// Written by `flask digest compile`: copies of the scripts under hashed names.
const HASHED_COPY = "static/**/*-????????????????????????????????.js";

export default [
  // templates/sw.js is a Jinja template: what it renders only loads static/service-worker.js.
  { ignores: [HASHED_COPY, "node_modules/", ".venv/", "templates/"] },
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.browser },
    },
    rules: {
      // Each script is strict, and keeps its names to itself or under one name on `self`.
      strict: ["error", "global"],
      "no-implicit-globals": "error",
      eqeqeq: "error",
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    // Run by the service worker (importScripts), and the queue by the pages too.
    files: ["static/service-worker.js", "static/round-queue.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
