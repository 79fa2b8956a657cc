// What ./browser loads by import() once the page has loaded, with a DSN: the part of Sentry's browser
// SDK the reporter uses and its options with the scrubber. Naming the four exports (rather than
// importing the whole package by import()) lets the bundler leave out the rest of the SDK.
export { browserTracingIntegration, captureException, init, replayIntegration } from "@sentry/browser";
export { sentryBrowserOptions } from "./browser-options";
