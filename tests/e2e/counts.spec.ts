// Cycle counts end to end on a phone (390 × 844), issue 22: a blind count of Dysport at Downtown
// by a staff member, while a second user draws from a vial already counted; submitted, approved by
// an admin; Downtown's Dysport level moves by the true variance only (one started vial 7 U short,
// one sealed vial not found), not by the draw made during the count. A staff member can count but
// not review. Screenshots of the count page and the review page, at phone and desktop size.
import type { Browser, Page, Request } from "@playwright/test";
import { attachScreenshot, expect, expectNoSidewaysScroll, fireWorkCron, onDatabase, signIn, test } from "./support";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

test.use({ viewport: PHONE });

interface Vial {
  id: string;
  label: string;
  state: string;
  units: number;
}

/** Downtown's Dysport vials on the shelf, and its level there. */
async function dysportAtDowntown(): Promise<{ vials: Vial[]; level: number }> {
  const vials = await onDatabase(
    `SELECT i.id, i.label_code AS label, i.state, i.units_remaining AS units FROM items AS i
      JOIN locations AS l ON l.id = i.location_id JOIN product_variations AS v ON v.id = i.variation_id
      JOIN products AS p ON p.id = v.product_id
     WHERE l.code = 'DTN' AND p.name = 'Dysport' AND i.state IN ('sealed', 'in_use') ORDER BY i.label_code`,
    [],
  );
  const [level] = await onDatabase(
    `SELECT coalesce(sum(sl.on_hand), 0) AS onHand FROM stock_levels AS sl JOIN locations AS l ON l.id = sl.location_id
      JOIN product_variations AS v ON v.id = sl.variation_id JOIN products AS p ON p.id = v.product_id
     WHERE l.code = 'DTN' AND p.name = 'Dysport'`,
    [],
  );
  return {
    vials: vials.map((r) => ({
      id: String(r.id),
      label: String(r.label),
      state: String(r.state),
      units: Number(r.units),
    })),
    level: Number(level?.onHand ?? 0),
  };
}

async function signedInPage(browser: Browser, email: string, viewport = PHONE): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  return page;
}

async function countVial(page: Page, label: string, unitsLeft?: number) {
  await page.getByLabel("Label code").fill(label);
  if (unitsLeft !== undefined) await page.getByLabel(/Units left/).fill(String(unitsLeft));
  await page.getByRole("button", { name: "Count this vial" }).click();
  await expect(page.getByText(label).first()).toBeVisible();
  // A fresh form for the next vial: no units left carried over.
  await expect(page.getByLabel(/Units left/)).toHaveValue("");
}

