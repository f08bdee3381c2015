// A phone for the scripts' tests: IndexedDB (fake-indexeddb), the Cache Storage, a server that
// answers fetch() and can be cut off, and a service worker's global scope, whose event
// listeners the tests call as the browser would.
import "fake-indexeddb/auto";

export const ORIGIN = "https://scorekeeper.test";
export const STANDINGS = `${ORIGIN}/m/Mx7/edit/tok3n`;

// One cache of the Cache Storage: responses by URL.
class Cache {
  entries = new Map();

  async match(request) {
    return this.entries.get(urlOf(request))?.clone();
  }

  async put(request, response) {
    this.entries.set(urlOf(request), response.clone());
  }

  async addAll(urls) {
    for (const url of urls) await this.put(url, await fetch(url));
  }

  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }

  async delete(request) {
    return this.entries.delete(urlOf(request));
  }
}

class CacheStorage {
  caches = new Map();

  async open(name) {
    if (!this.caches.has(name)) this.caches.set(name, new Cache());
    return this.caches.get(name);
  }

  async keys() {
    return [...this.caches.keys()];
  }

  async delete(name) {
    return this.caches.delete(name);
  }

  async match(request) {
    for (const cache of this.caches.values()) {
      const found = await cache.match(request);
      if (found) return found;
    }
    return undefined;
  }
}

const urlOf = (request) => new URL(typeof request === "string" ? request : request.url, ORIGIN).href;

// The server, as fetch() reaches it: `answer(request)` is what it says to a request, which
// records it; offline, fetch() fails as a browser's does.
export class Server {
  online = true;
  requests = [];

  constructor(answer) {
    this.answer = answer;
  }

  fetch = async (input, init = {}) => {
    const request = { url: urlOf(input), method: init.method ?? input.method ?? "GET", init };
    request.body = init.body ?? (await input.text?.());
    request.headers = new Headers(init.headers);
    if (!this.online) throw new TypeError("Failed to fetch");
    this.requests.push(request);
    return this.answer(request);
  };

  posted() {
    return this.requests.filter((request) => request.method === "POST");
  }
}

export const page = (html, init = {}) =>
  new Response(html, { ...init, headers: { "Content-Type": "text/html; charset=utf-8", ...init.headers } });

export const redirect = (location) => new Response(null, { status: 303, headers: { Location: location } });

// A form as a round form sends it.
export function form(fields) {
  return new URLSearchParams({ csrf_token: "", version: "", ...fields }).toString();
}

// Set up the globals a page or a service worker has, with `server` behind fetch().
export function phone(server) {
  globalThis.caches = new CacheStorage();
  globalThis.fetch = server.fetch;
  globalThis.location = new URL(`${ORIGIN}/sw.js`);
  return globalThis;
}

// A service worker's global scope: its listeners by event type, the windows it tells of
// changes (`messages`) and the background syncs it asks for (`syncs`).
export function workerScope(server, release) {
  const scope = phone(server);
  scope.listeners = {};
  scope.messages = [];
  scope.syncs = [];
  scope.addEventListener = (type, listener) => {
    scope.listeners[type] = listener;
  };
  scope.skipWaiting = () => {};
  scope.clients = {
    claim: async () => {},
    matchAll: async () => [{ postMessage: (message) => scope.messages.push(message) }],
  };
  scope.registration = { sync: { register: async (tag) => scope.syncs.push(tag) } };
  scope.release = release;
  return scope;
}

// Dispatch an event to the worker as the browser does; resolve with the response it gave
// (for a fetch), once everything it waits for is done.
export async function dispatch(scope, type, properties = {}) {
  let response;
  const waits = [];
  const event = {
    ...properties,
    respondWith: (answer) => {
      response = answer;
    },
    waitUntil: (promise) => waits.push(promise),
  };
  scope.listeners[type](event);
  const answer = await response;
  await Promise.all(waits);
  return answer;
}

// A request as the browser hands a navigation to the worker.
export function navigation(url, { method = "GET", body } = {}) {
  return {
    url: urlOf(url),
    method,
    mode: "navigate",
    text: async () => body ?? "",
    clone() {
      return this;
    },
  };
}
