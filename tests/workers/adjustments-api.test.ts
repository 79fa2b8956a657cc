// POST /api/stock-adjustments inside workerd: staff adjust a bulk product at their own location
// (WRITE_INVENTORY, spec section 6) and see it in GET /api/stock-levels; another location is a
// 403; bad input (missing, non-numeric, zero or huge quantities, a 10,000-character note, unknown
// ids, a serialized product, more than is on hand) is a 4xx in the API's one error shape and
// changes nothing; an Idempotency-Key writes once. Every change here is undone before the end: the
// workers share one database.
import { beforeAll, describe, expect, it } from "vitest";
import { app, BASE, signInAs } from "./support";

interface Level {
  locationId: string;
  variationId: string;
  onHand: number;
}

let staff = "";
let owner = "";
let loc: Record<string, string> = {};
let gauze = "";
let botox = "";

function adjust(cookie: string, body: unknown, headers: Record<string, string> = {}) {
  return app().fetch(`${BASE}/api/stock-adjustments`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { Cookie: cookie, "Content-Type": "application/json", ...headers },
    redirect: "manual",
  });
}

/** Gauze on hand at Downtown, as the stock levels API reads it. */
async function gauzeOnHand(): Promise<number> {
  const response = await app().fetch(`${BASE}/api/stock-levels?q=Gauze&locationId=${loc.DTN}`, {
    headers: { Cookie: staff },
  });
  expect(response.status).toBe(200);
  const { items } = (await response.json()) as { items: Level[] };
  return items.find((l) => l.variationId === gauze)?.onHand ?? 0;
}

async function variationId(q: string): Promise<string> {
  const response = await app().fetch(`${BASE}/api/product-variations?q=${encodeURIComponent(q)}`, {
    headers: { Cookie: owner },
  });
  const { items } = (await response.json()) as { items: { id: string }[] };
  expect(items).toHaveLength(1);
  return items[0]?.id ?? "";
}

beforeAll(async () => {
  const signedIn = await signInAs("owner@demo.clinic");
  owner = signedIn.cookie;
  loc = Object.fromEntries(signedIn.locations.map((l) => [l.location.code, l.locationId]));
  staff = (await signInAs("staff@demo.clinic")).cookie;
  gauze = await variationId("SUP-GAUZE-200");
  botox = await variationId("BTX-COS-100");
});

describe("POST /api/stock-adjustments", () => {
  it("lets staff adjust a bulk product at their location, both ways, with a reason, and writes once per key", async () => {
    const before = await gauzeOnHand();
    const key = crypto.randomUUID();
    const body = { locationId: loc.DTN, variationId: gauze, quantity: 3, reason: "count_correction" };
    const response = await adjust(staff, body, { "Idempotency-Key": key });
    expect(response.status).toBe(201);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const answer = await response.json();
    expect(answer).toEqual({
      movementId: expect.any(String),
      locationId: loc.DTN,
      location: "Downtown",
      variationId: gauze,
      product: "Gauze 2x2",
      variation: "Pack of 200",
      quantity: 3,
      onHand: before + 3,
      unitScale: 1,
      baseUnit: "each",
      reason: "count_correction",
      note: null,
    });
    expect(await gauzeOnHand()).toBe(before + 3);

    // A retry with the same key answers the same and moves nothing.
    const again = await adjust(staff, body, { "Idempotency-Key": key });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(answer);
    expect(await gauzeOnHand()).toBe(before + 3);

    // Back down, as a decimal string with "other" and its note.
    const back = await adjust(staff, { ...body, quantity: "-3", reason: "other", note: "Miscounted the top shelf" });
    expect(back.status).toBe(201);
    expect(await back.json()).toMatchObject({ quantity: -3, onHand: before, note: "Miscounted the top shelf" });
    expect(await gauzeOnHand()).toBe(before);
  });

  it("refuses staff at another location (403), and a signed-out caller (401)", async () => {
    const before = await gauzeOnHand();
    for (const locationId of [loc.WST, loc.NTH, "not-a-location"]) {
      const response = await adjust(staff, { locationId, variationId: gauze, quantity: 5, reason: "donated" });
      expect({ locationId, status: response.status }).toEqual({ locationId, status: 403 });
      expect(await response.json()).toEqual({ error: expect.stringMatching(/permission/), code: "forbidden" });
    }
    const signedOut = await adjust("", { locationId: loc.DTN, variationId: gauze, quantity: 5, reason: "donated" });
    expect(signedOut.status).toBe(401);
    expect(await gauzeOnHand()).toBe(before);
  });

  it("answers bad input with a 4xx that says what is wrong, and changes nothing", async () => {
    const before = await gauzeOnHand();
    const good = { locationId: loc.DTN, variationId: gauze, quantity: 1, reason: "damaged" };
    const { quantity: _, ...noQuantity } = good;
    const cases: [string, unknown, number, string][] = [
      ["missing quantity", noQuantity, 422, "invalid_input"],
      ["non-numeric quantity", { ...good, quantity: "lots" }, 422, "invalid_input"],
      ["zero", { ...good, quantity: 0 }, 422, "invalid_input"],
      ["null quantity", { ...good, quantity: null }, 422, "invalid_input"],
      ["huge", { ...good, quantity: 1e300 }, 422, "invalid_input"],
      ["huge text", { ...good, quantity: "9".repeat(10_000) }, 422, "invalid_input"],
      ["too many decimals", { ...good, quantity: "1.5" }, 422, "invalid"],
      ["another unit", { ...good, quantity: "1 mL" }, 422, "invalid"],
      ["a 10,000-character note", { ...good, note: "x".repeat(10_000) }, 422, "invalid_input"],
      ["other without a note", { ...good, reason: "other" }, 422, "invalid_input"],
      ["a reason not in the list", { ...good, reason: "stolen" }, 422, "invalid_input"],
      ["no variation", { ...good, variationId: "" }, 422, "invalid_input"],
      ["an unknown variation", { ...good, variationId: crypto.randomUUID() }, 404, "not_found"],
      ["a serialized product", { ...good, variationId: botox, quantity: -1 }, 409, "serialized"],
      ["more than is on hand", { ...good, quantity: -99_999 }, 409, "not_enough_stock"],
      ["an array", [good], 400, "invalid_json"],
      ["not JSON", "{quantity: 1", 400, "invalid_json"],
    ];
    for (const [what, body, status, code] of cases) {
      const response = await adjust(staff, body);
      const answer = (await response.json()) as { error: string; code: string };
      expect({ what, status: response.status, code: answer.code }).toEqual({ what, status, code });
      expect(answer.error.length, what).toBeGreaterThan(10);
    }
    const serialized = await adjust(staff, { ...good, variationId: botox, quantity: -1 });
    expect(((await serialized.json()) as { error: string }).error).toMatch(/\/inventory\//);
    // A key that is not one is refused before anything is read.
    expect((await adjust(staff, good, { "Idempotency-Key": "no" })).status).toBe(400);
    expect(await gauzeOnHand()).toBe(before);
  });
});