test("a blind count on a phone while the clinic keeps drawing: approval moves stock by the true variance only", async ({
  page,
  browser,
}, testInfo) => {
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/audit");
  await expect(page.getByRole("heading", { name: "Audit", level: 1 })).toBeVisible();

  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "start a count on a phone");
  // Start: chosen products, Dysport; blind is ticked by default.
  await page.getByRole("radio", { name: "Chosen products" }).check();
  // The catalogue is found by a search (never listed whole), and what is ticked stays ticked.
  await page.getByLabel(/^Find products/).fill("Dysport");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByRole("radio", { name: "Chosen products" })).toBeChecked();
  await page.getByRole("checkbox", { name: "Dysport", exact: true }).check();
  await expect(page.getByLabel(/Blind count/)).toBeChecked();
  await page.getByRole("button", { name: "Start counting" }).click();
  await expect(page.getByRole("heading", { name: /Blind count · Counting/ })).toBeVisible();

  const { vials } = await dysportAtDowntown();
  const started = vials.find((v) => v.state === "in_use");
  const sealed = vials.filter((v) => v.state === "sealed");
  const [drawnFrom, notFound] = sealed;
  if (!started || !drawnFrom || !notFound)
    throw new Error("the demo has a started and two sealed Dysport vials at Downtown");

  // The started vial, 7 U short of what the system has; a sealed one, full.
  await countVial(page, started.label, started.units - 7);
  await countVial(page, drawnFrom.label);
  // A wrong code is refused under the field, nothing counted.
  await page.getByLabel("Label code").fill("V000000000");
  await page.getByRole("button", { name: "Count this vial" }).click();
  await expect(page.getByText(/No vial of your organization has this label code/)).toBeVisible();

  // Blind: what the system expects is not shown.
  const mine = page.getByRole("region", { name: "What I counted" });
  await expect(mine.getByText(drawnFrom.label)).toBeVisible();
  await expect(mine.getByText(/system/)).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await attachScreenshot(page, testInfo, "count on a phone");

  // Meanwhile a second user draws 10 U from the vial already counted.
  const admin = await signedInPage(browser, "admin@demo.clinic");
  const drawn = await admin.request.post(`/api/vials/${drawnFrom.id}/draw`, {
    data: { units: 10 },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  expect(drawn.status()).toBe(200);

  // Submit asks first.
  await page.getByRole("button", { name: "Submit count" }).click();
  await expect(page.getByText(/Submit this count for review\?/)).toBeVisible();
  await page.getByRole("button", { name: "Yes, submit the count" }).click();
  await expect(page.getByText("Count submitted")).toBeVisible();

  // Staff count but do not review: the review screens and the approval are refused.
  const review = await page.goto("/admin/audits");
  expect(review?.status()).toBe(403);
  const sessions = await onDatabase(
    "SELECT s.id FROM audit_sessions AS s JOIN locations AS l ON l.id = s.location_id WHERE l.code = 'DTN' AND s.status = 'submitted'",
    [],
  );
  const sessionId = String(sessions[0]?.id);
  const refused = await page.request.post(`/api/audit-sessions/${sessionId}/approve`, { data: {} });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: "forbidden" });

  // The admin reviews on a phone: expected against counted, as of each count.
  const before = await dysportAtDowntown();
  await admin.goto("/admin/audits?status=submitted");
  await admin
    .getByRole("link", { name: /Downtown/ })
    .first()
    .click();
  await expect(admin.getByRole("heading", { name: /Count at Downtown/ })).toBeVisible();
  await expect(admin.getByText("-7 U").first()).toBeVisible();
  const missing = admin.getByRole("region", { name: "Missing vials" });
  await expect(missing.getByText(notFound.label)).toBeVisible();
  const during = admin.getByRole("region", { name: "Movements while the count was open" });
  await expect(during.getByText(`Dysport · 300 U vial · ${drawnFrom.label}`)).toBeVisible();
  await expectNoSidewaysScroll(admin);
  await attachScreenshot(admin, testInfo, "review on a phone");
  // Once the jobs worker has worked the count's figures out, the page reads them, says so, and
  // shows the same.
  await fireWorkCron(admin);
  await admin.reload();
  await expect(admin.getByTestId("figures-as-of")).toContainText(
    /^As of .+: worked out every minute while the count waits for review\./,
  );
  await expect(admin.getByText("-7 U").first()).toBeVisible();
  await expect(missing.getByText(notFound.label)).toBeVisible();
  await expect(during.getByText(`Dysport · 300 U vial · ${drawnFrom.label}`)).toBeVisible();

  // Approve asks first, naming what it books and discards.
  await admin.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(admin.getByText(/1 count difference booked.*1 missing vial discarded/)).toBeVisible();
  await admin.getByRole("button", { name: "Yes, approve and book" }).click();
  await expect(admin.getByText("Count approved")).toBeVisible();
  await expect(admin.getByText("Approved").first()).toBeVisible();

  // Stock moved by the true variance only: 7 U short and the missing vial, not the draw.
  const after = await dysportAtDowntown();
  expect(after.level).toBe(before.level - 7 - notFound.units);
  const byId = new Map(after.vials.map((v) => [v.id, v]));
  expect(byId.get(drawnFrom.id)?.units).toBe(drawnFrom.units - 10);
  expect(byId.get(started.id)?.units).toBe(started.units - 7);
  expect(byId.has(notFound.id)).toBe(false);
  const [discarded] = await onDatabase("SELECT state, discard_reason AS reason FROM items WHERE id = ?", [notFound.id]);
  expect(discarded).toMatchObject({ state: "discarded", reason: "missing_in_count" });

  // The review page at desktop size.
  const desk = await signedInPage(browser, "admin@demo.clinic", DESKTOP);
  await fireWorkCron(desk);
  await desk.goto(`/admin/audits/${sessionId}`);
  await expect(desk.getByRole("heading", { name: /Count at Downtown/ })).toBeVisible();
  await expect(desk.getByTestId("figures-as-of")).toContainText(/, worked out after the approval\./);
  await expect(desk.getByRole("region", { name: "Missing vials" }).getByText(notFound.label)).toBeVisible();
  await attachScreenshot(desk, testInfo, "review on a desktop");
  await desk.goto("/admin/audits");
  await attachScreenshot(desk, testInfo, "review list on a desktop");
  await desk.context().close();
  await admin.context().close();
});

