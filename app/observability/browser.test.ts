import type { ErrorEvent as SentryEvent } from "@sentry/browser";
import { describe, expect, it, vi } from "vitest";
import { BUFFERED_ERRORS_MAX, createBrowserReporter, type SentryBrowserSdk } from "./browser";
import { sentryBrowserOptions } from "./browser-options";
import { FILTERED } from "./scrub";

const DSN = "https://public@o1.ingest.sentry.example/2";

/**
 * Stands in for `@sentry/browser`: init keeps the options, and each captured error becomes an event
 * (with the page's URL and a form breadcrumb) run through the options' beforeSend, as the SDK does.
 */
function fakeSdk() {
  const sent: SentryEvent[] = [];
  let options: ReturnType<typeof sentryBrowserOptions> | undefined;
  const sdk = {
    init: vi.fn((given: ReturnType<typeof sentryBrowserOptions>) => {
      options = given;
      return undefined;
    }),
    captureException: vi.fn((error: unknown, hint?: { tags?: Record<string, string> }) => {
      if (!options) throw new Error("captured before init");
      const event: SentryEvent = {
        type: undefined,
        exception: { values: [{ type: "Error", value: error instanceof Error ? error.message : String(error) }] },
        tags: hint?.tags,
        request: { url: "https://clinic.example/usage-log?patientRef=PT-2001&page=2" },
        breadcrumbs: [{ category: "xhr", data: { url: "/api/usage?patientRef=PT-2002", body: "password=pw1" } }],
      };
      const scrubbed = options.beforeSend(event);
      if (scrubbed) sent.push(scrubbed as SentryEvent);
      return "event-id";
    }),
    browserTracingIntegration: vi.fn(() => ({ name: "BrowserTracing" })),
    replayIntegration: vi.fn((_options?: unknown) => ({ name: "Replay" })),
    sentryBrowserOptions,
  };
  return { sdk: sdk as unknown as SentryBrowserSdk & typeof sdk, sent, options: () => options };
}

/** A page: its event target, and the load event the reporter waits for. */
function page(sdk: SentryBrowserSdk | Promise<never>) {
  const events = new EventTarget();
  let loaded: (() => void) | undefined;
  const loadSdk = vi.fn(() => (sdk instanceof Promise ? sdk : Promise.resolve(sdk)));
  const reporter = createBrowserReporter({
    loadSdk,
    afterPageLoad: (start) => {
      loaded = start;
    },
    events,
  });
  const windowError = (error: Error) => events.dispatchEvent(Object.assign(new Event("error"), { error }));
  const rejection = (reason: unknown) =>
    events.dispatchEvent(Object.assign(new Event("unhandledrejection"), { reason }));
  return { reporter, loadSdk, windowError, rejection, pageLoaded: () => loaded?.() };
}

