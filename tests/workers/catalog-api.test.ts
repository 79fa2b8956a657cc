// The catalogue API inside workerd (spec section 7): /api/products, /api/product-variations and
// /api/barcodes/{code}, as every demo user, signed out, and naming a location that is not theirs.
// The product looked up here is made through the product screens, as a manager would.
import { beforeAll, describe, expect, it } from "vitest";
import { can } from "../../app/access/permissions";
import { UNKNOWN_CODE } from "../../app/scan/lookup.server";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { createProduct, get, type MyLocation, postForm, signInAs, toxinFields } from "./support";

const RUN = Date.now().toString(36).toUpperCase();

const sessions = new Map<string, { cookie: string; locations: MyLocation[] }>();
let codes: Record<string, string> = {};

const cookieOf = (email: string) => sessions.get(`${email}@demo.clinic`)?.cookie ?? "";

let productId = "";
let variationId = "";
const barcode = `API-${RUN}`;

beforeAll(async () => {
  for (const user of DEMO_USERS) sessions.set(user.email, await signInAs(user.email));
  codes = Object.fromEntries(
    (sessions.get("owner@demo.clinic")?.locations ?? []).map((l) => [l.location.code, l.locationId]),
  );

  // The manager adds a product, a variation and a barcode through the product screens.
  const manager = cookieOf("manager");
  ({ productId, variationId } = await createProduct(
    manager,
    toxinFields(`API Toxin ${RUN}`, `API-${RUN}`, `API ${RUN}`),
  ));
  const added = await postForm(`/products/${productId}`, manager, {
    intent: "barcode-add",
    variationId,
    code: barcode.toLowerCase(),
  });
  expect(added.status).toBe(302);
});

describe("the catalogue API, as every demo user", () => {
  for (const user of DEMO_USERS) {
    it(`${user.email}: allowed exactly where their role grants READ_PRODUCTS`, async () => {
      const { cookie, locations } = sessions.get(user.email) ?? { cookie: "", locations: [] };
      const access = { organizationRole: user.organizationRole ?? null, locationRoles: locations };
      const expected = can(access, "READ_PRODUCTS", locations[0]?.locationId ?? null) ? 200 : 403;
      for (const path of [
        "/api/products",
        `/api/product-variations?productId=${productId}`,
        `/api/barcodes/${barcode}`,
      ]) {
        const response = await get(path, cookie);
        expect({ path, status: response.status }).toEqual({ path, status: expected });
        expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
        if (expected === 403)
          expect(await response.json()).toEqual({ error: expect.stringMatching(/permission/), code: "forbidden" });
      }
    });
  }

  it("answers 401 JSON to a signed-out caller", async () => {
    for (const path of ["/api/products", "/api/product-variations", `/api/barcodes/${barcode}`]) {
      const response = await get(path);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/not signed in/), code: "not_signed_in" });
    }
  });

  it("answers 403 JSON for a location that is not the caller's, unknown, or organization-wide for non-admins", async () => {
    const staff = cookieOf("staff"); // STAFF at Downtown only
    const owner = cookieOf("owner");
    const refused = [
      [staff, `/api/products?locationId=${codes.WST}`],
      [staff, `/api/product-variations?locationId=${codes.NTH}`],
      [staff, `/api/barcodes/${barcode}?locationId=${codes.WST}`],
      [staff, "/api/products?locationId=all"],
      [owner, "/api/products?locationId=no-such-location"],
    ] as const;
    for (const [cookie, path] of refused) {
      const response = await get(path, cookie);
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(await response.json()).toEqual({ error: expect.any(String), code: "forbidden" });
    }
    for (const [cookie, path] of [
      [staff, `/api/products?locationId=${codes.DTN}`],
      [owner, "/api/products?locationId=all"],
      [owner, `/api/products?locationId=${codes.NTH}`],
    ] as const) {
      expect((await get(path, cookie)).status).toBe(200);
    }
  });
});

