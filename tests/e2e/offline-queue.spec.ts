// The cart's offline queue (issue #25), on a phone: with the browser context taken offline after the
// vial page loaded, a start and two draws are saved on the device ("Saved on this device: …") and
// the badge says "3 waiting"; they survive a reload offline (the service worker's saved copy of the
// page) and one online while the server's door is unreachable;
// once the door answers, "Send now" sends them in order, and each shows once in the usage log and
// the vial's history. The e2e database is shared: a sealed vial no one has touched, patients of its own.
import type { Page } from "@playwright/test";
import { attachScreenshot, expect, expectNoSidewaysScroll, sealedVial, signIn, test } from "./support";

const run = Date.now().toString(36).toUpperCase();

test.use({ viewport: { width: 390, height: 844 } });

/** The badge where the page shows it (the phone's header; the sidebar's copy is hidden at this width). */
const badge = (page: Page) => page.locator('[data-testid="waiting-badge"]:visible');

test("a start and two draws made offline are kept on the device and sent exactly once when back online", async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(90_000);
  await signIn(page, "admin@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  // The service worker (app/service-worker) answers this page's requests: the vial page reloads offline.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
  const vial = await sealedVial(page);
  await page.goto(`/inventory/${vial.id}`);
  await page.waitForLoadState("networkidle");
  await expect(badge(page)).toHaveCount(0);

  // The replays' door is unreachable until the end: what is saved stays waiting through a reload.
  const door = "**/api/offline-replays**";
  await page.route(door, (route) => route.abort("internetdisconnected"));

  await context.setOffline(true);
  await page.getByRole("button", { name: "Start vial" }).click();
  const saved = page.getByTestId("queued-message");
  await expect(saved).toHaveText(/^Saved on this device: Start .+\. It will be sent when the connection is back\.$/);
  // Not offered twice: a second start would be refused, and flagged, once both are sent.
  await expect(page.getByRole("button", { name: "Start vial" })).toHaveCount(0);
  await expect(page.getByTestId("start-held")).toContainText("Start is not offered twice");

  const patients = [`E2E-OFF-A-${run}`, `E2E-OFF-B-${run}`];
  for (const [index, patient] of patients.entries()) {
    await page.getByLabel("Units (U)").fill(String(index + 2));
    await page.getByLabel("Patient reference").fill(patient);
    await page.getByRole("button", { name: "Record draw" }).click();
    await expect(saved).toHaveText(
      new RegExp(
        `^Saved on this device: Draw ${index + 2} U from ${vial.productName}.*It will be sent when the connection is back\\.$`,
      ),
    );
    // A fresh form for the next draw (a new key: the saved one is taken).
    await expect(page.getByLabel("Units (U)")).toHaveValue("");
  }
  await expect(badge(page)).toHaveText("3 waiting");
  // The vial page lists what is held for this vial.
  await expect(page.getByRole("region", { name: "Saved on this device" }).getByTestId("queue-entry")).toHaveCount(3);
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "offline-saved-phone");
  // The badge's panel: each entry, and no "Send now" while offline.
  await badge(page).click();
  const panel = page.getByRole("dialog", { name: "Saved on this device" });
  await expect(panel.getByTestId("queue-entry")).toHaveCount(3);
  await expect(panel.getByText("Send now is offered when the connection is back.")).toBeVisible();
  await testInfo.attach("offline-panel-phone", { body: await page.screenshot(), contentType: "image/png" });
  await page.keyboard.press("Escape");

  // Nothing is lost across a reload, offline (the page from the worker's saved copy), and the
  // reloaded page knows at once that it is offline...
  await page.reload();
  await expect(badge(page)).toHaveText("3 waiting");
  await expect(page.getByTestId("connectivity-banner")).toHaveAttribute("data-state", "offline");
  // ...or back online with the server's door still unreachable.
  await context.setOffline(false);
  await page.reload();
  await page.waitForLoadState("networkidle");
  await expect(badge(page)).toHaveText("3 waiting");

  // The door answers: "Send now" sends them, in order, once.
  const sent: string[] = [];
  await page.unroute(door);
  page.on("request", (request) => {
    if (request.url().includes("/api/offline-replays")) sent.push(request.headers()["idempotency-key"] ?? "");
  });
  await badge(page).click();
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(badge(page)).toHaveCount(0, { timeout: 20_000 });
  expect(new Set(sent).size).toBe(3);

  for (const patient of patients) {
    const usage = await page.request.get(`/api/usage?patientRef=${encodeURIComponent(patient)}`);
    expect(usage.status()).toBe(200);
    expect(((await usage.json()) as { total: number }).total).toBe(1);
  }
  await page.reload();
  const history = page.getByRole("table", { name: "History of this vial" });
  await expect(history.getByRole("row").filter({ hasText: "Started" })).toHaveCount(1);
  for (const patient of patients) await expect(history.getByRole("row").filter({ hasText: patient })).toHaveCount(1);
  await expect(page.locator('[data-state="in_use"]').first()).toBeVisible();
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the sidebar's badge counts what is held, and a discard with units left still asks first offline", async ({
    page,
    context,
  }, testInfo) => {
    await signIn(page, "admin@demo.clinic");
    await expect(page).toHaveURL(/\/$/);
    const vial = await sealedVial(page);
    await page.goto(`/inventory/${vial.id}`);
    await page.waitForLoadState("networkidle");
    // Nothing is sent from this test: the door stays unreachable.
    await page.route("**/api/offline-replays**", (route) => route.abort("internetdisconnected"));
    await context.setOffline(true);

    await page.getByLabel("Units (U)").fill("1");
    await page.getByRole("button", { name: "Record draw" }).click();
    await expect(page.getByTestId("queued-message")).toContainText("Saved on this device: Draw 1 U from");
    await expect(page.getByTestId("sidebar").getByTestId("waiting-badge")).toHaveText("1 waiting");
    // Above Logout: signing out keeps it on the device until this person signs in here again.
    await expect(page.getByTestId("sidebar").getByTestId("held-at-sign-out")).toHaveText(
      "1 record waits on this device: signing out keeps it here, and it is sent when you sign in on this device again.",
    );

    // A discard would waste what is left: it asks first, from the units the page shows, and saves nothing yet.
    await page.getByLabel("Reason").selectOption("contaminated");
    await page.getByRole("button", { name: "Discard vial" }).click();
    await expect(page.getByTestId("waste-question")).toHaveText(
      /^Discard this vial \(Contaminated\)\? \d+ U of .+ will be lost\.$/,
    );
    await expect(page.getByTestId("sidebar").getByTestId("waiting-badge")).toHaveText("1 waiting");
    await attachScreenshot(page, testInfo, "offline-saved-desktop");
  });
});

