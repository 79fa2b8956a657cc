// The service worker (issue #25, ADR 0035), built to /sw.js by the production build
// (app/service-worker/vite-plugin.ts). It keeps the last copy of the screens that work offline and
// shows it, marked with its age, when there is no connection. Posts are never touched: the offline
// queue (app/offline/) owns them; the worker only drops one person's saved copies when someone signs
// out or in. What goes which way is decided in requests.ts.
import {
  type CopyMessage,
  isWarmMessage,
  SAVED_AT_HEADER,
  serverTimingOf,
  type WarmMessage,
} from "~/browser/saved-copy";
import { worksOffline } from "~/connectivity/offline-paths";
import { buildAssets, cacheNames, cachesToDrop, documentDue, worthSaving } from "./caches";
import { OFFLINE_PAGE_HEADERS, offlinePageHtml, type SavedScreen, titleOf } from "./offline-page";
import {
  documentOfData,
  endsSavedCopies,
  mergeManifests,
  pickSavedData,
  type RequestFacts,
  reloadDocumentAnswer,
  screenOfData,
  strategyFor,
} from "./requests";

// The build's version, written in by the build: a new build is a new worker with new caches.
declare const __SW_VERSION__: string;

// The parts of the service worker's global scope used here (the project compiles with the DOM and
// Workers types, neither of which describes a service worker's own scope).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  clientId: string;
  respondWith(response: Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
}
interface SavedCache {
  match(request: string, options?: { ignoreVary?: boolean }): Promise<Response | undefined>;
  put(request: string, response: Response): Promise<void>;
  keys(): Promise<readonly Request[]>;
}
interface WorkerScope {
  location: { origin: string };
  caches: {
    open(name: string): Promise<SavedCache>;
    keys(): Promise<string[]>;
    delete(name: string): Promise<boolean>;
  };
  clients: {
    claim(): Promise<void>;
    get(id: string): Promise<{ url: string; postMessage(message: unknown): void } | undefined>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "message", listener: (event: ExtendableMessageEvent) => void): void;
}

const scope = self as unknown as WorkerScope;
const origin = scope.location.origin;
const names = cacheNames(__SW_VERSION__);

// Bumped each time the saved copies are dropped: an answer that left for the network before a
// sign-out or sign-in is not saved when it arrives after it.
let generation = 0;
let dropping: Promise<unknown> = Promise.resolve();

function dropSavedCopies(): Promise<unknown> {
  generation += 1;
  dropping = dropping.then(() => scope.caches.delete(names.pages));
  return dropping;
}

/** The address a copy is kept under: the request's, without its fragment. */
const keyOf = (url: URL) => url.href.replace(/#.*$/, "");

async function save(key: string, response: Response, since: number): Promise<void> {
  const body = await response.blob();
  await dropping;
  if (since !== generation) return;
  const headers = new Headers(response.headers);
  // The body kept is the decoded one: the network's encoding and length no longer describe it.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set(SAVED_AT_HEADER, new Date().toISOString());
  const cache = await scope.caches.open(names.pages);
  await cache.put(key, new Response(body, { status: response.status, statusText: response.statusText, headers }));
}

/** A saved response as served: its age in Server-Timing, which the page reads for a document. */
function served(saved: Response): Response {
  const headers = new Headers(saved.headers);
  const savedAt = saved.headers.get(SAVED_AT_HEADER);
  if (savedAt) headers.set("Server-Timing", serverTimingOf(savedAt));
  return new Response(saved.body, { status: saved.status, statusText: saved.statusText, headers });
}

/**
 * Tells the page that made a data request whether what it is about to show is a saved copy: the
 * screen `pathname` (a navigation's data), or the screen it is on (a scan lookup).
 */
async function tell(clientId: string, pathname: string | null, savedAt: string | null): Promise<void> {
  if (!clientId) return;
  const client = await scope.clients.get(clientId);
  if (!client) return;
  const message: CopyMessage = { type: "screen-copy", pathname: pathname ?? new URL(client.url).pathname, savedAt };
  client.postMessage(message);
}

async function savedScreens(): Promise<SavedScreen[]> {
  const cache = await scope.caches.open(names.pages);
  const screens: SavedScreen[] = [];
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (screenOfData(url.pathname) !== null || !worksOffline(url.pathname)) continue;
    const response = await cache.match(request.url, { ignoreVary: true });
    const savedAt = response?.headers.get(SAVED_AT_HEADER);
    if (!response || !savedAt) continue;
    const href = url.pathname + url.search;
    screens.push({ href, title: titleOf(await response.text()) ?? href, savedAt: new Date(savedAt) });
  }
  return screens;
}

async function offlinePage(url: URL): Promise<Response> {
  const html = offlinePageHtml(url.pathname, await savedScreens(), new Date());
  return new Response(html, { status: 503, statusText: "Offline", headers: OFFLINE_PAGE_HEADERS });
}

/** Network first; the good answer saved; no network: the saved copy, else `otherwise`. */
async function networkFirst(
  event: FetchEvent,
  url: URL,
  find: (cache: SavedCache) => Promise<Response | undefined>,
  otherwise: (error: unknown) => Promise<Response>,
  onAnswer: (savedAt: string | null) => void = () => {},
  onSaved: (since: number) => Promise<void> = async () => {},
): Promise<Response> {
  const since = generation;
  let response: Response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    const saved = await find(await scope.caches.open(names.pages));
    if (!saved) return otherwise(error);
    onAnswer(saved.headers.get(SAVED_AT_HEADER));
    return served(saved);
  }
  if (worthSaving(response)) event.waitUntil(save(keyOf(url), response.clone(), since).then(() => onSaved(since)));
  onAnswer(null);
  return response;
}

