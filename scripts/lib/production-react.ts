// Local runs (npm start, the end-to-end tests, the bench) run the React that production runs.
// `wrangler dev` bundles a worker with NODE_ENV=development unless its environment says otherwise
// (`wrangler deploy` bundles with production), and React picks its development build from that: the
// pages rendered 10-18% slower and every figure measured something production never runs.
// startProduct gives wrangler PRODUCTION_BUNDLE_ENV, then checks the bundles it wrote.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The environment wrangler bundles with: NODE_ENV as `wrangler deploy` sets it. */
export const PRODUCTION_BUNDLE_ENV = { NODE_ENV: "production" } as const;

/**
 * Strings only React's development build carries: its files' names (esbuild's path comments) and
 * warnings that only the development builds print (react and react/jsx-runtime; react-dom/server).
 */
const DEVELOPMENT_MARKERS = [
  "react.development.js",
  "react-jsx-runtime.development.js",
  "react-dom-server.browser.development.js",
  'should have a unique "key" prop',
  "Invalid ARIA attribute",
];

export function carriesDevelopmentReact(bundle: string): boolean {
  return DEVELOPMENT_MARKERS.some((marker) => bundle.includes(marker));
}

/** Where `wrangler dev` writes each worker's bundle while it runs (.wrangler/tmp/dev-XXXXXX/<name>.js). */
export function devBundleDirs(root: string): Set<string> {
  const tmp = path.join(root, ".wrangler", "tmp");
  if (!existsSync(tmp)) return new Set();
  return new Set(
    readdirSync(tmp)
      .filter((name) => name.startsWith("dev-"))
      .map((name) => path.join(tmp, name)),
  );
}

/**
 * Throws when a bundle wrangler wrote since `before` carries React's development build, and when it
 * wrote none: a wrangler that keeps its bundles elsewhere must not pass this check unread.
 */
export function checkProductionReact(root: string, before: Set<string>): void {
  const bundles = [...devBundleDirs(root)]
    .filter((dir) => !before.has(dir))
    .flatMap((dir) =>
      (existsSync(dir) ? readdirSync(dir) : []).filter((f) => f.endsWith(".js")).map((f) => path.join(dir, f)),
    );
  if (bundles.length === 0) {
    throw new Error(
      `wrangler dev wrote no bundle under ${path.join(root, ".wrangler", "tmp")}: cannot check which React it runs`,
    );
  }
  const development = bundles.filter((file) => carriesDevelopmentReact(readFileSync(file, "utf8")));
  if (development.length > 0) {
    throw new Error(
      `wrangler bundled React's development build (${development.join(", ")}): local runs must run what production runs (NODE_ENV=production)`,
    );
  }
}