test("a draw made offline from a vial emptied elsewhere meanwhile comes back flagged, not lost", async ({
  page,
  context,
}, testInfo) => {
  await signIn(page, "admin@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const vial = await sealedVial(page);
  // In use, as a vial at the cart is.
  const start = await page.request.post(`/api/vials/${vial.id}/start`, { data: {} });
  expect(start.status(), await start.text()).toBe(200);
  await page.goto(`/inventory/${vial.id}`);
  await page.waitForLoadState("networkidle");
  await page.route("**/api/offline-replays**", (route) => route.abort("internetdisconnected"));

  await context.setOffline(true);
  const patient = `E2E-OFF-F-${run}`;
  await page.getByLabel("Units (U)").fill("2");
  await page.getByLabel("Patient reference").fill(patient);
  await page.getByRole("button", { name: "Record draw" }).click();
  await expect(page.getByTestId("queued-message")).toContainText("Saved on this device: Draw 2 U from");
  await expect(badge(page)).toHaveText("1 waiting");

  // Meanwhile, at another cart, the vial is emptied.
  const emptied = await page.request.post(`/api/vials/${vial.id}/empty`, { data: {} });
  expect(emptied.status(), await emptied.text()).toBe(200);

  // Back online, it is sent by itself (the connection coming back starts a round).
  await page.unroute("**/api/offline-replays**");
  await context.setOffline(false);
  await expect(badge(page)).toHaveText("1 flagged", { timeout: 15_000 });
  await badge(page).click();
  const panel = page.getByRole("dialog", { name: "Saved on this device" });
  const entry = panel.getByTestId("queue-entry");
  await expect(entry).toContainText("Flagged:");
  await expect(entry).toContainText("This vial is already emptied or discarded");
  await expect(entry).toContainText("A manager will resolve it.");
  await expect(entry.getByRole("link", { name: "Flagged records" })).toHaveAttribute("href", "/flagged");
  await testInfo.attach("flagged-panel-phone", { body: await page.screenshot(), contentType: "image/png" });
  // Nothing was drawn: the usage log does not hold it.
  const usage = await page.request.get(`/api/usage?patientRef=${encodeURIComponent(patient)}`);
  expect(((await usage.json()) as { total: number }).total).toBe(0);

  // Seen: its person dismisses it from the device (the flag stays with the server for a manager).
  await entry.getByRole("button", { name: "Dismiss" }).click();
  await expect(badge(page)).toHaveCount(0);
});