async function fromCacheFirst(request: Request, url: URL): Promise<Response> {
  const cache = await scope.caches.open(names.assets);
  const kept = await cache.match(keyOf(url));
  if (kept) return kept;
  const response = await fetch(request);
  if (worthSaving(response)) await cache.put(keyOf(url), response.clone());
  return response;
}

/** The network's answer, a good one also kept in `cache`; throws when there is no network. */
async function fetchAndKeep(cache: SavedCache, request: Request, url: URL): Promise<Response> {
  const response = await fetch(request);
  if (worthSaving(response)) await cache.put(keyOf(url), response.clone());
  return response;
}

/** Network first for what is nobody's (the shell's icons): kept with the build's assets. */
async function keptFile(request: Request, url: URL): Promise<Response> {
  const cache = await scope.caches.open(names.assets);
  try {
    return await fetchAndKeep(cache, request, url);
  } catch (error) {
    const kept = await cache.match(keyOf(url));
    if (!kept) throw error;
    return kept;
  }
}

async function routeDiscovery(request: Request, url: URL): Promise<Response> {
  const cache = await scope.caches.open(names.assets);
  try {
    return await fetchAndKeep(cache, request, url);
  } catch (error) {
    const version = url.searchParams.get("version");
    const answers: unknown[] = [];
    for (const key of await cache.keys()) {
      const saved = new URL(key.url);
      if (saved.pathname !== "/__manifest" || saved.searchParams.get("version") !== version) continue;
      answers.push(await (await cache.match(key.url))?.json());
    }
    if (answers.length === 0) throw error;
    return Response.json(mergeManifests(answers));
  }
}

const networkError = (error: unknown) => Promise.reject(error);

function answer(event: FetchEvent, url: URL): Promise<Response> | null {
  const request = event.request;
  const facts: RequestFacts = { method: request.method, url, mode: request.mode };
  switch (strategyFor(facts, origin)) {
    case "screen":
      return networkFirst(
        event,
        url,
        (cache) => cache.match(keyOf(url), { ignoreVary: true }),
        () => offlinePage(url),
      );
    case "screen-data": {
      const screen = screenOfData(url.pathname) ?? url.pathname;
      return networkFirst(
        event,
        url,
        async (cache) => {
          const saved = pickSavedData(
            url,
            (await cache.keys()).map((r) => new URL(r.url)),
          );
          return saved ? cache.match(saved.href, { ignoreVary: true }) : undefined;
        },
        // No copy of this screen's data: the whole page, which has its saved copy or the offline page.
        async () => reloadDocumentAnswer(documentOfData(url) ?? screen),
        (savedAt) => event.waitUntil(tell(event.clientId, screen, savedAt)),
        (since) => refreshDocument(new URL(documentOfData(url) ?? screen, origin), since),
      );
    }
    case "lookup":
      return networkFirst(
        event,
        url,
        (cache) => cache.match(keyOf(url), { ignoreVary: true }),
        networkError,
        (savedAt) => event.waitUntil(tell(event.clientId, null, savedAt)),
      );
    case "asset":
      return fromCacheFirst(request, url);
    case "public-file":
      return keptFile(request, url);
    case "manifest":
      return routeDiscovery(request, url);
    case "network":
      return null;
  }
}

scope.addEventListener("install", () => {
  // A new build's worker takes over at once: the page it serves next is the new build's.
  void scope.skipWaiting();
});

scope.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of cachesToDrop(await scope.caches.keys(), __SW_VERSION__)) await scope.caches.delete(name);
      await scope.clients.claim();
    })(),
  );
});

scope.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const facts: RequestFacts = { method: event.request.method, url, mode: event.request.mode };
  // The post goes to the network as it is; the copies go whether or not it arrives.
  if (endsSavedCopies(facts, origin)) {
    event.waitUntil(dropSavedCopies());
    return;
  }
  const response = answer(event, url);
  if (response) event.respondWith(response);
});

async function warm({ assets, page }: WarmMessage): Promise<void> {
  const cache = await scope.caches.open(names.assets);
  for (const asset of buildAssets(assets, origin)) {
    if (await cache.match(asset)) continue;
    // From the browser's HTTP cache, usually: the page has just loaded them.
    const response = await fetch(asset).catch(() => null);
    if (response && worthSaving(response)) await cache.put(asset, response);
  }
  if (!page) return;
  const url = new URL(page, origin);
  if (url.origin === origin && worksOffline(url.pathname)) await refreshDocument(url, generation);
}

/**
 * Saves the document of a screen whose data was just saved (or of the first page), when the saved
 * one is missing or DOCUMENT_REFRESH_MS old: a page reloaded offline, or opened after a browser
 * restart, needs the document, and a session spent in client-side navigations never loads one.
 */
async function refreshDocument(url: URL, since: number): Promise<void> {
  const pages = await scope.caches.open(names.pages);
  const saved = await pages.match(keyOf(url), { ignoreVary: true });
  if (!documentDue(saved?.headers.get(SAVED_AT_HEADER) ?? null, new Date())) return;
  const response = await fetch(url.href, { headers: { Accept: "text/html" } }).catch(() => null);
  if (response && worthSaving(response)) await save(keyOf(url), response, since);
}

scope.addEventListener("message", (event) => {
  if (isWarmMessage(event.data)) event.waitUntil(warm(event.data));
});
