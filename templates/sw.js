{#- The service worker (web/app_shell.py serves it from /sw.js, so that it may control every
    page). Rendered per release: its version names this release's cache, its shell lists the
    pages and static files that open offline from the first visit on; service-worker.js does
    the work. -#}
"use strict";

self.release = {{ {"version": version, "shell": shell, "offlinePage": url_for("app_shell.offline")} | tojson }};
importScripts(
  {{ url_for("static", filename="round-queue.js") | tojson }},
  {{ url_for("static", filename="service-worker.js") | tojson }},
);
