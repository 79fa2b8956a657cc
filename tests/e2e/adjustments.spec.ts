// Stock adjustments at a phone's width (390 × 844): staff@demo.clinic corrects Downtown's gauze on
// /stock-levels with a reason (a reason of "other" without its note is refused next to the
// field), sees the new on-hand and the adjustment in the product's recent changes with their name;
// the API refuses them at another location. The e2e database is shared: the change is undone
// through the API before the end.
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { expect, signIn, test } from "./support";

test.use({ viewport: { width: 390, height: 844 } });

const GAUZE = "Gauze 2x2 · Pack of 200";

/** "1,205 each" → 1205. */
const count = (text: string | null) => Number((text ?? "").replace(/[^\d-]/g, ""));

test("staff adjust a bulk product at their location with a reason, and the API refuses them elsewhere", async ({
  page,
  playwright,
  baseURL,
}) => {
  await signIn(page, "staff@demo.clinic");
  await expect(page).toHaveURL(/\/$/);

  // What the API says is there now, and where (the staff user's one location, Downtown).
  const levels = await page.request.get("/api/stock-levels?q=Gauze");
  expect(levels.status()).toBe(200);
  const [level] = ((await levels.json()) as { items: { locationId: string; variationId: string; onHand: number }[] })
    .items;
  if (!level) throw new Error("no gauze at Downtown");

  await page.goto("/stock-levels?q=Gauze");
  const usable = page.locator("tbody tr").first().locator("td").nth(1);
  await expect(usable).toContainText("each");
  const before = count(await usable.textContent());
  expect(before).toBe(level.onHand);

  await page.getByRole("link", { name: `Adjust ${GAUZE}` }).click();
  await expect(page.getByRole("heading", { name: `Adjust ${GAUZE}` })).toBeVisible();
  // The change is typed in each; the par levels count packages: the form says both (issue 18.13).
  await expect(
    page.getByText(new RegExp(`At Downtown: ${before} each on hand now \\(\\d+ packages?( \\+ \\d+ each)?\\)\\.`)),
  ).toBeVisible();

  // "Other" says nothing by itself: refused under the note, what was typed kept.
  await page.getByLabel("Change in each (package of 200)").fill("5");
  await page.getByLabel("Reason").selectOption("other");
  await page.getByRole("button", { name: "Save adjustment" }).click();
  await expect(page.getByText("Say what happened in the note: a reason of other needs one.")).toBeVisible();
  await expect(page.getByLabel("Change in each (package of 200)")).toHaveValue("5");

  await page.getByLabel("Reason").selectOption("count_correction");
  await page.getByRole("button", { name: "Save adjustment" }).click();
  await expect(page.getByTestId("toast")).toContainText("Stock adjusted");
  await expect(page.getByTestId("toast")).toContainText(`${GAUZE} at Downtown: +5 each (Count correction).`);
  // Back on the list as it was, the form closed, the new on-hand in the row.
  await expect(page).toHaveURL(/\/stock-levels\?q=Gauze$/);
  await expect(page.getByRole("heading", { name: `Adjust ${GAUZE}` })).toHaveCount(0);
  await expect(usable).toHaveText(new RegExp(`^${before + 5} each`));

  // The adjustment is in the product's recent changes, with its reason and who made it.
  await page.getByRole("link", { name: "Gauze 2x2" }).first().click();
  const changes = page.getByRole("list", { name: "Recent changes" });
  const entry = changes.getByRole("listitem").filter({ hasText: "Stock adjusted at Downtown · Pack of 200" }).first();
  await expect(entry).toContainText("Sam Staff");
  await expect(entry).toContainText(`+5 each (Count correction), ${before + 5} each on hand after`);

  // The API: refused at another location (403), changing nothing there or here.
  const owner = await playwright.request.newContext({ baseURL });
  const login = await owner.post("/api/auth/login", { data: { email: "owner@demo.clinic", password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  const mine = (await (await owner.get("/api/locations/my")).json()) as {
    locationId: string;
    location: { code: string };
  }[];
  await owner.dispose();
  const westside = mine.find((l) => l.location.code === "WST")?.locationId;
  if (!westside) throw new Error("no Westside");
  for (const locationId of [westside, "not-a-location"]) {
    const refused = await page.request.post("/api/stock-adjustments", {
      data: { locationId, variationId: level.variationId, quantity: 5, reason: "donated" },
    });
    expect({ locationId, status: refused.status() }).toEqual({ locationId, status: 403 });
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/permission/), code: "forbidden" });
  }

  // Undone through the API at their own location, which the list shows.
  const undo = await page.request.post("/api/stock-adjustments", {
    data: {
      locationId: level.locationId,
      variationId: level.variationId,
      quantity: "-5",
      reason: "other",
      note: "End-to-end test: undoing its own count correction",
    },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  expect(undo.status()).toBe(201);
  expect(await undo.json()).toMatchObject({ quantity: -5, onHand: before });
  await page.goto("/stock-levels?q=Gauze");
  await expect(usable).toHaveText(new RegExp(`^${before} each`));
});
