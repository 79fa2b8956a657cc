// The dashboard in a browser: its figures equal the API's for two locations and in organization
// mode; a widget whose query fails (its table renamed for the test) shows the section error while
// the others still show; staff see why there is no recent activity; and it reads as a stack of
// cards on a phone and a grid on a desktop (screenshots attached).
import type { Page } from "@playwright/test";
import { attachScreenshot, expect, expectNoSidewaysScroll, fireWorkCron, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const FIGURES = [
  "vialsOnHand",
  "inUse",
  "expiringSoon",
  "expiringSoonValueCents",
  "expired",
  "recalled",
  "belowPar",
  "stockValueCents",
  "inTransitToHere",
  "openDiscrepancies",
] as const;

const switcherChoices = (page: Page) => page.getByRole("form", { name: "Where you work" }).getByRole("button");

async function switchTo(page: Page, choice: RegExp) {
  await page.getByTestId("sidebar").getByTestId("location-switcher").locator("summary").click();
  await switcherChoices(page).filter({ hasText: choice }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Each figure as the page shows it (its raw value, `data-value`), and this month's waste. */
async function pageFigures(page: Page): Promise<Record<string, number>> {
  const names = [...FIGURES, "wasteThisMonth", "wasteThisMonthUnits"];
  return page.evaluate(
    (names) =>
      Object.fromEntries(
        names.map((name) => {
          const figure = document.querySelector(`[data-stat="${name}"]`);
          const value =
            figure?.getAttribute("data-value") ?? figure?.querySelector("[data-value]")?.getAttribute("data-value");
          return [name, Number(value)];
        }),
      ),
    names,
  );
}

async function apiFigures(page: Page, locationId: string): Promise<Record<string, number>> {
  const response = await page.request.get(`/api/dashboard/stats?locationId=${locationId}`);
  expect(response.status()).toBe(200);
  const stats = (await response.json()) as Record<string, number> & {
    wasteThisMonth: { units: number; cents: number };
  };
  return {
    ...Object.fromEntries(FIGURES.map((name) => [name, stats[name] as number])),
    wasteThisMonth: stats.wasteThisMonth.cents,
    wasteThisMonthUnits: stats.wasteThisMonth.units,
  };
}

test.describe("the dashboard's figures", () => {
  test.use({ viewport: DESKTOP });

  test("equal the API's at two locations and in organization mode", async ({ page }) => {
    await signIn(page, "owner@demo.clinic");
    const mine = await page.request.get("/api/locations/my");
    const locations = (await mine.json()) as { locationId: string; location: { code: string; name: string } }[];
    const idOf = (code: string) => locations.find((l) => l.location.code === code)?.locationId ?? "";
    for (const [choice, locationId] of [
      [/Downtown/, idOf("DTN")],
      [/Westside/, idOf("WST")],
      [/ALL LOCATIONS/, "all"],
    ] as const) {
      await switchTo(page, choice);
      await expect(page.locator('[data-widget="stats"] [data-stat="vialsOnHand"]')).toBeVisible();
      // The e2e database is shared with other specs: compare a fresh page with a fresh answer until they agree.
      await expect
        .poll(async () => {
          await page.reload();
          const [shown, answered] = [await pageFigures(page), await apiFigures(page, locationId)];
          return JSON.stringify(shown) === JSON.stringify(answered) ? "the same" : JSON.stringify({ shown, answered });
        })
        .toBe("the same");
    }
    // Organization mode counts more vials than one location.
    const [all, downtown] = [await apiFigures(page, "all"), await apiFigures(page, idOf("DTN"))];
    expect(all.vialsOnHand ?? 0).toBeGreaterThan(downtown.vialsOnHand ?? 0);
  });

  test("are the jobs worker's of the last minute, in organization mode and at a location, say so, and equal the API's", async ({
    page,
  }) => {
    await signIn(page, "owner@demo.clinic");
    await switchTo(page, /ALL LOCATIONS/);
    await fireWorkCron(page);
    await expect
      .poll(async () => {
        await page.reload();
        const asOf = page.getByTestId("figures-as-of").first();
        if (!(await asOf.isVisible())) return "no worked-out figures shown";
        const [shown, answered] = [await pageFigures(page), await apiFigures(page, "all")];
        return JSON.stringify(shown) === JSON.stringify(answered) ? "the same" : JSON.stringify({ shown, answered });
      })
      .toBe("the same");
    await expect(page.getByTestId("figures-as-of").first()).toContainText(
      /Every location, as of .+: worked out every minute\./,
    );
    const api = (await (await page.request.get("/api/dashboard/stats?locationId=all")).json()) as { asOf: string };
    expect(Date.now() - Date.parse(api.asOf)).toBeLessThan(3 * 60 * 1000);
    // One location's view reads its own part of the same run, says so, and equals its API.
    await switchTo(page, /Downtown/);
    await expect(page.getByTestId("figures-as-of").first()).toContainText(/^As of .+: worked out every minute\./);
    const mine = (await (await page.request.get("/api/locations/my")).json()) as {
      locationId: string;
      location: { code: string };
    }[];
    const downtown = mine.find((l) => l.location.code === "DTN")?.locationId ?? "";
    expect(await pageFigures(page)).toEqual(await apiFigures(page, downtown));
  });

  test("a widget whose query fails shows the section error; the others still show", async ({ page }) => {
    await signIn(page, "owner@demo.clinic");
    await onDatabase("ALTER TABLE backups RENAME TO backups_e2e_away", []);
    try {
      await page.goto("/");
      const backups = page.locator('[data-widget="backups"]');
      await expect(backups.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
      await expect(backups).toContainText("This section encountered an error and couldn't load properly.");
      await expect(backups.getByRole("button", { name: "Try Again" })).toBeVisible();
      await expect(backups.getByRole("button", { name: "Reload Page" })).toBeVisible();
      for (const widget of ["stats", "waste", "par-status", "in-use", "activity"]) {
        await expect(page.locator(`section[data-widget="${widget}"]`)).toBeVisible();
      }
      await expect(page.locator("[data-widget-error]")).toHaveCount(1);
    } finally {
      await onDatabase("ALTER TABLE backups_e2e_away RENAME TO backups", []);
    }
    // Try Again reads the page's data again: the table is back, and so is the widget.
    await page.locator('[data-widget="backups"]').getByRole("button", { name: "Try Again" }).click();
    await expect(page.locator('section[data-widget="backups"]')).toContainText("Last verified restore");
  });

  test("staff see the stock, and why there is no recent activity or backup line", async ({ page }) => {
    await signIn(page, "staff@demo.clinic");
    await expect(page.locator('section[data-widget="stats"]')).toBeVisible();
    await expect(page.locator('section[data-widget="activity"]')).toContainText(
      "Recent activity is for managers and admins.",
    );
    await expect(page.locator('[data-widget="backups"]')).toHaveCount(0);
  });
});

test("a stack of cards on a phone, a grid on a desktop", async ({ page }, testInfo) => {
  await page.setViewportSize(PHONE);
  await signIn(page, "admin@demo.clinic");
  await expect(page.locator('section[data-widget="stats"]')).toBeVisible();
  await expectNoSidewaysScroll(page);
  const boxes = async () =>
    Promise.all(
      ["stats", "waste", "par-status"].map(async (w) => page.locator(`section[data-widget="${w}"]`).boundingBox()),
    );
  // Phone: one column, each card the width of the screen (less its margins), one under the other.
  const [stats, waste, par] = await boxes();
  expect(stats && waste && par).toBeTruthy();
  if (stats && waste && par) {
    expect(waste.x).toBe(par.x);
    expect(par.y).toBeGreaterThan(waste.y + waste.height - 1);
    expect(stats.width).toBeGreaterThan(PHONE.width * 0.8);
  }
  await attachScreenshot(page, testInfo, "dashboard-390");
  if (process.env.DASHBOARD_SHOTS)
    await page.screenshot({ path: `${process.env.DASHBOARD_SHOTS}-phone.png`, fullPage: true });

  await page.setViewportSize(DESKTOP);
  await expectNoSidewaysScroll(page);
  // Desktop: waste and par status side by side.
  const [, wide, beside] = await boxes();
  if (wide && beside) {
    expect(beside.x).toBeGreaterThan(wide.x + wide.width - 1);
    expect(Math.abs(beside.y - wide.y)).toBeLessThan(2);
  }
  await attachScreenshot(page, testInfo, "dashboard-1366");
  if (process.env.DASHBOARD_SHOTS)
    await page.screenshot({ path: `${process.env.DASHBOARD_SHOTS}-desktop.png`, fullPage: true });
});
