// npm run bench -- --navigation — issue #25's low-bandwidth budget, on the demo data in Chromium:
// for every screen of app/shell/areas.ts (ids taken from the demo data), one client-side navigation
// by a link click on a throttled 400 kbps profile with the page's assets already cached: bytes the
// browser received for it (every request it made: loader data, route discovery, the screen's own
// queries) and the time to the new page. Then the first-visit JavaScript of the sign-in page and
// the dashboard, cold (gzip bytes of every script the page loaded). Budget: ≤ 10 KiB per
// navigation on average. Printed, never asserted: these machines are shared and noisy.
//   --no-build     reuse build/
//   --as <email>   the demo user (default owner@demo.clinic, who may open every screen)
//   --json <file>  also write the figures as JSON
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import {
  type BrowserContext,
  type CDPSession,
  chromium,
  type Page,
  type Request as PlaywrightRequest,
} from "@playwright/test";
import { AREAS } from "../../app/shell/areas";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../lib/chromium";
import { startProduct } from "../lib/product";
import { DEMO_PASSWORD } from "../seed/demo";
import { buildUnlessAsked, kib, median } from "./measure";

/** The profile the issue names: 400 kbit/s each way, 150 ms latency (Chrome's "Slow 3G" is 400/400/400 ms). */
export const PROFILE = { latencyMs: 150, downloadKbps: 400, uploadKbps: 400 } as const;
export const BUDGET_BYTES = 10 * 1024;

/** Requests the page makes on its own clock, not because of the navigation (the 30 s connectivity check). */
const NOT_THE_NAVIGATION = [/\/health(\?|$)/];

interface Recorded {
  url: string;
  bytes: number;
  fromCache: boolean;
  done: boolean;
  status: number;
  /** Answered by the service worker: not the wire's bytes (its own fetch is counted by workerRecorder). */
  viaWorker?: boolean;
}

/** Counts what the page receives between start() and stop(), from the DevTools protocol's own figures. */
function networkRecorder(cdp: CDPSession) {
  let recording: Map<string, Recorded> | null = null;
  cdp.on("Network.requestWillBeSent", (event) => {
    if (!recording || !/^https?:/.test(event.request.url)) return;
    if (NOT_THE_NAVIGATION.some((re) => re.test(event.request.url))) return;
    recording.set(event.requestId, { url: event.request.url, bytes: 0, fromCache: false, done: false, status: 0 });
  });
  cdp.on("Network.requestServedFromCache", (event) => {
    const entry = recording?.get(event.requestId);
    if (entry) entry.fromCache = true;
  });
  cdp.on("Network.responseReceived", (event) => {
    const entry = recording?.get(event.requestId);
    if (!entry) return;
    entry.status = event.response.status;
    entry.viaWorker = event.response.fromServiceWorker === true;
  });
  cdp.on("Network.loadingFinished", (event) => {
    const entry = recording?.get(event.requestId);
    if (!entry) return;
    // Bytes received on the wire for this request: headers and body as sent (compressed). An
    // answer from the service worker crossed no wire; what the worker fetched is counted apart.
    entry.bytes = entry.viaWorker ? 0 : event.encodedDataLength;
    entry.done = true;
  });
  cdp.on("Network.loadingFailed", (event) => {
    const entry = recording?.get(event.requestId);
    if (entry) entry.done = true;
  });
  return {
    start() {
      recording = new Map();
    },
    inFlight: () => [...(recording?.values() ?? [])].filter((r) => !r.done).length,
    stop(): Recorded[] {
      const all = [...(recording?.values() ?? [])];
      recording = null;
      return all;
    },
  };
}

/**
 * What the service worker fetched from the network meanwhile (the screen's data it passes on, and
 * the page it keeps in the background for offline use), from Playwright's service-worker network
 * events (PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS, set before the browser starts).
 */
function workerRecorder(context: BrowserContext) {
  let recording: Promise<Recorded>[] | null = null;
  let inFlight = 0;
  context.on("request", (request) => {
    if (recording && request.serviceWorker()) inFlight += 1;
  });
  const settle = (request: PlaywrightRequest, failed: boolean) => {
    if (!recording || !request.serviceWorker()) return;
    inFlight = Math.max(0, inFlight - 1);
    if (NOT_THE_NAVIGATION.some((re) => re.test(request.url()))) return;
    recording.push(
      (failed ? Promise.resolve(null) : request.sizes().catch(() => null)).then((sizes) => ({
        url: request.url(),
        bytes: sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0,
        fromCache: false,
        done: true,
        status: 0,
        viaWorker: false,
      })),
    );
  };
  context.on("requestfinished", (request) => settle(request, false));
  context.on("requestfailed", (request) => settle(request, true));
  return {
    start() {
      recording = [];
      inFlight = 0;
    },
    inFlight: () => inFlight,
    async stop(): Promise<Recorded[]> {
      const all = await Promise.all(recording ?? []);
      recording = null;
      return all.map((r) => ({ ...r, url: `${r.url} (service worker)` }));
    },
  };
}

