// Sentry's browser options (ADR 0037), loaded with the SDK by ./sentry-sdk, never on a first visit.
import type { BrowserOptions } from "@sentry/browser";
import { scrub } from "./scrub";

/** Spec section 9: traces 10%, session replays 10%, replays of a session with an error 100%. */
export const BROWSER_SAMPLING = {
  tracesSampleRate: 0.1,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1,
} as const;

interface Integrations {
  browserTracingIntegration: typeof import("@sentry/browser").browserTracingIntegration;
  replayIntegration: typeof import("@sentry/browser").replayIntegration;
}

export function sentryBrowserOptions(config: { dsn: string; release: string | null }, sdk: Integrations) {
  return {
    dsn: config.dsn,
    release: config.release ?? undefined,
    ...BROWSER_SAMPLING,
    // No user, cookies, headers or bodies are collected; what is left goes through the scrubber.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [] },
    integrations: [
      sdk.browserTracingIntegration(),
      // Replays show no text, no typed value and no image: patient references never leave in them.
      sdk.replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true }),
    ],
    beforeSend: (event) => scrub(event),
    // Traces are streamed span by span (Sentry 11's default), so spans are scrubbed one at a time.
    beforeSendSpan: (span) => scrub(span),
    beforeBreadcrumb: (breadcrumb) => scrub(breadcrumb),
  } satisfies BrowserOptions;
}
