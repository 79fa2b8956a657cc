// Lot recalls and the usage log at a phone's width (390 × 844), as Westside's manager (WRITE_PRODUCTS
// there): units drawn from a vial of a lot with a patient reference appear in the usage log, its
// filters and its CSV; marking the lot recalled first asks to confirm, naming how many vials at which
// locations it quarantines, then quarantines them (a start is refused with code "recalled"); the
// recall report, found by its lot, lists the patient under a red banner; lifting is not offered to
// the manager (it says why) and is the owner's (an organization admin), and it is recorded.
// The e2e database is shared: this run's patient reference is its own, and the recall is lifted
// at the end. Screenshots at 390 and 1280 px are attached to the report.

import { readFileSync } from "node:fs";
import { attachScreenshot, expect, expectNoSidewaysScroll, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const run = Date.now().toString(36).toUpperCase();
const PATIENT = `E2E-${run}`;
/** Juvederm Ultra XC 1 mL syringes, received at Westside and North by the demo seed (scripts/seed/stock.ts). */
const LOT = "V41LB30207";
const VARIATION = "Juvederm Ultra XC · 1 mL syringe";

test.use({ viewport: PHONE });

test("a drawn lot is in the usage log and its CSV; recalled, its vials refuse a start and its patients are in the report", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await signIn(page, "manager@demo.clinic");
  await expect(page).toHaveURL(/\/$/);

  // Two sealed syringes of the lot at Westside: units drawn from one for this run's patient.
  const list = await page.request.get(`/api/vials?lot=${LOT}&state=sealed`);
  expect(list.status()).toBe(200);
  const vials = ((await list.json()) as { items: { id: string; variationId: string }[] }).items;
  expect(vials.length).toBeGreaterThanOrEqual(2);
  const [drawn, sealed] = vials;
  const draw = await page.request.post(`/api/vials/${drawn?.id}/draw`, {
    data: { units: "0.2", patientRef: PATIENT, provider: "Dr. E2E" },
  });
  expect(draw.status(), await draw.text()).toBe(200);

  // The usage log, filtered by lot and patient, as a GET form.
  await page.goto("/usage-log");
  await expect(page.getByRole("heading", { name: "Usage Log" })).toBeVisible();
  await page.getByLabel("Lot", { exact: true }).fill(LOT);
  await page.getByLabel("Patient reference").fill(PATIENT.toLowerCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`lot=${LOT}`));
  const row = page.getByRole("row").filter({ hasText: PATIENT });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("0.2 mL");
  await expect(row).toContainText("Dr. E2E");
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "usage-log-390.png");

  // The CSV of the same filters.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^usage-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path()) ?? "", "utf8").replace(/^\uFEFF/, "");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^Used at \(UTC\),Used at \(location time\),Location,Product/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(PATIENT);
  expect(lines[1]).toContain(LOT);

  // Mark the lot recalled from the recalls screen, reached from the usage log's header.
  await page.getByRole("link", { name: "Lot recalls" }).click();
  await expect(page.getByRole("heading", { name: "Lot Recalls" })).toBeVisible();
  // The lot is found first (a GET form). Typed in another case it matches nothing: the lot as
  // printed is offered, and followed, lists the variations holding it, each with its own mark form.
  await page.getByLabel("Lot", { exact: true }).fill(LOT.toLowerCase());
  await page.getByRole("button", { name: "Search" }).click();
  const notFound = page.getByRole("status").filter({ hasText: "differ only in case or spacing" });
  await expect(notFound).toBeVisible();
  await attachScreenshot(page, testInfo, "recalls-near-lot-390.png");
  await notFound.getByRole("link", { name: LOT }).click();
  await expect(page).toHaveURL(new RegExp(`lot=${LOT}`));
  const holder = page
    .getByRole("list", { name: `Variations holding lot ${LOT}` })
    .getByRole("listitem")
    .filter({ hasText: VARIATION });
  await expect(holder).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "recalls-lookup-390.png");
  await holder.getByLabel("Note").fill(`E2E ${run}: manufacturer notice`);
  await holder.getByRole("button", { name: "Mark lot recalled" }).click();
  // A second step first: what the recall quarantines, by location; nothing is marked yet.
  const confirm = page.getByRole("form", { name: `Confirm the recall of lot ${LOT}` });
  await expect(confirm.getByRole("alert")).toContainText(/quarantines \d+ vials at once/);
  await expect(confirm.getByRole("list", { name: `Vials of lot ${LOT} quarantined` })).toContainText("Westside");
  await expect(
    page.getByRole("table", { name: "Recalls in force" }).getByRole("row").filter({ hasText: LOT }),
  ).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "recalls-confirm-390.png");
  await confirm.getByRole("button", { name: "Confirm recall" }).click();
  const inForce = page.getByRole("table", { name: "Recalls in force" });
  await expect(inForce.getByRole("row").filter({ hasText: LOT })).toHaveCount(1);
  await expect(page.getByLabel("Lot", { exact: true }), "the form is emptied for the next recall").toHaveValue("");
  // Looked up again, the lot of that variation shows recalled, with nothing left to mark.
  await page.goto(`/recalls?lot=${LOT}`);
  const again = page
    .getByRole("list", { name: `Variations holding lot ${LOT}` })
    .getByRole("listitem")
    .filter({ hasText: VARIATION });
  await expect(again.getByText("Recalled", { exact: true })).toBeVisible();
  await expect(again.getByRole("button", { name: "Mark lot recalled" })).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "recalls-390.png");

  // Every vial of the lot is quarantined: a start is refused.
  const start = await page.request.post(`/api/vials/${sealed?.id}/start`, { data: {} });
  expect(start.status()).toBe(409);
  expect(await start.json()).toMatchObject({ code: "recalled" });

  // The manager marks but may not lift: the row says who may, where the form would be.
  await expect(inForce.getByRole("row").filter({ hasText: LOT })).toContainText(
    "Only an organization admin can lift a recall.",
  );
  await expect(inForce.getByText("Lift…")).toHaveCount(0);

  // The report, found by its lot from the report's own Find lot: a red banner, the patient, and the unused syringes.
  await page.goto("/recalls/report");
  await page.getByLabel("Lot", { exact: true }).fill(LOT);
  await page.getByRole("button", { name: "Find lot" }).click();
  await expect(page).toHaveURL(/\/recalls\/report\?variationId=/);
  await expect(page.getByRole("heading", { name: "Recall Report" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Recalled" })).toBeVisible();
  const uses = page.getByRole("table", { name: "Uses of this lot" });
  await expect(uses.getByRole("row").filter({ hasText: PATIENT })).toContainText("0.2 mL");
  const unused = page.getByRole("table", { name: "Unused vials of this lot" });
  await expect(unused.getByRole("row").filter({ hasText: "Westside" }).first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "recall-report-390.png");
  await page.setViewportSize(DESKTOP);
  await attachScreenshot(page, testInfo, "recall-report-1280.png");
  const [reportCsv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(readFileSync((await reportCsv.path()) ?? "", "utf8")).toContain(PATIENT);

  // Lift it as the owner (an organization admin): recorded, and the lot's vials start again.
  await page.context().clearCookies();
  await signIn(page, "owner@demo.clinic");
  await page.goto("/recalls");
  await page
    .getByRole("table", { name: "Recalls in force" })
    .getByRole("row")
    .filter({ hasText: LOT })
    .getByText("Lift…")
    .click();
  await page.getByLabel("Why it is lifted").fill(`E2E ${run}: notice withdrawn`);
  await page.getByRole("button", { name: "Lift recall" }).click();
  await expect(
    page
      .getByRole("table", { name: "Lifted recalls" })
      .getByRole("row")
      .filter({ hasText: `E2E ${run}: notice withdrawn` }),
  ).toHaveCount(1);
  await expect(
    page.getByRole("table", { name: "Recalls in force" }).getByRole("row").filter({ hasText: LOT }),
  ).toHaveCount(0);
  await attachScreenshot(page, testInfo, "recalls-1280.png");
  await page.goto(`/usage-log?lot=${LOT}`);
  await attachScreenshot(page, testInfo, "usage-log-1280.png");
});
