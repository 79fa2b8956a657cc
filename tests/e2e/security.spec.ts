// The browser side of the security headers, and npm start's secrets kept off command lines.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./support";

/** Injects an inline script, as an XSS would; the CSP must block it. */
async function injectInlineScript(page: import("@playwright/test").Page) {
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true";
    document.body.appendChild(script);
  });
}

test.describe("Content-Security-Policy", () => {
  test("the page hydrates with its nonce'd scripts, and an injected inline script is blocked and reported", async ({
    page,
    cspViolations,
  }) => {
    await page.goto("/login");
    // Hydrated: React's handlers run (a blocked Remix script would leave the page without them).
    await page.waitForFunction(() => "__reactRouterContext" in window || "__remixContext" in window);
    expect(cspViolations).toEqual([]);

    await injectInlineScript(page);
    await expect.poll(() => cspViolations.length).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
    expect(
      cspViolations.some((v) => /inline script.*Content Security Policy|Content Security Policy.*inline/.test(v)),
    ).toBe(true);
    expect(cspViolations.some((v) => /^securitypolicyviolation: script-src(-elem)? blocked inline/.test(v))).toBe(true);
    // Seen and checked: clear them so this test's guard passes.
    cspViolations.length = 0;
  });

  test("a violation left unreported fails the test (expected to fail)", async ({ page, cspViolations }) => {
    test.fail(true, "the CSP guard of tests/e2e/support.ts must fail a test whose page broke the policy");
    await page.goto("/login");
    await injectInlineScript(page);
    await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
  });

  test("pages in contexts a test opens itself are watched too", async ({ browser, cspViolations }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("/login");
    await injectInlineScript(page);
    await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
    cspViolations.length = 0;
    await context.close();
  });
});

test("npm start's secrets appear on no process's command line", async () => {
  const dataDir = process.env.E2E_DATA_DIR;
  expect(dataDir, "set by tests/e2e/global-setup.ts").toBeTruthy();
  const envFile = readFileSync(path.join(dataDir ?? "", "workers.env"), "utf8");
  const secrets = [...envFile.matchAll(/^(SESSION_SECRET|DATABASE_AUTH_TOKEN)='([^']+)'$/gm)].map((m) => m[2] ?? "");
  expect(secrets).toHaveLength(2);

  const commandLines = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      } catch {
        return ""; // the process ended meanwhile
      }
    });
  // The product's own processes are there to be read: both wranglers, pointed at the env file.
  const wranglers = commandLines.filter((line) => line.includes("wrangler.js dev") && line.includes(dataDir ?? ""));
  expect(wranglers).toHaveLength(2);
  for (const line of wranglers) expect(line).toContain(`--env-file ${path.join(dataDir ?? "", "workers.env")}`);
  for (const secret of secrets) {
    expect(commandLines.filter((line) => line.includes(secret))).toEqual([]);
  }
});
