// The reconciliation at a phone's width (390 × 844) and on a desktop, as Westside's manager
// (READ_REPORTS there), on the demo's seeded ledger with sales lines of this run's own (written
// as an import leaves them; the import itself is the sales-import spec's): the Botox 100 U vial's
// expected usage grows by what the run sold through the glabella recipe (20 U each: 2 + 1 sold, 1
// refunded, so 40 U), its row shows the variance and its split, its drill-down lists the run's lines,
// the CSV downloads the table; a phone never scrolls sideways. Staff cannot open it (403).
import { attachScreenshot, expect, expectNoSidewaysScroll, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const run = Date.now().toString(36).toUpperCase();
const ROW = "Botox Cosmetic · 100 U vial";
/** The last 7 days (UTC: Westside's zone is read on the server; a day either way changes nothing here). Not a
 * period the jobs worker works out ahead (30 or 365 days), so it is summed as asked and shows this run's sales at once. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const PERIOD = `from=${day(-6)}&to=${day(1)}`;

interface Item {
  variationId: string;
  product: string;
  variation: string;
  expected: number;
  actual: number;
  variance: { units: number; percent: number | null; cents: number };
  split: { recipeDrift: number; waste: number; unexplained: number };
}

async function botoxRow(page: import("@playwright/test").Page): Promise<Item | undefined> {
  const response = await page.request.get(`/api/reconciliation?${PERIOD}`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: Item[] };
  return items.find((i) => i.product === "Botox Cosmetic" && i.variation === "100 U vial");
}

/** This run's sales at Westside, a minute ago: the glabella service twice and one refund (40 U of Botox net). */
async function sellGlabella() {
  const [place] = await onDatabase("SELECT id, organization_id AS org FROM locations WHERE code = 'WST'", []);
  const [service] = await onDatabase("SELECT id FROM services WHERE code = 'TOX-GLAB'", []);
  const [owner] = await onDatabase("SELECT id FROM users WHERE email = 'owner@demo.clinic'", []);
  const [location, org, serviceId] = [String(place?.id), String(place?.org), String(service?.id)];
  const job = `e2e-recon-${run}`;
  const at = Date.now() - 60_000;
  await onDatabase(
    `INSERT INTO import_jobs (id, organization_id, kind, location_id, status, source, file_name, format, file_hash,
       original_key, rows_key, rows_bytes, headers, mapping, time_zone, rows_done, rows_total, imported, created_by,
       created_at, queued_at, started_at, finished_at)
     VALUES (?, ?, 'sales', ?, 'completed', 'square', 'e2e.csv', 'csv', ?, ?, ?, 0, '[]', '{}', 'UTC', 3, 3, 3, ?, ?, ?, ?, ?)`,
    [job, org, location, "0".repeat(64), job, job, String(owner?.id), at, at, at, at],
  );
  await onDatabase(
    `INSERT INTO sale_items (organization_id, item_key, name, kind, service_id, created_at) VALUES (?, ?, ?, 'service', ?, ?)`,
    [org, `name:e2e glabella ${run.toLowerCase()}`, `E2E glabella ${run}`, serviceId, at],
  );
  const [item] = await onDatabase("SELECT id FROM sale_items WHERE organization_id = ? AND item_key = ?", [
    org,
    `name:e2e glabella ${run.toLowerCase()}`,
  ]);
  for (const [i, quantity] of [2, 1, -1].entries()) {
    await onDatabase(
      `INSERT INTO sales_lines (organization_id, row_key, job_id, row_number, location_id, sold_at, sale_item_id,
         quantity, net_cents, transaction_ref, provider) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'Dr. E2E')`,
      [
        org,
        `${job}|${i}`,
        job,
        i + 1,
        location,
        at + i,
        Number(item?.id),
        quantity,
        quantity * 28_000,
        `E2E-${run}-${i}`,
      ],
    );
  }
}

test("the variances and their split, each drilling down to the sales lines behind it; the CSV; at 390 px and on a desktop", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const before = await botoxRow(page);
  await sellGlabella();
  const after = await botoxRow(page);
  // 2 + 1 − 1 glabella × 20 U of the recipe.
  expect((after?.expected ?? 0) - (before?.expected ?? 0)).toBe(40);
  if (!after) throw new Error("no Botox row");
  expect(after.split.recipeDrift + after.split.waste + after.split.unexplained).toBeCloseTo(after.variance.units, 6);

  await page.goto(`/reconciliation?${PERIOD}`);
  await expect(page.getByRole("heading", { name: "Reconciliation", level: 1 })).toBeVisible();
  await expect(page.getByText(/variations, \d+ flagged/)).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: ROW }) });
  await expect(row).toBeVisible();
  // The expected usage as the API gave it, in units, linking to the sales behind it.
  await expect(row.getByRole("link", { name: `${after.expected} U`, exact: true })).toBeVisible();
  await attachScreenshot(page, testInfo, "reconciliation-desktop");

  // The CSV of the whole table.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const download = await downloading;
  const csv = await (await import("node:fs/promises")).readFile((await download.path()) ?? "", "utf8");
  expect(csv).toContain("Product,Variation,Unit,Expected,Actual,Stock change,Variance");
  expect(csv).toContain(`Botox Cosmetic,100 U vial,U,${after.expected},`);

  // The drill-down: the figures, the drift by provider, this run's three sales lines (newest first).
  await row.getByRole("link", { name: ROW }).click();
  await expect(page.getByRole("heading", { name: ROW, level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recipe drift by provider" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Waste and unexplained loss" })).toBeVisible();
  const sales = page.getByRole("table", { name: "Sales lines" });
  for (const i of [0, 1, 2]) await expect(sales.getByRole("row").filter({ hasText: `E2E-${run}-${i}` })).toBeVisible();
  await expect(sales.getByRole("row").filter({ hasText: `E2E-${run}-2` })).toContainText("−20 U");
  await page.getByRole("link", { name: "Waste", exact: true }).first().click();
  await expect(page).toHaveURL(/kind=waste#movements$/);
  await expect(page.locator('[aria-current="true"]')).toHaveText("Waste");

  // A phone: the table as cards, nothing wider than the screen.
  await page.setViewportSize(PHONE);
  await page.goto("/reconciliation");
  await expect(page.getByRole("heading", { name: "Reconciliation", level: 1 })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.goto(`/reconciliation?${PERIOD}`);
  await expect(page.getByRole("link", { name: ROW })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "reconciliation-phone");
  await page.getByRole("link", { name: ROW }).click();
  await expect(page.getByRole("heading", { name: ROW, level: 1 })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "reconciliation-detail-phone");
});

test("staff cannot open the reconciliation: the page and the API answer 403", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, "staff@demo.clinic");
  const response = await page.goto("/reconciliation");
  expect(response?.status()).toBe(403);
  const api = await page.request.get("/api/reconciliation");
  expect(api.status()).toBe(403);
  expect(await api.json()).toMatchObject({ code: "forbidden" });
});
