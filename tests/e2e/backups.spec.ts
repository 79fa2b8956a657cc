// Backups from the screen, end to end with the jobs worker: an organization admin makes a backup
// and watches its progress bar until the snapshot is ready, deletes a product's par levels and
// archives a vendor, restores the snapshot (typing the organization's name after a wrong one), and
// once the jobs worker has switched it in is signed out, signs in again and finds both back. A
// manager sees the list but no backup action, and the API refuses them. The jobs worker's work cron
// is fired by hand (global-setup runs it with --test-scheduled on the app's port + 1).
import type { Page, TestInfo } from "@playwright/test";
import { attachScreenshot, expect, expectNoSidewaysScroll, fireWorkCron, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };

/** Fires the jobs worker's work cron until `done` says so (each run moves the work as far as its budget). */
async function workUntil(page: Page, done: () => Promise<boolean>, what: string) {
  for (let run = 0; run < 60; run++) {
    if (await done()) return;
    await fireWorkCron(page);
  }
  throw new Error(`${what}: not done after 60 runs of the work cron`);
}

async function backupStatus(id: string): Promise<string | undefined> {
  const [row] = await onDatabase("SELECT status FROM backups WHERE id = ?", [id]);
  return row?.status as string | undefined;
}

/** A full-page screenshot (kept for people to look at), the toast closed so it hides nothing. */
async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const close = page.getByRole("button", { name: "Close notification" });
  if (await close.isVisible()) await close.click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `/tmp/h4-${name}.png`, fullPage: true });
  await attachScreenshot(page, testInfo, name);
}