describe("the browser's error reporting", () => {
  it("without a DSN loads no SDK and forgets what it kept", async () => {
    const { sdk } = fakeSdk();
    const { reporter, loadSdk, windowError, pageLoaded } = page(sdk);
    reporter.listen();
    windowError(new Error("before the config"));
    await reporter.start({ dsn: null, release: "1.0.0" });
    pageLoaded();
    windowError(new Error("after"));
    reporter.report(new Error("an error screen's"), { errorId: "err_1_abcdefgh" });
    expect(reporter.state).toBe("off");
    expect(loadSdk).not.toHaveBeenCalled();
    expect(sdk.captureException).not.toHaveBeenCalled();
    // Starting again changes nothing: the page has no DSN.
    await reporter.start({ dsn: DSN, release: null });
    expect(loadSdk).not.toHaveBeenCalled();
  });

  it("loads the SDK only after the page has loaded", async () => {
    const { sdk } = fakeSdk();
    const { reporter, loadSdk, pageLoaded } = page(sdk);
    const started = reporter.start({ dsn: DSN, release: "1.0.0" });
    await Promise.resolve();
    expect(loadSdk).not.toHaveBeenCalled();
    expect(reporter.state).toBe("loading");
    pageLoaded();
    await started;
    expect(loadSdk).toHaveBeenCalledTimes(1);
    expect(sdk.init).toHaveBeenCalledTimes(1);
    expect(reporter.state).toBe("ready");
  });

  it("samples per spec section 9, tags the release and masks replays", () => {
    const { sdk } = fakeSdk();
    const options = sentryBrowserOptions({ dsn: DSN, release: "1.4.2" }, sdk);
    expect(options).toMatchObject({
      dsn: DSN,
      release: "1.4.2",
      tracesSampleRate: 0.1,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
      dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [] },
    });
    expect(sdk.browserTracingIntegration).toHaveBeenCalled();
    expect(sdk.replayIntegration).toHaveBeenCalledWith({ maskAllText: true, maskAllInputs: true, blockAllMedia: true });
    expect(options.integrations.map((i) => i.name)).toEqual(["BrowserTracing", "Replay"]);
    expect(
      options.beforeBreadcrumb({ category: "navigation", data: { from: "/a?patientRef=PT-1", to: "/b" } }),
    ).toEqual({ category: "navigation", data: { from: `/a?patientRef=${FILTERED}`, to: "/b" } });
    const span = options.beforeSendSpan({
      name: "GET /api/usage?patientRef=PT-3",
      attributes: { "url.full": { type: "string", value: "https://clinic.example/api/usage?patientRef=PT-3&page=1" } },
    } as unknown as Parameters<typeof options.beforeSendSpan>[0]);
    expect(JSON.stringify(span)).not.toContain("PT-3");
    expect(span.name).toBe(`GET /api/usage?patientRef=${FILTERED}`);
  });

  it("sends what happened before it loaded, once, in order, scrubbed, with the error screen's Error ID", async () => {
    const { sdk, sent } = fakeSdk();
    const { reporter, windowError, rejection, pageLoaded } = page(sdk);
    reporter.listen();
    windowError(new Error("hydration failed"));
    rejection(new Error("GET /api/usage?patientRef=PT-2003 failed"));
    reporter.report(new Error("Network request failed"), { errorId: "err_1700000000000_abcdefgh" });
    const started = reporter.start({ dsn: DSN, release: "1.0.0" });
    expect(sdk.captureException).not.toHaveBeenCalled();
    pageLoaded();
    await started;

    expect(sent.map((event) => event.exception?.values?.[0]?.value)).toEqual([
      "hydration failed",
      `GET /api/usage?patientRef=${FILTERED} failed`,
      "Network request failed",
    ]);
    expect(sent[2]?.tags).toEqual({ errorId: "err_1700000000000_abcdefgh" });
    const wire = JSON.stringify(sent);
    expect(wire).not.toMatch(/PT-200\d|pw1/);
    expect(sent[0]?.request?.url).toBe(`https://clinic.example/usage-log?patientRef=${FILTERED}&page=2`);

    // Once loaded, the SDK hears window errors itself; the reporter's listener is gone.
    windowError(new Error("later"));
    expect(sdk.captureException).toHaveBeenCalledTimes(3);
    reporter.report(new Error("a later error screen"), { errorId: "err_2_abcdefgh" });
    expect(sdk.captureException).toHaveBeenLastCalledWith(expect.any(Error), { tags: { errorId: "err_2_abcdefgh" } });
  });

  it("keeps at most BUFFERED_ERRORS_MAX errors while waiting", async () => {
    const { sdk } = fakeSdk();
    const { reporter, windowError, pageLoaded } = page(sdk);
    reporter.listen();
    for (let i = 0; i < BUFFERED_ERRORS_MAX + 5; i++) windowError(new Error(`loop ${i}`));
    const started = reporter.start({ dsn: DSN, release: null });
    pageLoaded();
    await started;
    expect(sdk.captureException).toHaveBeenCalledTimes(BUFFERED_ERRORS_MAX);
  });

  it("turns itself off when the SDK cannot load, and the page goes on", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { reporter, windowError, pageLoaded } = page(Promise.reject(new Error("chunk blocked")));
    reporter.listen();
    windowError(new Error("kept"));
    const started = reporter.start({ dsn: DSN, release: null });
    pageLoaded();
    await started;
    expect(reporter.state).toBe("off");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("Error reporting could not load"), expect.any(Error));
    warn.mockRestore();
  });
});
