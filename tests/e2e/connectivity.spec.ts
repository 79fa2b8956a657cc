// The connection, visible (issue #25): the banner offline and back, screens that cannot work
// offline disabled with their reason, and, with the database stopped, the monitor's breaker
// opening, trying again 60 s later (half-open) and closing once the database is back.
import type { Page } from "@playwright/test";
import { controlPort, expect, signIn, test } from "./support";

const banner = (page: Page) => page.getByTestId("connectivity-banner");

test("offline, the banner says what works and what waits, and a screen that cannot wait is disabled with its reason", async ({
  page,
  context,
}) => {
  await signIn(page, "admin@demo.clinic");
  await page.goto("/receiving");
  const start = page.getByRole("button", { name: /start receiving/i }).first();
  await expect(start).toBeEnabled();
  await expect(banner(page)).toHaveCount(0);

  await context.setOffline(true);
  await expect(banner(page)).toHaveAttribute("data-state", "offline");
  await expect(banner(page)).toContainText("Offline: working from this device");
  await expect(banner(page)).toContainText("Starts, draws, empties, discards and counts are saved here");
  await expect(page.getByTestId("offline-disabled")).toContainText("This screen needs the connection");
  await expect(start).toBeDisabled();
  // Switching location changes the session: not offered offline, and it says so where it would be.
  const switcher = page.getByTestId("sidebar").getByTestId("location-switcher");
  await switcher.locator("summary").click();
  await expect(switcher).toContainText("Switching location needs the connection");
  await expect(switcher.getByRole("button").first()).toBeDisabled();
  await switcher.locator("summary").click();

  // Back: the server is asked, the screen refreshed, and the banner goes.
  await context.setOffline(false);
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByTestId("offline-disabled")).toHaveCount(0);
  await expect(start).toBeEnabled();
});

test("with the database stopped the breaker opens, tries again after 60 s, closes when it is back, and screens show the database boundary", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const control = `http://127.0.0.1:${controlPort(Number(new URL(baseURL ?? "").port))}`;
  await page.clock.install();
  await signIn(page, "manager@demo.clinic");
  await page.goto("/inventory");
  await expect(page.getByRole("heading", { name: "Inventory" })).toBeVisible();
  let checks = 0;
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/health") checks += 1;
  });
  // Every state the banner's breaker passes through, as the page shows it.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { breakerSeen: string[] }).breakerSeen = seen;
    new MutationObserver(() => {
      const state = document.querySelector("[data-testid=connectivity-banner]")?.getAttribute("data-breaker") ?? "none";
      if (seen.at(-1) !== state) seen.push(state);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const check = async (status: number) => {
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/health");
    await page.clock.fastForward(30_000);
    expect((await answered).status()).toBe(status);
  };

  await request.post(`${control}/database/stop`);
  try {
    await check(503);
    await expect(banner(page)).toHaveAttribute("data-state", "offline");
    await expect(banner(page)).toHaveAttribute("data-breaker", "closed");
    for (let i = 2; i <= 5; i++) await check(503);
    await expect(banner(page)).toHaveAttribute("data-breaker", "open");
    const retryAt = await page.evaluate(() => {
      const at = new Date(Date.now() + 60_000);
      return `${at.getHours()}:${String(at.getMinutes()).padStart(2, "0")}`;
    });
    await expect(banner(page)).toContainText(`The server is not answering; retrying at ${retryAt}.`);

    // Open: the next check does not ask the server.
    const before = checks;
    await page.clock.fastForward(30_000);
    await page.waitForTimeout(300);
    expect(checks).toBe(before);
    // 60 s after it opened, one trial goes out (half-open); it fails, so it opens again.
    await check(503);
    await expect(banner(page)).toHaveAttribute("data-breaker", "open");
    expect(await page.evaluate(() => (window as unknown as { breakerSeen: string[] }).breakerSeen)).toEqual(
      expect.arrayContaining(["open", "half-open"]),
    );
  } finally {
    await request.post(`${control}/database/start`);
  }

  // The database is back: the next trial (60 s after the last) closes the breaker; the banner goes.
  await page.clock.fastForward(30_000);
  await check(200);
  await expect(banner(page)).toHaveCount(0);

  // A screen opened while the database is down says so rather than show outdated figures.
  await request.post(`${control}/database/stop`);
  try {
    await page.getByTestId("sidebar").getByRole("link", { name: "Stock Levels" }).click();
    await expect(page.getByRole("heading", { name: "Database Connection Issue" })).toBeVisible();
    await expect(page.getByText("Data Safety Notice")).toBeVisible();
  } finally {
    await request.post(`${control}/database/start`);
  }
  await page.getByRole("button", { name: "Retry Connection" }).click();
  await expect(page.getByRole("heading", { name: "Stock Levels" })).toBeVisible();
});
