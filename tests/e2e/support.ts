import { readFileSync } from "node:fs";
import path from "node:path";
import { createClient } from "@libsql/client";
import { type Browser, type BrowserContext, test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";

/** Where the e2e global setup listens for "stop/start the database" (see global-setup.ts). */
export function controlPort(appPort: number): number {
  return appPort + 7;
}

/** Chromium's console words for a blocked script, style, image, connection or frame, and for a bad Permissions-Policy. */
const POLICY_MESSAGE = /Content[- ]Security[- ]Policy|Refused to |Permissions-Policy/i;

/**
 * Every spec imports `test` from here: the app runs with its real Content-Security-Policy, and
 * anything the browser refuses because of it fails the test, in every page of every context the
 * test opens (the `page` fixture's and `browser.newContext()`'s alike). Two channels: Chromium's
 * console message and the page's own `securitypolicyviolation` event.
 */
export const test = base.extend<{ cspViolations: string[]; cspGuard: undefined }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  cspViolations: async ({}, use) => {
    await use([]);
  },
  context: async ({ context, cspViolations }, use) => {
    await watchContext(context, cspViolations);
    await use(context);
  },
  cspGuard: [
    async ({ browser, cspViolations }, use) => {
      const restore = watchNewContexts(browser, cspViolations);
      await use(undefined);
      restore();
      expect(cspViolations, "the page broke the Content-Security-Policy (see tests/e2e/support.ts)").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

const watched = new WeakSet<BrowserContext>();

async function watchContext(context: BrowserContext, violations: string[]): Promise<void> {
  if (watched.has(context)) return;
  watched.add(context);
  const where = (page: Page | null) => (page ? ` (on ${page.url()})` : "");
  context.on("console", (message) => {
    if (POLICY_MESSAGE.test(message.text())) violations.push(`${message.text()}${where(message.page())}`);
  });
  await context.exposeBinding("__reportCspViolation", ({ page }, text: string) => {
    violations.push(`securitypolicyviolation: ${text}${where(page)}`);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
      report?.(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} at line ${event.lineNumber}`);
    });
  });
}

/** Watches the contexts (and pages) a test makes itself; answers how to stop. */
function watchNewContexts(browser: Browser, violations: string[]): () => void {
  const newContext = browser.newContext;
  const newPage = browser.newPage;
  browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
    const context = await newContext.apply(browser, args);
    await watchContext(context, violations);
    return context;
  };
  // browser.newPage() makes its own context, which can only be watched once the page exists.
  browser.newPage = async (...args: Parameters<Browser["newPage"]>) => {
    const page = await newPage.apply(browser, args);
    await watchContext(page.context(), violations);
    return page;
  };
  return () => {
    browser.newContext = newContext;
    browser.newPage = newPage;
  };
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Settled: either signed in (off the login screen) or refused with a message.
  await Promise.race([
    page.waitForURL((url) => url.pathname !== "/login"),
    page.getByRole("alert").first().waitFor(),
    page
      .getByText(/^Enter your/)
      .first()
      .waitFor(),
  ]);
}

export async function expectSignedInAs(page: Page, name: string) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("signed-in-user")).toHaveText(name);
}

/** A full-page screenshot in the HTML report, from the top (else a sticky header is drawn mid-page). */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

/** Nothing on the page is wider than the window: a phone never scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

export interface ListedVial {
  id: string;
  productName: string;
  baseUnit: string;
  unitsRemaining: number;
  controlled: boolean;
  recalled: boolean;
  isExpired: boolean;
}

/** A sealed vial at Downtown counted in units (U), usable and not a controlled substance: the last listed (latest expiry), which the shared e2e database's other tests are least likely to have touched. */
export async function sealedVial(page: Page): Promise<ListedVial> {
  const response = await page.request.get("/api/vials?state=sealed&recalled=false&pageSize=100");
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: ListedVial[] };
  const usable = items.filter((v) => v.baseUnit === "U" && !v.controlled && !v.isExpired && v.unitsRemaining >= 20);
  const vial = usable.at(-1);
  if (!vial) throw new Error("no usable sealed vial at Downtown");
  return vial;
}

/** One statement on the e2e database, for a state no screen makes quickly (stock on hand, a lot past its date); its rows. */
export async function onDatabase(sql: string, args: (string | number)[]) {
  const env = readFileSync(path.join(process.env.E2E_DATA_DIR ?? "", "workers.env"), "utf8");
  const value = (name: string) => env.match(new RegExp(`^${name}='([^']+)'$`, "m"))?.[1];
  const client = createClient({ url: value("DATABASE_URL") ?? "", authToken: value("DATABASE_AUTH_TOKEN") });
  try {
    return (await client.execute({ sql, args })).rows;
  } finally {
    client.close();
  }
}

/** The jobs worker next to the app under test (global-setup runs it with --test-scheduled on the app's port + 1). */
export function jobsUrl(page: Page): string {
  const app = new URL(page.url() === "about:blank" ? (test.info().project.use.baseURL ?? "") : page.url());
  return `http://127.0.0.1:${Number(app.port) + 1}`;
}

/** The jobs worker's every-minute work cron, as production's schedule fires it. */
export const WORK_CRON = "* * * * *";

/** Fires the jobs worker's work cron once, as the schedule would, and waits for its run to end. */
export async function fireWorkCron(page: Page) {
  const response = await fetch(`${jobsUrl(page)}/__scheduled?cron=${encodeURIComponent(WORK_CRON)}`);
  expect(response.ok, `the work cron answered ${response.status}`).toBe(true);
  await response.text();
}