test("the counts API answers bad input with a clear 4xx and writes nothing, and walks a count through review", async ({
  page,
}) => {
  await signIn(page, "admin@demo.clinic"); // ADMIN at Downtown
  const api = page.request;
  const [gloves] = await onDatabase(
    `SELECT v.id, p.id AS productId, coalesce(sl.on_hand, 0) AS onHand FROM products AS p
      JOIN product_variations AS v ON v.product_id = p.id
      LEFT JOIN stock_levels AS sl ON sl.variation_id = v.id AND sl.location_id = (SELECT id FROM locations WHERE code = 'DTN')
     WHERE p.name = 'Nitrile exam gloves, medium' LIMIT 1`,
    [],
  );
  const [dtn] = await onDatabase("SELECT id FROM locations WHERE code = 'DTN'", []);
  const downtown = String(dtn?.id);
  const variationId = String(gloves?.id);
  const written = async () =>
    (
      await onDatabase(
        "SELECT (SELECT count(*) FROM audit_sessions) || '/' || (SELECT count(*) FROM audit_lines) AS n",
        [],
      )
    )[0]?.n;
  const key = () => ({ "Idempotency-Key": crypto.randomUUID() });

  const before = await written();
  const refusals: [string, object, number, string][] = [
    [
      "/api/audit-sessions",
      { locationId: "another-organizations-location", scope: { kind: "all" }, blind: true },
      403,
      "forbidden",
    ],
    ["/api/audit-sessions", { locationId: downtown, scope: { kind: "shelf" }, blind: true }, 422, "invalid_input"],
    [
      "/api/audit-sessions",
      { locationId: downtown, scope: { kind: "products", productIds: [] }, blind: true },
      422,
      "invalid_input",
    ],
    [
      "/api/audit-sessions",
      { locationId: downtown, scope: { kind: "category", category: "x".repeat(10_000) }, blind: true },
      422,
      "invalid_input",
    ],
  ];
  for (const [path, data, status, code] of refusals) {
    const response = await api.post(path, { data, headers: key() });
    expect({ data, status: response.status() }).toEqual({ data, status });
    expect(await response.json()).toMatchObject({ error: expect.any(String), code });
  }
  expect(await written()).toBe(before);

  const startKey = key();
  const started = await api.post("/api/audit-sessions", {
    data: { locationId: downtown, scope: { kind: "products", productIds: [String(gloves?.productId)] }, blind: false },
    headers: startKey,
  });
  expect(started.status()).toBe(201);
  const { sessionId } = (await started.json()) as { sessionId: string };
  const joined = await api.post("/api/audit-sessions", {
    data: { locationId: downtown, scope: { kind: "all" }, blind: true },
  });
  expect(joined.status()).toBe(200);
  expect(await joined.json()).toEqual({ sessionId, joined: true, status: "in_progress" });

  const counts = `/api/audit-sessions/${sessionId}/counts`;
  const afterStart = await written();
  const bad: [object, number, string][] = [
    [{ variationId, quantity: -5 }, 422, "invalid_input"],
    [{ variationId, quantity: "2.5" }, 422, "invalid"],
    [{ variationId, quantity: 2.5 }, 422, "invalid"],
    [{ variationId, quantity: "9".repeat(30) }, 422, "invalid_input"],
    [{ labelCode: "V000000000" }, 422, "unknown_label"],
    [{ labelCode: "V000000000", unitsRemaining: -1 }, 422, "invalid_input"],
  ];
  for (const [data, status, code] of bad) {
    const response = await api.post(counts, { data, headers: key() });
    expect({ data, status: response.status(), code: ((await response.json()) as { code: string }).code }).toEqual({
      data,
      status,
      code,
    });
  }
  const tooEarly = await api.post(`/api/audit-sessions/${sessionId}/reject`, { data: { note: "too early" } });
  expect(tooEarly.status()).toBe(409);
  expect(await written()).toBe(afterStart);

  // Exactly what the system has, on two shelves.
  const onHand = Number(gloves?.onHand ?? 0);
  const half = Math.floor(onHand / 2);
  for (const quantity of [half, onHand - half]) {
    const counted = await api.post(counts, { data: { variationId, quantity }, headers: key() });
    expect(counted.status()).toBe(200);
  }
  expect((await api.post(`/api/audit-sessions/${sessionId}/submit`, { data: {}, headers: key() })).status()).toBe(200);
  const closed = await api.post(counts, { data: { variationId, quantity: 1 }, headers: key() });
  expect(closed.status()).toBe(409);
  expect(await closed.json()).toMatchObject({ code: "closed", error: expect.stringMatching(/submitted/) });

  const long = await api.post(`/api/audit-sessions/${sessionId}/reject`, { data: { note: "x".repeat(10_000) } });
  expect(long.status()).toBe(422);
  const sent = await api.post(`/api/audit-sessions/${sessionId}/reject`, {
    data: { note: "Count the gloves again" },
    headers: key(),
  });
  expect(await sent.json()).toEqual({ sessionId, status: "rejected" });
  const read = (await (await api.get(`/api/audit-sessions/${sessionId}`)).json()) as {
    status: string;
    reviewNote: string;
    lines: unknown[];
    review: { bulk: { variance: number }[] } | null;
  };
  expect(read).toMatchObject({ status: "rejected", reviewNote: "Count the gloves again" });
  expect(read.lines).toHaveLength(2);
  expect(read.review?.bulk[0]?.variance).toBe(0);
  const list = await api.get("/api/audit-sessions?status=rejected");
  expect(((await list.json()) as { items: { id: string }[] }).items.map((s) => s.id)).toContain(sessionId);
  const badFilter = await api.get("/api/audit-sessions?status=finished");
  expect(badFilter.status()).toBe(400);
  expect(await badFilter.json()).toMatchObject({ code: "invalid_filter" });

  // Counted again (a recount replaces the product's earlier shelves), submitted, approved: nothing to book.
  expect((await api.post(counts, { data: { variationId, quantity: onHand }, headers: key() })).status()).toBe(200);
  expect((await api.post(`/api/audit-sessions/${sessionId}/submit`, { data: {}, headers: key() })).status()).toBe(200);
  const approved = await api.post(`/api/audit-sessions/${sessionId}/approve`, { data: {}, headers: key() });
  expect(await approved.json()).toEqual({ sessionId, status: "approved", booked: 0, discarded: 0, found: 0 });
});

