// Issue 24's whole way, as Downtown's admin on a desktop, then on a phone: a Square item sales CSV
// and a Zenoti sales accrual XLSX made by this test (invented transactions, a customer's name the
// import must drop), each previewed, imported by the jobs worker with the bar running to the end;
// the file's unknown item mapped to a service; the reconciliation's expectations grown by exactly
// what was sold through the recipes, with each variance split; and the same Square file uploaded
// again changes nothing.

import type { Page } from "@playwright/test";
import writeXlsxFile from "write-excel-file/node";
import { squareCsv, ZENOTI_HEADERS, zenotiRow } from "../support/sales-files";
import { expect, expectNoSidewaysScroll, fireWorkCron, onDatabase, signIn, test } from "./support";

const run = Date.now().toString(36).toUpperCase();
/** Yesterday, so the sales fall in the reconciliation's default period (the last 30 days). */
const yesterday = new Date(Date.now() - 86_400_000);
const isoDay = yesterday.toISOString().slice(0, 10);
const usDay = `${yesterday.getUTCMonth() + 1}/${yesterday.getUTCDate()}/${yesterday.getUTCFullYear()}`;
const UNKNOWN = `E2E brow lift ${run}`;

/** Two glabella treatments, one refunded (20 U of Botox net), a gift card, an unknown item thrice, a serum sold. */
const SQUARE = squareCsv([
  {
    Date: isoDay,
    Time: "10:15:00",
    Item: "Glabellar lines – toxin",
    SKU: "TOX-GLAB",
    Qty: "2",
    "Net Sales": "$560.00",
    "Transaction ID": `SQ-${run}-1`,
    "Itemization Type": "Service",
    Employee: "Dr. Ada North",
    "Customer Name": "Pat Example",
  },
  {
    Date: isoDay,
    Time: "16:40:00",
    Item: "Glabellar lines – toxin",
    SKU: "TOX-GLAB",
    Qty: "-1",
    "Net Sales": "($280.00)",
    "Transaction ID": `SQ-${run}-2`,
    "Event Type": "Refund",
    "Itemization Type": "Service",
  },
  {
    Date: isoDay,
    Time: "11:00:00",
    Item: "Gift card",
    Qty: "1",
    "Net Sales": "$100.00",
    "Transaction ID": `SQ-${run}-3`,
    "Itemization Type": "Gift Card",
  },
  {
    Date: isoDay,
    Time: "12:30:00",
    Item: UNKNOWN,
    Qty: "3",
    "Net Sales": "$720.00",
    "Transaction ID": `SQ-${run}-4`,
    "Itemization Type": "Service",
  },
  {
    Date: isoDay,
    Time: "12:31:00",
    Item: "C E Ferulic 30 mL",
    SKU: "SKC-CEF-30",
    Qty: "1",
    "Net Sales": "$182.00",
    "Transaction ID": `SQ-${run}-4`,
  },
]);

/** Zenoti's report as Excel writes it: title rows, the header, a crow's feet treatment (24 U of Botox), a package, the totals. */
async function zenotiXlsx(): Promise<Buffer> {
  const text = (value: string) => ({ value, type: String });
  const row = (values: Record<string, string>) => zenotiRow(values).map(text);
  return writeXlsxFile([
    [text("Sales Accrual Report")],
    [text("Center: Downtown")],
    [],
    ZENOTI_HEADERS.map(text),
    row({
      "Item Type": "Service",
      "Item Name": "Crow's feet – toxin",
      "Item Code": "TOX-CROW",
      "Sales (Exc. Tax)": "336.00",
      "Invoice Closed Date": `${usDay} 2:30 PM`,
      "Invoice No": `ZN-${run}-1`,
      Employee: "Dr. Ada North",
      Qty: "1",
    }),
    row({
      "Item Type": "Package",
      "Item Name": "Toxin package x3",
      "Sales (Exc. Tax)": "900.00",
      "Invoice Closed Date": `${usDay} 3:00 PM`,
      "Invoice No": `ZN-${run}-2`,
      Qty: "1",
    }),
    [text("Total"), text(""), text(""), text(""), text("1236.00")],
  ]).toBuffer();
}

interface Item {
  product: string;
  variation: string;
  expected: number;
  variance: { units: number };
  split: { recipeDrift: number; waste: number; unexplained: number };
}

async function reconciled(page: Page, product: string): Promise<Item> {
  const [downtown] = await onDatabase("SELECT id FROM locations WHERE code = 'DTN'", []);
  const response = await page.request.get(`/api/reconciliation?locationId=${downtown?.id}`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: Item[] };
  const item = items.find((i) => i.product === product && i.variation === "100 U vial");
  return (
    item ?? {
      product,
      variation: "100 U vial",
      expected: 0,
      variance: { units: 0 },
      split: { recipeDrift: 0, waste: 0, unexplained: 0 },
    }
  );
}

