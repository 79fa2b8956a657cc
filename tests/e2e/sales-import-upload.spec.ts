// The sales import screen end to end on a phone (390x844), without reloading: a Square export
// uploaded, its preview, "Import 30 rows", the bar moving to the end when the jobs worker runs, the
// unknown item mapped, and a binary file refused with its message.
import { expect, expectNoSidewaysScroll, fireWorkCron, signIn, test } from "./support";

const HEADER =
  "Date,Time,Time Zone,Category,Item,Qty,Price Point Name,SKU,Modifiers Applied,Gross Sales,Discounts,Net Sales,Tax,Transaction ID,Payment ID,Event Type,Location,Customer Name,GTIN,Itemization Type,Employee";
const row = (n: number) =>
  `2026-03-0${1 + (n % 9)},10:00:00,Eastern Time (US & Canada),Injectables,Mystery Serum,1,Regular,,,$240.00,$0.00,$240.00,$0.00,TXU${n},P${n},Payment,Downtown,Jane,,Physical Item,Dr. Lee`;

test("a sales file: upload, preview, import with a moving bar, map its unknown item; a binary file refused", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "admin@demo.clinic");
  await page.goto("/sales-import");
  await expectNoSidewaysScroll(page);
  await page.getByLabel("Sales file (CSV or XLSX)").setInputFiles({
    name: "square.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${[HEADER, ...Array.from({ length: 30 }, (_, i) => row(i))].join("\n")}\n`),
  });
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByText("Recognised: Square item sales export")).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.getByRole("button", { name: "Import 30 rows" }).click();
  await expect(page.getByRole("progressbar")).toBeVisible();
  await expect(page.getByText("0 of 30 rows")).toBeVisible();
  await fireWorkCron(page);
  // No reload: the page reads itself again every 2 s while the import runs.
  await expect(page.getByText("30 of 30 rows")).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText("Imported ·").first()).toBeVisible();
  await page.goto("/sales-import");
  await page.getByRole("link", { name: "Map Mystery Serum" }).click();
  await expectNoSidewaysScroll(page);
  await page.getByLabel("Not stock (e.g. a fee)").check();
  await page.getByRole("button", { name: "Map", exact: true }).click();
  await expect(page).toHaveURL(/\/sales-import$/);
  await expect(page.getByRole("link", { name: "Map Mystery Serum" })).toHaveCount(0);
  // A file that is not text
  await page
    .getByLabel("Sales file (CSV or XLSX)")
    .setInputFiles({ name: "bin.csv", mimeType: "text/csv", buffer: Buffer.from([0, 1, 2, 3, 4]) });
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByText("not a CSV or Excel")).toBeVisible();
});
