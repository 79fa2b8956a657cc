// Error reporting from the browser (issue #25, ADR 0037). Off without a DSN: then nothing is loaded
// and nothing is kept. With one, Sentry's browser SDK is loaded by import() once the page has loaded,
// so first-visit JavaScript carries only this small module; errors that happen before (a window
// error, an unhandled rejection, an error screen) are kept and sent once it has. Every event and
// breadcrumb goes through the scrubber the workers use (./scrub); the scrubber and the options load
// with the SDK (./sentry-sdk), so the page ships only the few lines below.

/** What the root loader hands the browser: the public DSN (SENTRY_BROWSER_DSN) and the release. */
export interface BrowserReportingConfig {
  dsn: string | null;
  release: string | null;
}

/** What the reporter loads by import(): the part of the SDK it uses, and its options (with the scrubber). */
export type SentryBrowserSdk = typeof import("./sentry-sdk");

/** Errors kept before the SDK has loaded; a page that fails in a loop does not grow without bound. */
export const BUFFERED_ERRORS_MAX = 20;

type Tags = Record<string, string>;

interface EventSource {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
}

export interface ReporterParts {
  /** `() => import("./sentry-sdk")` in the page. */
  loadSdk: () => Promise<SentryBrowserSdk>;
  /** Calls `start` once the page has loaded, so the SDK never competes with the page itself. */
  afterPageLoad: (start: () => void) => void;
  /** Where window errors and unhandled rejections are heard before the SDK listens itself. */
  events: EventSource;
}

export type ReporterState = "listening" | "off" | "loading" | "ready";

export interface BrowserReporter {
  readonly state: ReporterState;
  /** Starts keeping window errors and unhandled rejections (before hydration). */
  listen(): void;
  /** With a DSN, loads the SDK after the page load and sends what was kept; without one, forgets it. */
  start(config: BrowserReportingConfig): Promise<void>;
  /** Reports `error` now if the SDK is ready, later if it is loading, never if reporting is off. */
  report(error: unknown, tags?: Tags): void;
}

export function createBrowserReporter(parts: ReporterParts): BrowserReporter {
  let state: ReporterState = "listening";
  let sdk: SentryBrowserSdk | null = null;
  let listening = false;
  const kept: { error: unknown; tags: Tags }[] = [];

  const onError = (event: Event) => {
    const { error, message } = event as ErrorEvent;
    report(error ?? new Error(message || "Script error"));
  };
  const onRejection = (event: Event) => report((event as PromiseRejectionEvent).reason);

  function stopListening() {
    if (!listening) return;
    listening = false;
    parts.events.removeEventListener("error", onError);
    parts.events.removeEventListener("unhandledrejection", onRejection);
  }

  function turnOff() {
    state = "off";
    kept.length = 0;
    stopListening();
  }

  function report(error: unknown, tags: Tags = {}) {
    if (state === "off") return;
    if (sdk) sdk.captureException(error, { tags });
    else if (kept.length < BUFFERED_ERRORS_MAX) kept.push({ error, tags });
  }

  async function load(config: { dsn: string; release: string | null }) {
    try {
      const loaded = await parts.loadSdk();
      loaded.init(loaded.sentryBrowserOptions(config, loaded));
      // From here the SDK hears window errors itself: ours would send each twice.
      stopListening();
      sdk = loaded;
      state = "ready";
      for (const { error, tags } of kept.splice(0)) loaded.captureException(error, { tags });
    } catch (error) {
      // A blocked or failed chunk: the page works on, unreported, and says why in the console.
      console.warn("Error reporting could not load; errors are not reported from this page.", error);
      turnOff();
    }
  }

  return {
    get state() {
      return state;
    },
    listen() {
      if (listening || state !== "listening") return;
      listening = true;
      parts.events.addEventListener("error", onError);
      parts.events.addEventListener("unhandledrejection", onRejection);
    },
    start(config) {
      if (state !== "listening") return Promise.resolve();
      const { dsn, release } = config;
      if (!dsn) {
        turnOff();
        return Promise.resolve();
      }
      state = "loading";
      return new Promise<void>((resolve) => parts.afterPageLoad(() => void load({ dsn, release }).then(resolve)));
    },
    report,
  };
}

/** After the window's load event (now, if it has passed), on a later task. */
function afterWindowLoad(start: () => void) {
  const later = () => setTimeout(start, 0);
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}

let pageReporter: BrowserReporter | undefined;

function thePageReporter(): BrowserReporter | undefined {
  if (typeof window === "undefined") return undefined;
  pageReporter ??= createBrowserReporter({
    loadSdk: () => import("./sentry-sdk"),
    afterPageLoad: afterWindowLoad,
    events: window,
  });
  return pageReporter;
}

/** In the browser's entry, before hydration: keeps errors until reporting has started (or is off). */
export function listenForErrors(): void {
  thePageReporter()?.listen();
}

/** In the document, once hydrated, with the root loader's config. */
export function startBrowserReporting(config: BrowserReportingConfig): void {
  void thePageReporter()?.start(config);
}

/** An error screen's error, tagged with the Error ID it shows, so support can find one from the other. */
export function reportBrowserError(error: unknown, errorId?: string): void {
  thePageReporter()?.report(error, errorId ? { errorId } : {});
}