test("an organization admin backs up, changes par levels and a vendor, restores, signs in again and finds both back", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  await signIn(page, "owner@demo.clinic");
  await page.goto("/backup-restore");
  await expect(page.getByRole("heading", { name: "Backup & Restore" })).toBeVisible();
  await expect(page.getByTestId("retention-rule")).toContainText("kept 30 days");

  // Back up now: the row is queued, and its bar moves (the page polls) until the snapshot is ready.
  await page.getByRole("button", { name: "Back up now" }).click();
  await expect(page.getByTestId("toast")).toContainText("Backup started");
  const row = page.getByRole("row").filter({ has: page.getByRole("progressbar", { name: "Backup progress" }) });
  await expect(row).toHaveCount(1);
  const backupId = (await row.locator("[data-backup-id]").getAttribute("data-backup-id")) ?? "";
  expect(backupId).not.toBe("");
  await expect(page.getByRole("button", { name: "Back up now" })).toBeDisabled();
  await screenshot(page, testInfo, "backup-writing-phone");
  await workUntil(page, async () => (await backupStatus(backupId)) === "ready", "the snapshot");
  // Without a reload: the poll sees it ready and the page reads the list again.
  const made = page.locator(`[data-backup-id="${backupId}"]`).locator("xpath=..");
  await expect(made.getByText("Ready", { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(made.getByRole("link", { name: "Download" })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, "backups-phone");

  // The snapshot downloads as a file.
  const download = await page.request.get(`/backup-restore/${backupId}/download`);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename="clinic-backup-.+\.jsonl\.gz"$/);

  // Uploaded back from the screen (in pieces, by the page's script), it is listed and then rehearsed.
  await expect(page.getByText("Uploading sends the file in 8 MiB pieces, which needs JavaScript")).toHaveCount(0);
  await page.getByLabel("Snapshot file").setInputFiles({
    name: "clinic-backup.jsonl.gz",
    mimeType: "application/gzip",
    buffer: await download.body(),
  });
  await page.getByRole("button", { name: "Upload snapshot" }).click();
  await expect(page.getByRole("status").filter({ hasText: "clinic-backup.jsonl.gz is uploaded" })).toBeVisible();
  const uploadedRow = page.getByRole("row").filter({ hasText: "Uploaded by Olivia Owner" });
  await expect(uploadedRow).toContainText("Not rehearsed yet");
  const [upload] = await onDatabase(
    "SELECT id FROM backups WHERE origin = 'upload' ORDER BY requested_at DESC LIMIT 1",
    [],
  );
  const rehearsalOf = async () =>
    String((await onDatabase("SELECT rehearsal_status AS s FROM backups WHERE id = ?", [String(upload?.id)]))[0]?.s);
  await workUntil(page, async () => ["passed", "failed"].includes(await rehearsalOf()), "the upload's rehearsal");
  await page.reload();
  await expect(uploadedRow).toContainText("Restore rehearsed: passed");
  // The rehearsal read when its rows were taken from the file's manifest.
  await expect(uploadedRow).toContainText("uploaded; taken");

  // A vendor archived and a product's par levels deleted, after the snapshot.
  const [vendor] = await onDatabase("SELECT id, name FROM vendors WHERE active = 1 ORDER BY name LIMIT 1", []);
  const vendorId = String(vendor?.id);
  await page.goto(`/vendors/${vendorId}`);
  await page.getByRole("button", { name: "Archive vendor" }).click();
  await expect(page.getByText("Archived", { exact: true })).toBeVisible();

  // At Downtown, where the owner works when signed in.
  const [level] = await onDatabase(
    `SELECT pl.location_id AS locationId, p.name AS product, count(*) AS n FROM par_levels AS pl
      JOIN product_variations AS v ON v.id = pl.variation_id JOIN products AS p ON p.id = v.product_id
      JOIN locations AS l ON l.id = pl.location_id WHERE l.code = 'DTN'
      GROUP BY pl.location_id, p.id ORDER BY n DESC, p.name LIMIT 1`,
    [],
  );
  const product = String(level?.product);
  const locationId = String(level?.locationId);
  const parLevelsOf = async () =>
    Number(
      (
        await onDatabase(
          `SELECT count(*) AS n FROM par_levels AS pl JOIN product_variations AS v ON v.id = pl.variation_id
            JOIN products AS p ON p.id = v.product_id WHERE p.name = ? AND pl.location_id = ?`,
          [product, locationId],
        )
      )[0]?.n,
    );
  const levels = await parLevelsOf();
  expect(levels).toBeGreaterThan(0);
  await page.goto(`/products/par-levels?q=${encodeURIComponent(product)}&location=${locationId}`);
  for (const field of ["Par", "Reorder point", "Max"]) {
    const inputs = page.getByLabel(new RegExp(`^${field}, ${product.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} `));
    for (let i = 0; i < (await inputs.count()); i++) await inputs.nth(i).fill("");
  }
  await page.getByRole("button", { name: "Save par levels" }).click();
  await expect(page.getByRole("heading", { name: "Par levels at Downtown" })).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText(`${levels} cleared`);
  expect(await parLevelsOf()).toBe(0);

  // Restore: asked first, what is lost said, the name typed (a wrong one is refused).
  await page.goto("/backup-restore");
  await page
    .locator(`[data-backup-id="${backupId}"]`)
    .locator("xpath=..")
    .getByRole("link", { name: "Restore…" })
    .click();
  const panel = page.getByRole("region", { name: /Restore the snapshot of/ });
  await expect(panel).toContainText("is lost, at every location");
  await expect(panel).toContainText("Everyone is signed out when the restore finishes");
  const nameField = panel.getByLabel(/Type the organization's name, .+, to confirm/);
  const [organization] = await onDatabase("SELECT name FROM organizations", []);
  const organizationName = String(organization?.name);
  await nameField.fill(organizationName.toUpperCase());
  await panel.getByRole("button", { name: "Restore this snapshot" }).click();
  await expect(nameField).toHaveAccessibleDescription(/does not match the organization's name/);
  await screenshot(page, testInfo, "restore-phone");
  await nameField.fill(` ${organizationName} `);
  await panel.getByRole("button", { name: "Restore this snapshot" }).click();
  await expect(page.getByTestId("toast")).toContainText("Restore queued");
  await expect(page.getByRole("status").filter({ hasText: "A restore is under way" })).toBeVisible();
  const [restore] = await onDatabase("SELECT id FROM backup_restores WHERE backup_id = ? ORDER BY id DESC LIMIT 1", [
    backupId,
  ]);
  const restoreStatus = async () =>
    String((await onDatabase("SELECT status FROM backup_restores WHERE id = ?", [String(restore?.id)]))[0]?.status);
  await workUntil(page, async () => ["done", "refused", "failed"].includes(await restoreStatus()), "the restore");
  expect(await restoreStatus()).toBe("done");

  // Everyone was signed out: the next page is the login screen. Signed in again, both are back.
  await page.goto("/backup-restore");
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, "owner@demo.clinic");
  expect(await parLevelsOf()).toBe(levels);
  await page.goto(`/vendors/${vendorId}`);
  await expect(page.getByRole("button", { name: "Archive vendor" })).toBeVisible();
  await page.goto("/backup-restore");
  await expect(page.getByRole("region", { name: "Restores" }).getByText("Restored", { exact: true })).toBeVisible();

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/backup-restore");
  await screenshot(page, testInfo, "backups-desktop");
});

test("a manager sees the backups but no action, and the API refuses every backup write", async ({ page }, testInfo) => {
  await page.setViewportSize(PHONE);
  await signIn(page, "manager@demo.clinic");
  await page.goto("/backup-restore");
  await expect(page.getByRole("heading", { name: "Snapshots" })).toBeVisible();
  await expect(page.getByTestId("no-backup-actions")).toContainText("is for administrators");
  await expect(page.getByRole("button", { name: "Back up now" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Download" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Restore…" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Upload a snapshot" })).toHaveCount(0);
  await screenshot(page, testInfo, "manager-phone");

  const list = await page.request.get("/api/backups");
  expect(list.status()).toBe(200);
  const { items } = (await list.json()) as { items: { id: string }[] };
  const id = items[0]?.id ?? "none";
  for (const [path, body] of [
    ["/api/backups", {}],
    [`/api/backups/${id}/restore`, { organizationName: "x" }],
    ["/api/backups/uploads", {}],
  ] as const) {
    const response = await page.request.post(path, { data: body });
    expect({ path, status: response.status() }).toEqual({ path, status: 403 });
    expect(await response.json()).toMatchObject({ code: "forbidden" });
  }
  const form = await page.request.post("/backup-restore", { form: { intent: "backup" }, maxRedirects: 0 });
  expect(form.status()).toBe(403);
  expect((await page.request.get(`/backup-restore/${id}/download`, { maxRedirects: 0 })).status()).toBe(403);
});

test("without JavaScript, Back up now still works and the page shows the snapshot's state and a refresh link", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, "owner@demo.clinic");
  await page.goto("/backup-restore");
  await page.getByRole("button", { name: "Back up now" }).click();
  await expect(page).toHaveURL(/\/backup-restore$/);
  await expect(page.getByTestId("backup-progress").first()).toHaveText("Waiting for the jobs worker to start it");
  const status = page.getByRole("status").filter({ hasText: "A backup is being made now" });
  await expect(status.getByRole("link", { name: "Refresh" })).toBeVisible();
  // The upload needs JavaScript, and says so rather than offering a form the server would refuse.
  await expect(page.getByText("Uploading sends the file in 8 MiB pieces, which needs JavaScript")).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload snapshot" })).toBeDisabled();

  await workUntil(
    page,
    async () =>
      (await onDatabase("SELECT count(*) AS n FROM backups WHERE status IN ('queued', 'writing')", []))[0]?.n === 0,
    "the snapshot",
  );
  await status.getByRole("link", { name: "Refresh" }).click();
  await expect(page.getByRole("status").filter({ hasText: "A backup is being made now" })).toHaveCount(0);
  await context.close();
});