/** Uploads a file, checks its preview, imports it and runs the worker until the bar is full. */
async function importFile(
  page: Page,
  file: { name: string; mimeType: string; buffer: Buffer },
  preset: string,
  rows: number,
) {
  await page.goto("/sales-import");
  await page.getByLabel("Sales file (CSV or XLSX)").setInputFiles(file);
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByText(`Recognised: ${preset} export`)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.getByRole("button", { name: `Import ${rows} rows` }).click();
  const bar = page.getByRole("progressbar");
  await expect(bar).toBeVisible();
  await fireWorkCron(page);
  // No reload: the page reads itself again while the worker runs.
  await expect(bar).toHaveAttribute("aria-valuetext", `${rows} of ${rows} rows`, { timeout: 10_000 });
}

test("a Square CSV and a Zenoti XLSX imported, an unknown item mapped, reconciled; the same file again changes nothing", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@demo.clinic");
  const botoxBefore = await reconciled(page, "Botox Cosmetic");
  const xeominBefore = await reconciled(page, "Xeomin");

  await importFile(
    page,
    { name: `square-${run}.csv`, mimeType: "text/csv", buffer: Buffer.from(SQUARE) },
    "Square item sales",
    5,
  );
  await expect(page.getByText("4 imported · 0 duplicates · 1 skipped · 1 unmapped · 0 errors")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await importFile(
    page,
    {
      name: `zenoti-${run}.xlsx`,
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: await zenotiXlsx(),
    },
    "Zenoti sales accrual",
    2,
  );
  await expect(page.getByText("1 imported · 0 duplicates · 1 skipped · 0 unmapped · 0 errors")).toBeVisible();

  // The unknown item, listed once, found a service by searching, mapped to the forehead service (20 U of Xeomin each).
  await page.goto("/sales-import");
  await expect(page.getByRole("row").filter({ hasText: UNKNOWN })).toHaveCount(1);
  await page.getByRole("link", { name: `Map ${UNKNOWN}` }).click();
  await expect(page.getByRole("heading", { name: `Map ${UNKNOWN}` })).toBeVisible();
  await page.getByLabel("Search").fill("forehead");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByLabel("Service: Forehead lines – toxin").check();
  await expectNoSidewaysScroll(page);
  await page.getByRole("button", { name: "Map", exact: true }).click();
  await expect(page).toHaveURL(/\/sales-import$/);
  await expect(page.getByRole("link", { name: `Map ${UNKNOWN}` })).toHaveCount(0);

  // Reconciliation: Botox expects 2 − 1 glabella (20 U) + 1 crow's feet (24 U) more; Xeomin 3 foreheads (60 U).
  const botox = await reconciled(page, "Botox Cosmetic");
  const xeomin = await reconciled(page, "Xeomin");
  expect(botox.expected - botoxBefore.expected).toBe(44);
  expect(xeomin.expected - xeominBefore.expected).toBe(60);
  for (const item of [botox, xeomin]) {
    expect(item.split.recipeDrift + item.split.waste + item.split.unexplained).toBeCloseTo(item.variance.units, 6);
  }
  await page.goto("/reconciliation");
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "Xeomin · 100 U vial" }) });
  await expect(row).toBeVisible();
  await expect(row.getByRole("link", { name: `${xeomin.expected} U`, exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);

  // The same Square file again: every row a duplicate, nothing new anywhere.
  const lines = async () => Number((await onDatabase("SELECT count(*) AS n FROM sales_lines", []))[0]?.n);
  const movements = async () =>
    Number((await onDatabase("SELECT count(*) AS n FROM stock_movements WHERE type = 'SALE'", []))[0]?.n);
  const [linesBefore, movementsBefore] = [await lines(), await movements()];
  await importFile(
    page,
    { name: `square-${run}-again.csv`, mimeType: "text/csv", buffer: Buffer.from(SQUARE) },
    "Square item sales",
    5,
  );
  await expect(page.getByText("0 imported · 4 duplicates · 1 skipped · 0 unmapped · 0 errors")).toBeVisible();
  expect([await lines(), await movements()]).toEqual([linesBefore, movementsBefore]);
  expect((await reconciled(page, "Botox Cosmetic")).expected).toBe(botox.expected);
  expect((await reconciled(page, "Xeomin")).expected).toBe(xeomin.expected);

  // The customer's name was never stored.
  const named = await onDatabase("SELECT count(*) AS n FROM import_row_errors WHERE value LIKE '%Pat Example%'", []);
  expect(Number(named[0]?.n)).toBe(0);
});