async function throttle(cdp: CDPSession, on: boolean) {
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: on ? PROFILE.latencyMs : 0,
    downloadThroughput: on ? (PROFILE.downloadKbps * 1000) / 8 : -1,
    uploadThroughput: on ? (PROFILE.uploadKbps * 1000) / 8 : -1,
  });
}

/** Until nothing the recorder follows has been in flight for `quietMs` (at most `limitMs`). */
async function networkQuiet(recorder: { inFlight(): number }, quietMs = 500, limitMs = 30_000) {
  const started = Date.now();
  let quietSince = Date.now();
  while (Date.now() - started < limitMs) {
    if (recorder.inFlight() > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function routerIdle(page: Page, target: string) {
  await page.waitForFunction(
    (expected) => {
      const router = (window as unknown as { __remixRouter?: { state: { navigation: { state: string } } } })
        .__remixRouter;
      return (
        router?.state.navigation.state === "idle" && window.location.pathname + window.location.search === expected
      );
    },
    target,
    { timeout: 60_000, polling: 10 },
  );
}

/** Every href on the page that stays on this origin, as path and query. */
async function linksOn(page: Page): Promise<string[]> {
  return page.$$eval("a[href]", (anchors) =>
    anchors
      .map((a) => new URL((a as HTMLAnchorElement).href, window.location.href))
      .filter((url) => url.origin === window.location.origin)
      .map((url) => url.pathname + url.search),
  );
}

interface Screen {
  area: string;
  /** The address navigated to, ids filled in. */
  target: string;
  /** The page whose link is clicked. */
  source: string;
}

/** `/products/{id}` → a RegExp matching its addresses, e.g. /products/3f2a… (not /products/new). */
function patternOf(area: string): RegExp {
  const parts = area.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("([0-9a-zA-Z-]{8,})")}(\\?.*)?$`);
}

/**
 * Finds, for each area, a page that links to it: the dashboard (its menu) if it does, else a page
 * already found (a list links to its records). Areas no page links to are navigated to from the
 * dashboard by the router, as a link would (reported as "router").
 */
async function findScreens(page: Page, baseUrl: string): Promise<Screen[]> {
  const linksOf = new Map<string, string[]>();
  const visit = async (address: string) => {
    if (linksOf.has(address)) return linksOf.get(address) as string[];
    const response = await page.goto(baseUrl + address);
    const links = response && response.status() < 400 ? await linksOn(page) : [];
    linksOf.set(address, links);
    return links;
  };
  await visit("/");
  const areas = Object.keys(AREAS);
  const found = new Map<string, Screen>();
  // Static addresses first, then records: each pass can open pages that link to the next.
  for (let pass = 0; pass < 3; pass++) {
    for (const area of areas) {
      if (found.has(area)) continue;
      if (!area.includes("{")) {
        const source = (await visit("/")).includes(area) ? "/" : null;
        if (source) found.set(area, { area, target: area, source });
        else if (pass === 2) found.set(area, { area, target: area, source: "" });
        else await visit(area);
        continue;
      }
      const pattern = patternOf(area);
      for (const [source, links] of linksOf) {
        const target = links.find((link) => pattern.test(link));
        if (target) {
          found.set(area, { area, target, source });
          break;
        }
      }
    }
    for (const screen of found.values()) await visit(screen.target);
    // Lists filtered by state (receipts by status) link to records the first page may not show.
    for (const extra of ["/receiving?status=open", "/receiving?status=completed", "/transfers?status=completed"]) {
      await visit(extra);
    }
  }
  return areas.map((area) => found.get(area) ?? { area, target: "", source: "" });
}

export interface NavigationFigure {
  area: string;
  target: string;
  how: "link" | "router" | "none";
  bytes: number;
  /** Of which: the app's hashed assets (chunks and their revalidations). */
  assetBytes: number;
  requests: number;
  ms: number;
  note?: string;
}

async function measureNavigation(
  page: Page,
  cdp: CDPSession,
  worker: ReturnType<typeof workerRecorder>,
  baseUrl: string,
  screen: Screen,
) {
  // Assets already cached: the screen once as a full page (and what it loads once hydrated), then
  // its source page, loaded already on the slow profile: changing the network conditions makes the
  // browser fire "online", and the connectivity monitor would refetch inside the measurement.
  await throttle(cdp, false);
  await page.goto(baseUrl + screen.target);
  await page.waitForLoadState("networkidle");
  await throttle(cdp, true);
  const from = screen.source || "/";
  await page.goto(baseUrl + from);
  await page.waitForLoadState("networkidle");
  const recorder = networkRecorder(cdp);
  recorder.start();
  worker.start();
  const link = page.locator(`a[href="${screen.target}"]`).filter({ visible: true }).first();
  const how = screen.source && (await link.count()) > 0 ? "link" : "router";
  const t0 = Date.now();
  if (how === "link") await link.click();
  else
    await page.evaluate((target) => {
      (window as unknown as { __remixRouter: { navigate: (to: string) => void } }).__remixRouter.navigate(target);
    }, screen.target);
  await routerIdle(page, screen.target);
  const ms = Date.now() - t0;
  await networkQuiet({ inFlight: () => recorder.inFlight() + worker.inFlight() });
  const requests = [...recorder.stop(), ...(await worker.stop())];
  const heading = await page
    .locator("main h1, h1")
    .first()
    .textContent({ timeout: 1000 })
    .catch(() => "");
  return {
    how,
    ms,
    bytes: requests.reduce((sum, r) => sum + r.bytes, 0),
    assetBytes: requests
      .filter((r) => new URL(r.url).pathname.startsWith("/assets/"))
      .reduce((sum, r) => sum + r.bytes, 0),
    requests: requests.length,
    urls: requests.map(
      (r) =>
        `${new URL(r.url).pathname}${new URL(r.url).search} ${r.status} ${r.bytes} B${r.fromCache ? " (cache)" : ""}`,
    ),
    heading: heading?.trim() ?? "",
  } as const;
}

/** Gzip bytes of every script a cold page load fetched (first visit: empty cache). */
async function firstVisitJs(baseUrl: string, address: string, signIn: boolean, as: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // Signed in in one context; the measured page opens in a new one (an empty cache) with its cookies.
    let storageState: Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>> | undefined;
    if (signIn) {
      const signing = await browser.newContext();
      await signInThroughForm(await signing.newPage(), baseUrl, as);
      storageState = await signing.storageState();
      await signing.close();
    }
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState });
    const page = await context.newPage();
    const scripts = new Map<string, number>();
    page.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      const body = await response.body().catch(() => null);
      if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body).length);
    });
    await page.goto(baseUrl + address);
    await page.waitForLoadState("networkidle");
    // Past the load event: what the page fetches then (error reporting, with a DSN) is counted too.
    await page.waitForTimeout(1500);
    return { bytes: [...scripts.values()].reduce((a, b) => a + b, 0), files: scripts.size };
  } finally {
    await browser.close();
  }
}

async function signInThroughForm(page: Page, baseUrl: string, email: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(DEMO_PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/"),
    page.getByRole("button", { name: /sign in/i }).click(),
  ]);
}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

export async function runNavigationBench(argv: string[]): Promise<void> {
  buildUnlessAsked(argv);
  // The service worker's own fetches are reported only with this set before the browser starts.
  process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = "1";
  const as = option(argv, "--as") ?? "owner@demo.clinic";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clinic-bench-nav-"));
  const product = await startProduct({ port: Number(process.env.BENCH_PORT ?? 8795), dataDir, quiet: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const worker = workerRecorder(context);
    await signInThroughForm(page, product.url, as);
    const screens = await findScreens(page, product.url);

    const figures: NavigationFigure[] = [];
    const details: Record<string, string[]> = {};
    for (const screen of screens) {
      if (!screen.target) {
        figures.push({
          area: screen.area,
          target: "",
          how: "none",
          bytes: 0,
          assetBytes: 0,
          requests: 0,
          ms: 0,
          note: "no record in the demo data",
        });
        continue;
      }
      const measured = await measureNavigation(page, cdp, worker, product.url, screen);
      details[screen.target] = measured.urls;
      figures.push({
        area: screen.area,
        target: screen.target,
        how: measured.how,
        bytes: measured.bytes,
        assetBytes: measured.assetBytes,
        requests: measured.requests,
        ms: measured.ms,
        note: measured.heading,
      });
    }
    const measured = figures.filter((f) => f.how !== "none");
    const average = measured.reduce((sum, f) => sum + f.bytes, 0) / Math.max(1, measured.length);
    console.log(
      `\nClient-side navigations on ${PROFILE.downloadKbps}/${PROFILE.uploadKbps} kbit/s, ${PROFILE.latencyMs} ms latency, as ${as}, assets cached\n`,
    );
    console.table(
      figures.map((f) => ({
        screen: f.area,
        address: f.target.length > 48 ? `${f.target.slice(0, 45)}...` : f.target,
        by: f.how,
        received: f.how === "none" ? "-" : kib(f.bytes),
        "of it assets": f.how === "none" ? "-" : kib(f.assetBytes),
        requests: f.requests,
        "ms to page": f.how === "none" ? "-" : f.ms,
        page: f.note,
      })),
    );
    const over = measured.filter((f) => f.bytes > BUDGET_BYTES);
    console.log(
      `Average: ${kib(average)} over ${measured.length} screens (budget ${kib(BUDGET_BYTES)}); median time ${median(measured.map((f) => f.ms))} ms`,
    );
    if (over.length > 0) {
      console.log(`Over ${kib(BUDGET_BYTES)}:`);
      for (const f of over) console.log(`  ${f.target}: ${details[f.target]?.join(", ")}`);
    }

    const login = await firstVisitJs(product.url, "/login", false, as);
    const dashboard = await firstVisitJs(product.url, "/", true, as);
    console.log(
      `\nFirst-visit JavaScript (cold cache, gzip): sign-in ${kib(login.bytes)} in ${login.files} files; dashboard ${kib(dashboard.bytes)} in ${dashboard.files} files`,
    );
    const out = option(argv, "--json");
    if (out) {
      writeFileSync(
        out,
        JSON.stringify({ profile: PROFILE, as, figures, details, average, login, dashboard }, null, 2),
      );
    }
  } finally {
    await browser.close();
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
