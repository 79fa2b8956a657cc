// The part of Sentry's browser SDK the reporter uses, loaded by import() from ./browser. Naming the
// four exports (rather than importing the whole package by import()) lets the bundler leave out the
// rest of the SDK: feedback widgets, other frameworks' integrations.
export { browserTracingIntegration, captureException, init, replayIntegration } from "@sentry/browser";