describe("GET /api/products", () => {
  it("pages the catalogue as {items, page, pageSize, total} and searches like the products screen", async () => {
    const staff = cookieOf("staff");
    const all = (await (await get("/api/products?pageSize=2", staff)).json()) as {
      items: unknown[];
      page: number;
      pageSize: number;
      total: number;
    };
    expect(all).toMatchObject({ page: 1, pageSize: 2 });
    expect(all.items).toHaveLength(Math.min(2, all.total));
    expect(all.total).toBeGreaterThanOrEqual(1);
    const last = Math.max(1, Math.ceil(all.total / 2));
    const end = (await (await get(`/api/products?pageSize=2&page=${last + 1}`, staff)).json()) as { items: unknown[] };
    expect(end.items).toEqual([]);

    const found = (await (await get(`/api/products?q=${barcode.toLowerCase()}`, staff)).json()) as {
      items: { id: string; name: string; variationCount: number; costCents: number }[];
      total: number;
    };
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({
      id: productId,
      name: `API Toxin ${RUN}`,
      variationCount: 1,
      costCents: 40000,
      controlled: false,
    });
    // A controlled substance says so (the demo's midazolam): wasting its units needs a witness.
    const midazolam = (await (await get("/api/products?q=MDZ-1", staff)).json()) as {
      items: { controlled: boolean }[];
    };
    expect(midazolam.items.map((p) => p.controlled)).toEqual([true]);
    // Odd input falls back to the first page rather than failing.
    expect((await get("/api/products?page=-3&pageSize=oops", staff)).status).toBe(200);
  });
});

describe("GET /api/product-variations", () => {
  it("pages a product's variations with their product and barcodes", async () => {
    const body = (await (await get(`/api/product-variations?productId=${productId}`, cookieOf("multi"))).json()) as {
      items: { id: string; name: string; unitsPerPackage: number; barcodes: string[]; product: { id: string } }[];
      page: number;
      pageSize: number;
      total: number;
    };
    expect(body).toMatchObject({ page: 1, pageSize: 25, total: 1 });
    expect(body.items[0]).toMatchObject({
      id: variationId,
      name: "100 U vial",
      unitsPerPackage: 100,
      barcodes: [barcode],
      product: { id: productId },
    });
  });
});

describe("GET /api/barcodes/{code}", () => {
  it("normalises the code, answers the variation and product, 404 when unknown, 400 with the rules' messages", async () => {
    const staff = cookieOf("staff");
    const found = await get(`/api/barcodes/${encodeURIComponent(` ${barcode.toLowerCase()} `)}`, staff);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({
      kind: "variation",
      match: "barcode",
      code: barcode,
      variation: { id: variationId, name: "100 U vial", unitsPerPackage: 100 },
      product: { id: productId, name: `API Toxin ${RUN}`, tracking: "serialized", baseUnit: "U" },
    });

    const unknown = await get(`/api/barcodes/NO-SUCH-${RUN}`, staff);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: UNKNOWN_CODE, code: "not_found" });

    const invalid = await get(`/api/barcodes/${encodeURIComponent("a!")}`, staff);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      error:
        "Invalid character(s) detected: !. Only A-Z, 0-9, hyphens, and underscores are allowed. Barcode code must be at least 4 characters long",
      code: "invalid_barcode",
    });
  });
});

describe("the product's safety fields, through the worker", () => {
  it("are changed by an organization admin only: a manager's forged change is refused 403 and the API shows none", async () => {
    const form = (fields: Record<string, string>) => ({
      intent: "update",
      version: "1",
      ...toxinFields(`API Toxin ${RUN}`, `API-${RUN}`, `API ${RUN}`, fields),
    });
    const shown = async () => {
      const body = (await (await get(`/api/products?q=API-${RUN}`, cookieOf("staff"))).json()) as {
        items: { controlled: boolean; beyondUseHours: number | null }[];
      };
      return body.items.map((p) => [p.controlled, p.beyondUseHours]);
    };
    const forged = await postForm(`/products/${productId}`, cookieOf("manager"), form({ controlled: "on" }));
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("Only organization admins change");
    expect(await shown()).toEqual([[false, 24]]);

    const changed = await postForm(
      `/products/${productId}`,
      cookieOf("owner"),
      form({ controlled: "on", beyondUseHours: "48" }),
    );
    expect(changed.status).toBe(302);
    expect(await shown()).toEqual([[true, 48]]);
  });
});
