// The browser the end-to-end tests and the browser benches drive: Debian's Chromium (Playwright's own
// browser download does not work on these machines), with the flags that keep it quiet and headless.
import { existsSync } from "node:fs";

export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
