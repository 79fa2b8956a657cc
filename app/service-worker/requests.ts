// Which way the service worker answers a request (issue #25): decided from the method and address
// alone, so it is tested here without a browser.
//
// - "screen": the document of a screen that works offline (OFFLINE_SCREENS): network first, the good
//   answer saved; no network: the saved copy, else the worker's offline page.
// - "screen-data": the same screens' single-fetch data (`/inventory.data`), for client-side
//   navigations: network first, saved; no network: the saved copy, else the network's error.
// - "lookup": the GET lookups the scan screen makes (barcodes, vials): network first, saved.
// - "asset": the build's hashed files (`/assets/*`): from the cache when there, else fetched and kept.
// - "public-file": the unhashed files the shell shows (the logo, the icon): network first, kept.
// - "manifest": Remix's route discovery (`/__manifest?p=...&version=...`): network first, kept;
//   no network: every route it was told of for this version, so links between saved screens work.
// - "network": everything else, and every non-GET: the worker does not answer it.
import { worksOffline } from "~/connectivity/offline-paths";
import { SHELL_FILES } from "./caches";

export type Strategy = "screen" | "screen-data" | "lookup" | "asset" | "public-file" | "manifest" | "network";

export interface RequestFacts {
  method: string;
  url: URL;
  /** Request.mode: "navigate" for a document. */
  mode: string;
}

/** The screen a single-fetch data address belongs to: "/inventory/abc.data" → "/inventory/abc", "/_root.data" → "/". */
export function screenOfData(pathname: string): string | null {
  if (!pathname.endsWith(".data")) return null;
  const screen = pathname.slice(0, -".data".length);
  return screen === "/_root" ? "/" : screen;
}

export function strategyFor({ method, url, mode }: RequestFacts, origin: string): Strategy {
  if (method !== "GET" || url.origin !== origin) return "network";
  const { pathname } = url;
  if (pathname.startsWith("/assets/")) return "asset";
  if (pathname === "/__manifest") return "manifest";
  if (SHELL_FILES.includes(pathname)) return "public-file";
  if (mode === "navigate") return worksOffline(pathname) ? "screen" : "network";
  const screen = screenOfData(pathname);
  if (screen !== null) return worksOffline(screen) ? "screen-data" : "network";
  if (pathname.startsWith("/api/barcodes/") || pathname === "/api/vials" || pathname.startsWith("/api/vials/")) {
    return "lookup";
  }
  return "network";
}

/**
 * Posts after which the saved copies (one person's pages) are dropped: a sign-out, and any sign-in,
 * the form's (with or without JavaScript) and the API's. Dropping them at every sign-in covers "a
 * different person signs in" without the worker having to know who anyone is.
 */
const PERSON_CHANGES = ["/logout", "/logout.data", "/login", "/login.data", "/api/auth/login"];

export function endsSavedCopies({ method, url }: RequestFacts, origin: string): boolean {
  return method === "POST" && url.origin === origin && PERSON_CHANGES.includes(url.pathname);
}

/**
 * The saved copy that answers a data request when there is no network. Remix adds `_routes=a,b` to
 * a navigation's data address when some loaders opted out, so the same screen may have been saved
 * under another list: a copy with no `_routes` (every loader) or with a list holding every route
 * asked for serves too. The exact address wins; otherwise the newest that fits (`saved` newest last).
 */
export function pickSavedData(wanted: URL, saved: readonly URL[]): URL | null {
  const routesOf = (url: URL) => url.searchParams.get("_routes")?.split(",") ?? null;
  const restOf = (url: URL) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete("_routes");
    params.sort();
    return `${url.pathname}?${params}`;
  };
  const exact = saved.find((url) => url.href === wanted.href);
  if (exact) return exact;
  const asked = routesOf(wanted);
  const fits = saved.filter((url) => {
    if (url.origin !== wanted.origin || restOf(url) !== restOf(wanted)) return false;
    const has = routesOf(url);
    if (has === null) return true;
    return asked?.every((route) => has.includes(route)) ?? false;
  });
  return fits.at(-1) ?? null;
}

/** Route-discovery answers saved for one build, merged: each is an object of routes by id. */
export function mergeManifests(answers: readonly unknown[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const answer of answers) {
    if (typeof answer === "object" && answer !== null && !Array.isArray(answer)) Object.assign(merged, answer);
  }
  return merged;
}

/** The address of the document a screen's data address belongs to: its screen and its own query. */
export function documentOfData(url: URL): string | null {
  const screen = screenOfData(url.pathname);
  if (screen === null) return null;
  const params = new URLSearchParams(url.searchParams);
  params.delete("_routes");
  params.delete("index");
  const query = params.toString();
  return query ? `${screen}?${query}` : screen;
}

/**
 * Single fetch's answer "load this address as a whole document" (a redirect with reloadDocument),
 * as Remix's server encodes it (turbo-stream, status 202). The worker gives it for a screen's data
 * it has no copy of offline: the document load then comes back to the worker, which has the page's
 * saved copy or its offline page, instead of the screen failing with a network error.
 */
export function reloadDocumentAnswer(location: string): Response {
  const body = JSON.stringify([
    ["SingleFetchRedirect", 1],
    { _2: 3, _4: 5, _6: 7, _8: 9, _10: 7 },
    "redirect",
    location,
    "status",
    302,
    "revalidate",
    false,
    "reload",
    true,
    "replace",
  ]);
  return new Response(body, {
    status: 202,
    headers: { "Content-Type": "text/x-script", "X-Remix-Response": "yes", "Cache-Control": "no-store" },
  });
}