test("bulk shelves counted on a phone, sent back with a note the counter sees, counted again and approved", async ({
  page,
  browser,
}) => {
  const gaugeLevel = async () =>
    Number(
      (
        await onDatabase(
          `SELECT sl.on_hand AS n FROM stock_levels AS sl JOIN locations AS l ON l.id = sl.location_id
            JOIN product_variations AS v ON v.id = sl.variation_id JOIN products AS p ON p.id = v.product_id
           WHERE l.code = 'DTN' AND p.name = 'Gauze 2x2'`,
          [],
        )
      )[0]?.n,
    );
  const onHand = await gaugeLevel();
  await signIn(page, "staff@demo.clinic");
  await page.goto("/audit");
  await page.getByRole("radio", { name: "Chosen products" }).check();
  // The catalogue is found by a search (never listed whole), and what is ticked stays ticked.
  await page.getByLabel(/^Find products/).fill("Gauze 2x2");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByRole("radio", { name: "Chosen products" })).toBeChecked();
  await page.getByRole("checkbox", { name: "Gauze 2x2", exact: true }).check();
  await page.getByLabel(/Blind count/).uncheck();
  await page.getByRole("button", { name: "Start counting" }).click();
  await expect(page.getByRole("heading", { name: /^Count · Counting/ })).toBeVisible();

  const search = async () => {
    await page.getByLabel("Find a product").fill("gauze");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/q=gauze/);
    await expect(
      page.getByRole("region", { name: "Count bulk stock" }).getByText("Gauze 2x2 · Pack of 200"),
    ).toBeVisible();
  };
  /** One shelf counted: the page comes back to the same search with `lines` lines counted. */
  const countShelf = async (quantity: number, lines: number) => {
    await page.getByLabel(/Quantity/).fill(String(quantity));
    await page.getByRole("button", { name: "Count on this shelf" }).click();
    await expect(page.getByText(`${lines} line${lines === 1 ? "" : "s"} counted`)).toBeVisible();
    await expect(page.getByLabel(/Quantity/)).toHaveValue("");
  };
  // Two shelves, one 10 short: a negative quantity is refused first.
  await search();
  // A refusal changed nothing: the page reads nothing again (its form would be drawn again, with
  // fresh keys, under the corrected quantity being typed).
  const readAgain: string[] = [];
  const onRequest = (r: Request) => {
    if (r.method() === "GET" && new URL(r.url()).pathname.endsWith(".data")) readAgain.push(r.url());
  };
  page.on("request", onRequest);
  await page.getByLabel(/Quantity/).fill("-3");
  await page.getByRole("button", { name: "Count on this shelf" }).click();
  await expect(page.getByText(/Enter the quantity counted/)).toBeVisible();
  await page.waitForLoadState("networkidle");
  page.off("request", onRequest);
  expect(readAgain).toEqual([]);
  await countShelf(100, 1);
  await countShelf(onHand - 110, 2);
  // Not blind: what the system expects is shown beside what was counted.
  await expect(page.getByText(/system/).first()).toBeVisible();
  await page.getByRole("button", { name: "Submit count" }).click();
  await page.getByRole("button", { name: "Yes, submit the count" }).click();
  await expect(page.getByText("Count submitted")).toBeVisible();

  const admin = await signedInPage(browser, "admin@demo.clinic");
  await admin.goto("/admin/audits?status=submitted");
  await admin
    .getByRole("link", { name: /Downtown/ })
    .first()
    .click();
  await expect(admin.getByText("-10 each").first()).toBeVisible();
  await admin.getByRole("button", { name: "Send back for a recount" }).click();
  await expect(admin.getByText(/Say in the note what to recount/)).toBeVisible();
  await admin.getByLabel("Note for the counters").fill("Gauze: count the back shelf again");
  await admin.getByRole("button", { name: "Send back for a recount" }).click();
  await expect(admin.getByText("Sent back", { exact: true }).first()).toBeVisible();
  await expect(admin.getByText(/can be approved once it is counted again/)).toBeVisible();

  await page.goto("/audit");
  await expect(page.getByText(/Sent back for a recount: Gauze: count the back shelf again/)).toBeVisible();
  await expect(page.getByText(/Submit is offered once the count is counted again/)).toBeVisible();
  await search();
  // Counting the product again replaces its earlier shelves.
  await countShelf(100, 1);
  await countShelf(onHand - 100, 2);
  await page.getByRole("button", { name: "Submit count" }).click();
  await page.getByRole("button", { name: "Yes, submit the count" }).click();
  await expect(page.getByText("Count submitted")).toBeVisible();

  await admin.reload();
  await admin.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(admin.getByText(/no count differences, no vial discarded/)).toBeVisible();
  await admin.getByRole("button", { name: "Yes, approve and book" }).click();
  await expect(admin.getByText("Count approved")).toBeVisible();
  expect(await gaugeLevel()).toBe(onHand);
  await admin.context().close();
});
