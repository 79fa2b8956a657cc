// Inventory at a phone's width (390 × 844) and on a desktop, as Downtown's admin: the list shows
// expiry badges, the state filter (a GET form, also before JavaScript) narrows it, and a sealed
// vial's page starts it, draws units with a patient reference (in its history), and refuses a
// discard without a reason with a message under the field. The countdown moves on with the clock.
// The e2e database is shared: each run takes a sealed vial no one has touched, and its own patient.
import { attachScreenshot, expect, expectNoSidewaysScroll, sealedVial, signIn, test } from "./support";

const run = Date.now().toString(36).toUpperCase();
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;

for (const [size, viewport] of Object.entries(SIZES)) {
  test.describe(`at ${size} size`, () => {
    test.use({ viewport });

    test("the list shows expiry badges and filters by state", async ({ page }, testInfo) => {
      await signIn(page, "admin@demo.clinic");
      await expect(page).toHaveURL(/\/$/);
      await page.goto("/inventory");
      await expect(page.getByRole("heading", { name: "Inventory", exact: true })).toBeVisible();
      const vials = page.getByRole("table", { name: "Vials" });
      await expect(vials.locator("[data-band]").first()).toBeVisible();
      await expect(vials.locator('[data-state="sealed"]').first()).toBeVisible();
      await expect(page.getByRole("table", { name: "Bulk stock" })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await attachScreenshot(page, testInfo, `inventory-${size}`);

      await page.getByLabel("State").selectOption("in_use");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/state=in_use/);
      const states = vials.locator("[data-state]");
      await expect(states.first()).toBeVisible();
      for (const state of await states.all()) await expect(state).toHaveText("In use");
      // An open vial's badge counts down to its Use-By Deadline.
      await expect(vials.locator("[data-band]").first()).toContainText(/Use-By Deadline/);
      // Bulk stock has no state: it is not listed under a state filter.
      await expect(page.getByRole("table", { name: "Bulk stock" })).toHaveCount(0);
      await attachScreenshot(page, testInfo, `inventory-in-use-${size}`);
    });

    test("an expired vial reads as unusable in the list, dates say the days left, and a bad filter is said", async ({
      page,
    }, testInfo) => {
      await signIn(page, "admin@demo.clinic");
      await expect(page).toHaveURL(/\/$/);
      // Sealed vials past their date (the demo's Kysse lot at Downtown): the State column says so.
      await page.goto("/inventory?state=sealed&expiringWithinDays=0");
      const vials = page.getByRole("table", { name: "Vials" });
      const expired = vials.locator('[data-state="sealed"]').first();
      await expect(expired).toHaveText("Sealed · expired");
      await expect(vials.locator("[data-band=expired] [data-days-left]").first()).toHaveText(
        /^· Expired (today|\d+ days? ago)$/,
      );
      await attachScreenshot(page, testInfo, `inventory-expired-${size}`);

      // A sealed vial not yet expired: its date, and the days left beside it.
      await page.goto("/inventory?state=sealed&recalled=false");
      await expect(vials.locator("[data-band]:not([data-band=expired]) [data-days-left]").first()).toHaveText(
        /^· (Expires today|\d+ days? left)$/,
      );

      // A filter it cannot use: said under the field, what was typed kept, nothing listed.
      await page.goto("/inventory?expiringWithinDays=-3");
      const days = page.getByLabel("Expiring within (days)");
      await expect(days).toHaveValue("-3");
      await expect(days).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText("Enter a whole number of days from 0 to 3650.")).toBeVisible();
      await expect(vials.locator("tbody [data-state]")).toHaveCount(0);
      await expect(page.getByText("No vials listed: a filter above cannot be used.")).toBeVisible();
      await expectNoSidewaysScroll(page);
      await attachScreenshot(page, testInfo, `inventory-bad-filter-${size}`);
    });

    test("a vial's page starts it, draws with a patient reference, and refuses a discard without a reason", async ({
      page,
    }, testInfo) => {
      test.setTimeout(60_000);
      await signIn(page, "admin@demo.clinic");
      await expect(page).toHaveURL(/\/$/);
      const vial = await sealedVial(page);
      await page.goto(`/inventory/${vial.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(vial.productName);
      await expect(page.locator('[data-state="sealed"]').first()).toBeVisible();

      await page.getByRole("button", { name: "Start vial" }).click();
      await expect(page.getByTestId("toast")).toContainText("Vial started");
      await expect(page.locator('[data-state="in_use"]').first()).toBeVisible();
      await expect(page.getByRole("timer")).toContainText(/left$/);
      // The badge, there since the vial was sealed, reads the clock again: it agrees with the timer.
      const timeLeft = (await page.getByRole("timer").textContent()) ?? "";
      await expect(page.locator("h1 + div [data-band]")).toContainText(`Use-By Deadline${timeLeft}`);

      const patient = `E2E-INV-${size}-${run}`;
      await page.getByLabel("Units (U)").fill("5");
      await page.getByLabel("Patient reference").fill(patient);
      await page.getByRole("button", { name: "Record draw" }).click();
      await expect(page.getByTestId("toast")).toContainText("Units drawn");
      await expect(page.getByTestId("toast")).toContainText(`Drew 5 U for chart ${patient};`);
      const history = page.getByRole("table", { name: "History of this vial" });
      const drawn = history.getByRole("row").filter({ hasText: patient });
      await expect(drawn).toContainText("Drawn");
      await expect(drawn).toContainText("-5 U");
      await expect(drawn).toContainText("Adam Admin");
      // The form is fresh for the next draw.
      await expect(page.getByLabel("Units (U)")).toHaveValue("");

      await page.getByRole("button", { name: "Discard vial" }).click();
      const reason = page.getByLabel("Reason");
      await expect(reason).toHaveAttribute("aria-invalid", "true");
      await expect(page.locator("#discard-reason-error")).toHaveText(
        "Choose why the vial is discarded: expired, contaminated, damaged, recalled, other.",
      );
      await expect(page.locator('[data-state="in_use"]').first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await attachScreenshot(page, testInfo, `vial-${size}`);
    });
  });
}

test("the countdown moves on with the clock, without a reload", async ({ page }) => {
  await signIn(page, "admin@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  const vial = await sealedVial(page);
  const start = await page.request.post(`/api/vials/${vial.id}/start`, { data: {} });
  expect(start.status(), await start.text()).toBe(200);
  await page.clock.install();
  await page.goto(`/inventory/${vial.id}`);
  const timer = page.getByRole("timer");
  await expect(timer).toContainText(/left$/);
  const before = await timer.textContent();
  await page.clock.fastForward("02:00:00");
  await expect(timer).not.toHaveText(before ?? "");
  await expect(timer).toContainText(/left$|Expired/);
});

test("the filters work before JavaScript loads", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: SIZES.phone });
  const page = await context.newPage();
  await signIn(page, "admin@demo.clinic");
  await page.goto("/inventory");
  await page.getByLabel("State").selectOption("sealed");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/state=sealed/);
  const states = page.getByRole("table", { name: "Vials" }).locator("[data-state]");
  // Soonest expiry first: the first may be past its date, and then says so.
  await expect(states.first()).toHaveText(/^Sealed( · expired)?$/);
  await context.close();
});
