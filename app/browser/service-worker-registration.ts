// Registers the service worker (app/service-worker/, built to /sw.js) from the production build's
// entry, once the page has loaded so it never competes with the first render, and hands it what
// the page loaded before any worker controlled it (the first visit's assets, and the page itself).
import type { WarmMessage } from "./saved-copy";

export const SERVICE_WORKER_URL = "/sw.js";

/** What the page loaded from the build (scripts, styles, module preloads) as absolute addresses. */
function loadedAssets(): string[] {
  const fromTimings = performance.getEntriesByType("resource").map((entry) => entry.name);
  const fromDocument = [
    ...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>("link[href], script[src]"),
  ].map((element) => ("href" in element ? element.href : element.src));
  return [...fromTimings, ...fromDocument];
}

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const start = () => {
    // Read before registering: a page no worker answered has no saved copy yet.
    const controlled = navigator.serviceWorker.controller !== null;
    navigator.serviceWorker
      .register(SERVICE_WORKER_URL, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const message: WarmMessage = {
          type: "warm",
          assets: loadedAssets(),
          page: controlled ? null : location.pathname + location.search,
        };
        registration.active?.postMessage(message);
      })
      .catch((error: unknown) => {
        // The app works without it, only not offline.
        console.warn("The service worker could not be registered: screens will not be saved for offline use.", error);
      });
  };
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
