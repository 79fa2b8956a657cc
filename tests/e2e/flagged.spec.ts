// Flagged Records (issue #25): a command the offline queue replays and the server refuses is kept,
// never lost. Downtown's staff replays an "empty" of a sealed vial through POST /api/offline-replays
// (as the browser's queue does: the entry's Idempotency-Key, ?locationId= where it was recorded);
// it comes back flagged, and again flagged, once, with the same key. Staff see it on /flagged as
// theirs, with why it was refused and who can resolve it (phone, 390 px). Downtown's admin (a
// manager there: READ_AUDITS) sees it and resolves it with a note through the plain form (desktop,
// 1280 px); staff then see it resolved. Screenshots at both widths are attached to the report.
import { attachScreenshot, expect, expectNoSidewaysScroll, sealedVial, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const run = Date.now().toString(36).toUpperCase();

test.use({ viewport: PHONE });

test("a refused replay is flagged, seen by the staff who made it, and resolved by Downtown's admin", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const me = (await (await page.request.get("/api/auth/me")).json()) as {
    user: { locationRoles: { locationId: string }[] };
  };
  const downtown = me.user.locationRoles[0]?.locationId ?? "";
  const vial = await sealedVial(page);
  const summary = `Empty ${vial.productName} (E2E ${run})`;
  const key = `e2e-flag-${run}`;
  // As the queue keeps it: when it happened at the cart, stored with the entry.
  const recordedAt = new Date(Date.now() - 20 * 60 * 1000).toISOString();
  const send = () =>
    page.request.post(`/api/offline-replays?locationId=${encodeURIComponent(downtown)}`, {
      headers: { "Idempotency-Key": key },
      data: {
        kind: "empty",
        itemId: vial.id,
        body: {},
        recordedAt,
        summary,
      },
    });
  const first = await send();
  expect(first.status(), await first.text()).toBe(200);
  const flagged = (await first.json()) as { status: string; flag: { id: string; code: string; reason: string } };
  expect(flagged).toMatchObject({ status: "flagged", flag: { code: "not_in_use" } });
  // The queue sends it again (the answer was lost): the same flag.
  const again = await send();
  expect(await again.json()).toEqual(flagged);

  // Staff: theirs, why, and who can resolve it, from the menu.
  await page.goto("/");
  await page.getByRole("button", { name: /menu/i }).first().click();
  await page.getByRole("link", { name: "Flagged Records" }).first().click();
  await expect(page).toHaveURL(/\/flagged$/);
  await expect(page.getByRole("heading", { name: "Flagged Records", level: 1 })).toBeVisible();
  const card = page.getByRole("article", { name: summary });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Open");
  await expect(card).toContainText("Sam Staff (you)");
  await expect(card).toContainText(flagged.flag.reason);
  await expect(card).toContainText("Only a manager at Downtown can resolve this.");
  await expect(card.getByRole("button", { name: "Resolve" })).toHaveCount(0);
  await expect(card.getByRole("link", { name: /Open vial/ })).toHaveAttribute("href", `/inventory/${vial.id}`);
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "flagged-staff-390.png");

  // Downtown's admin, on a desktop: resolves it with a note, without JavaScript's help needed.
  const context = await browser.newContext({ viewport: DESKTOP });
  const admin = await context.newPage();
  await signIn(admin, "admin@demo.clinic");
  await admin.goto(`/flagged`);
  const adminCard = admin.getByRole("article", { name: summary });
  await expect(adminCard).toContainText("Sam Staff");
  await attachScreenshot(admin, testInfo, "flagged-manager-1280.png");
  await adminCard.getByLabel("What was done about it").fill("Vial was never opened; emptied by mistake at the cart.");
  await adminCard.getByRole("button", { name: "Resolve" }).click();
  await expect(admin.getByText("Flag resolved")).toBeVisible();
  await expect(adminCard).toContainText("Resolved by Adam Admin");
  await expect(adminCard).toContainText("emptied by mistake at the cart");
  await expect(adminCard.getByRole("button", { name: "Resolve" })).toHaveCount(0);
  await attachScreenshot(admin, testInfo, "flagged-resolved-1280.png");
  await context.close();

  // Staff see it resolved, and the replay still answers the same flag.
  await page.reload();
  await expect(card).toContainText("Resolved by Adam Admin");
  await attachScreenshot(page, testInfo, "flagged-resolved-390.png");
  expect(await (await send()).json()).toEqual(flagged);
});
