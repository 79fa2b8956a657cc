// Issue 22's transfer on a phone (390 × 844): an admin at Downtown sends three vials and 40 prep
// pads to Westside (asked first), then, working at Westside, receives it one vial short with a
// reason (asked first again). Both locations' stock levels moved by what left and what arrived; the
// lost vial is discarded at Westside as lost in transit; the discrepancy stays open on the transfer
// and on the list. Screenshots of the list and the transfer at phone and desktop widths. The e2e
// database is shared: this run's vials are the three latest-expiring sealed Botox vials at Downtown.
import type { Page } from "@playwright/test";
import { attachScreenshot, expect, expectNoSidewaysScroll, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

test.use({ viewport: PHONE });

interface Vial {
  id: string;
  labelCode: string;
  variationId: string;
  productName: string;
  baseUnit: string;
  unitsRemaining: number;
  controlled: boolean;
  recalled: boolean;
  isExpired: boolean;
}

interface Level {
  locationId: string;
  variationId: string;
  onHand: number;
  productName: string;
  variationName: string;
}

/** The location ids of the signed-in user, by code. */
async function myLocations(page: Page): Promise<Record<string, string>> {
  const response = await page.request.get("/api/locations/my");
  const mine = (await response.json()) as { locationId: string; location: { code: string } }[];
  return Object.fromEntries(mine.map((l) => [l.location.code, l.locationId]));
}

async function onHand(page: Page, locationId: string, variationId: string): Promise<number> {
  const response = await page.request.get(`/api/stock-levels?locationId=${locationId}&pageSize=100`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: Level[] };
  return items.find((l) => l.variationId === variationId)?.onHand ?? 0;
}

/** Work at the location `locationId`, as the switcher does. */
async function workAt(page: Page, locationId: string) {
  const base = new URL(page.url()).origin;
  const response = await page.request.post("/location", {
    form: { locationId },
    headers: { Origin: base },
    maxRedirects: 0,
  });
  expect(response.status()).toBeLessThan(400);
}

test("send three vials and 40 prep pads from Downtown to Westside, receive them one vial short", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown, MANAGER at Westside
  await expect(page).toHaveURL(/\/$/);
  const loc = await myLocations(page);
  const [DTN, WST] = [loc.DTN ?? "", loc.WST ?? ""];
  await workAt(page, DTN);

  // Three sealed Botox vials of one variation at Downtown, usable and not on any transfer.
  const listed = await page.request.get(`/api/vials?locationId=${DTN}&state=sealed&recalled=false&pageSize=100`);
  const { items } = (await listed.json()) as { items: Vial[] };
  const usable = items.filter(
    (v) => v.baseUnit === "U" && !v.controlled && !v.isExpired && v.productName === "Botox Cosmetic",
  );
  const variationId = usable.at(-1)?.variationId ?? "";
  const vials = usable.filter((v) => v.variationId === variationId).slice(-3);
  expect(vials).toHaveLength(3);
  const units = vials.reduce((n, v) => n + v.unitsRemaining, 0);
  const pads = await page.request.get(`/api/stock-levels?locationId=${DTN}&q=Alcohol&pageSize=10`);
  const padLevel = ((await pads.json()) as { items: Level[] }).items[0];
  const PADS = padLevel?.variationId ?? "";
  expect(padLevel?.onHand ?? 0).toBeGreaterThanOrEqual(40);
  const before = {
    dtnVials: await onHand(page, DTN, variationId),
    dtnPads: await onHand(page, DTN, PADS),
    wstVials: await onHand(page, WST, variationId),
    wstPads: await onHand(page, WST, PADS),
  };

  // A new transfer to Westside, filled by label code and a catalogue search.
  await page.goto("/transfers");
  await expectNoSidewaysScroll(page);
  await page.getByLabel("To", { exact: true }).selectOption({ label: "Westside (WST)" });
  await page.getByRole("button", { name: "New transfer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Downtown → Westside");
  for (const vial of vials) {
    await page.getByLabel("Vial label code").fill(vial.labelCode);
    await page.getByRole("button", { name: "Add vial" }).click();
    await expect(page.getByRole("cell", { name: vial.labelCode })).toBeVisible();
  }
  await page.getByLabel("Search the catalogue").fill("Alcohol");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByLabel("Alcohol prep pads · Box of 200").fill("40");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("cell", { name: "40 each" })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "transfer draft (phone)");

  // Sending asks first, saying what leaves whose stock.
  await page.getByRole("link", { name: "Send…" }).click();
  await expect(
    page.getByText("Send 3 vials and 40 each of Alcohol prep pads to Westside? They leave Downtown's stock now."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByText("On the way").first()).toBeVisible();
  const transferUrl = page.url().split("?")[0] ?? "";
  expect(await onHand(page, DTN, variationId)).toBe(before.dtnVials - units);
  expect(await onHand(page, DTN, PADS)).toBe(before.dtnPads - 40);
  await expect(page.getByText("Westside receives this transfer when it arrives.")).toBeVisible();

  // At Westside: what is on the way shows on the list; receive it, one vial missing.
  await workAt(page, WST);
  await page.goto("/transfers");
  await expect(page.getByTestId("on-the-way")).toContainText(/3 vials/);
  await page.goto(transferUrl);
  const [first, second, third] = vials;
  await page.getByLabel("Arrived").nth(0).selectOption("received");
  await page.getByLabel("Arrived").nth(1).selectOption("received");
  await page.getByLabel("Arrived").nth(2).selectOption("missing");
  await page.locator(`input[name^="reason:"]`).nth(2).fill("Not in the cooler when the courier came");
  await page.getByLabel("Arrived").nth(3).selectOption("received");
  await page.getByRole("button", { name: "Receive marked lines" }).click();
  // Asked first: the loss named.
  await expect(page.getByRole("alert").filter({ hasText: `Vial ${third?.labelCode}` })).toContainText(
    "missing (booked as lost in transit)",
  );
  await attachScreenshot(page, testInfo, "receive asks first (phone)");
  await page.getByRole("button", { name: "Book it" }).click();
  await expect(page.getByText("Received", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("cell", { name: "Not in the cooler when the courier came" })).toBeVisible();
  await expect(page.getByLabel("How it was resolved")).toBeVisible(); // the discrepancy is open
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "transfer received one short (phone)");

  // Both locations' levels: Downtown lost what was sent; Westside gained what arrived (two vials, 40 pads).
  const perVial = first?.unitsRemaining ?? 0;
  expect(await onHand(page, WST, variationId)).toBe(
    before.wstVials + (first?.unitsRemaining ?? 0) + (second?.unitsRemaining ?? 0),
  );
  expect(await onHand(page, WST, PADS)).toBe(before.wstPads + 40);
  expect(await onHand(page, DTN, variationId)).toBe(before.dtnVials - units);
  expect(perVial).toBeGreaterThan(0);

  // The lost vial: discarded at Westside, lost in transit.
  const lost = await page.request.get(`/api/vials/${third?.id}?locationId=${WST}`);
  expect(lost.status()).toBe(200);
  const lostVial = (await lost.json()) as { vial: { state: string; locationId: string; discardReason: string | null } };
  expect(lostVial.vial).toMatchObject({ state: "discarded", locationId: WST, discardReason: "lost_in_transit" });
  await page.goto(`/inventory/${third?.id}`);
  await expect(page.getByText(/lost in transit/i).first()).toBeVisible();

  // The open discrepancy on the list, at Westside and at Downtown.
  await page.goto("/transfers");
  await expect(page.getByTestId("open-discrepancies")).toContainText(/waiting to be resolved/);
  await attachScreenshot(page, testInfo, "transfers list at Westside (phone)");
  await page.goto("/stock-levels?q=Alcohol");
  await attachScreenshot(page, testInfo, "stock levels at Westside (phone)");
  await workAt(page, DTN);
  await page.goto("/transfers");
  await expect(page.getByTestId("open-discrepancies")).toContainText(/waiting to be resolved/);
  await page.goto("/stock-levels?q=Alcohol");
  await attachScreenshot(page, testInfo, "stock levels at Downtown (phone)");

  // Desktop.
  await page.setViewportSize(DESKTOP);
  await page.goto(transferUrl);
  await attachScreenshot(page, testInfo, "transfer (desktop)");
  await page.goto("/transfers");
  await attachScreenshot(page, testInfo, "transfers list (desktop)");
});

test("a request from Westside shows at Downtown as one to fill, saying who asked for what", async ({
  page,
}, testInfo) => {
  const note = `Two boxes of prep pads for Saturday ${Date.now().toString(36)}`;
  await signIn(page, "manager@demo.clinic"); // MANAGER at Westside only
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/transfers");
  await page.getByLabel("From", { exact: true }).selectOption({ label: "Downtown (DTN)" });
  await page.getByLabel("What you need").fill(note);
  await page.getByRole("button", { name: "Request stock" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Downtown → Westside");
  await expect(page.getByText("Requested", { exact: true })).toBeVisible();
  // Westside does not fill it: said where the forms would be.
  await expect(page.getByText(/Only Downtown fills and sends this transfer/)).toBeVisible();
  await expect(page.getByLabel("Vial label code")).toHaveCount(0);
  const requestUrl = page.url();

  await page.context().clearCookies();
  await signIn(page, "admin@demo.clinic");
  const loc = await myLocations(page);
  await workAt(page, loc.DTN ?? "");
  await page.goto("/transfers?status=requested");
  const row = page.locator("tbody tr").filter({ hasText: note });
  await expect(row).toContainText("request to fill");
  await expect(row).toContainText("Maria Manager");
  await row.getByRole("link").click();
  await expect(page).toHaveURL(requestUrl);
  await expect(page.getByText(note)).toBeVisible();
  await expect(page.getByText(/Maria Manager,/).first()).toBeVisible();
  await expect(page.getByLabel("Vial label code")).toBeVisible();
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "request to fill at Downtown (phone)");
  // Nothing needed after all: cancelled, with a reason.
  await page.getByLabel("Reason").fill("Westside found a box");
  await page.getByRole("button", { name: "Cancel transfer" }).click();
  await expect(page.getByText("Cancelled", { exact: true }).first()).toBeVisible();
});
