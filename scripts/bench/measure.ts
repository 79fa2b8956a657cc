// What both bench modes measure of one page: server time, database round trips, the body, and the
// first-visit assets. Figures are printed, never asserted: these machines are too noisy for timed tests.
import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import type { CapturedStatement } from "../../db/local-server/server.mjs";
import type { RunningProduct } from "../lib/product";
import { DEMO_PASSWORD } from "../seed/demo";

export function buildUnlessAsked(argv: string[]): void {
  if (argv.includes("--no-build")) return;
  execFileSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "vite:build"], { stdio: "ignore" });
}

/** The measured requests per page `--runs N` asks for, or the mode's own number. */
export function runsOf(argv: string[], fallback: number): number {
  const i = argv.indexOf("--runs");
  if (i < 0) return fallback;
  const runs = Number(argv[i + 1]);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs takes a whole number of requests, e.g. --runs 30");
  return runs;
}

/** Signs in through the JSON API and answers the session cookie (every seeded user has the demo password). */
export async function signIn(product: RunningProduct, email: string): Promise<string> {
  const response = await fetch(`${product.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`Could not sign in as ${email}: ${response.status}`);
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
}

export interface Measured {
  /** Wall time of each measured request, from sending it to the last byte of its body, in ms. */
  times: number[];
  /** Database round trips (HTTP pipelines to the local server) of each measured request. */
  roundTrips: number[];
  /**
   * Time the engine spent running each measured request's statements, in ms (when the product
   * captures statements): what is left of the wall time is workerd, rendering and the HTTP hops.
   */
  databaseTimes: number[];
  /** The body of the last measured request. */
  body: string;
  contentType: string;
  /** What the last measured request ran, when the product captures statements. */
  statements: CapturedStatement[];
}

/**
 * `warmups` requests warm the isolate and caches; then `runs` are measured one after the other.
 * A page that redirects or fails stops the bench: its figures would be those of another page.
 */
export async function measurePage(
  product: RunningProduct,
  path: string,
  options: { cookie?: string; warmups: number; runs: number },
): Promise<Measured> {
  const headers: Record<string, string> = options.cookie ? { Cookie: options.cookie } : {};
  for (let i = 0; i < options.warmups; i++) await (await fetch(product.url + path, { headers })).text();
  const measured: Measured = {
    times: [],
    roundTrips: [],
    databaseTimes: [],
    body: "",
    contentType: "",
    statements: [],
  };
  for (let i = 0; i < options.runs; i++) {
    product.resetDatabaseStats?.();
    product.resetDatabaseStatements?.();
    const t0 = performance.now();
    const response = await fetch(product.url + path, { headers, redirect: "manual" });
    measured.body = await response.text();
    measured.times.push(performance.now() - t0);
    measured.roundTrips.push(product.databaseStats?.pipelines ?? Number.NaN);
    const ran = product.databaseStatements?.();
    if (ran) measured.databaseTimes.push(ran.reduce((sum, s) => sum + s.durationMs, 0));
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}`);
    measured.contentType = response.headers.get("Content-Type") ?? "";
  }
  measured.statements = product.databaseStatements?.() ?? [];
  return measured;
}

export function gzipBytes(text: string): number {
  return gzipSync(text).length;
}

/** The scripts and stylesheets a first visit loads: those the HTML names, and their static imports. */
export async function firstVisitAssets(product: RunningProduct, html: string) {
  const seen = new Set<string>();
  const queue = [
    ...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"|import\s*"(\/assets\/[^"]+\.js)"/g),
  ].map((m) => (m[1] ?? m[2]) as string);
  let js = 0;
  let css = 0;
  let jsFiles = 0;
  while (queue.length > 0) {
    const asset = queue.shift() as string;
    if (seen.has(asset)) continue;
    seen.add(asset);
    const body = await (await fetch(product.url + asset)).text();
    const size = gzipBytes(body);
    if (asset.endsWith(".css")) css += size;
    else {
      js += size;
      jsFiles++;
      for (const m of body.matchAll(/(?:from|import)\s*"(\.\/[^"]+\.js)"/g)) {
        queue.push(new URL(m[1] as string, product.url + asset).pathname);
      }
    }
  }
  return { js, css, jsFiles };
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The nearest-rank percentile (p50 of 30 runs is the 15th fastest, p95 the 29th). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
