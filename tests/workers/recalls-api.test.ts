// The usage and recalls APIs inside workerd: POST /api/recalls (who may, every bad input a 4xx in
// the one error shape, 201 with the recall, the Idempotency-Key), GET /api/recalls,
// GET /api/recalls/{lot} (the report, scoped to the caller's locations), the report's CSV answering
// a bad request in the one error shape, and GET /api/usage. The lot recalled here is made up, so no
// vial another test file uses is quarantined: it holds none, so it is recalled with confirmNoMatch.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_USERS } from "../../scripts/seed/demo";
import { app, BASE, get, type MyLocation, signInAs } from "./support";

const sessions = new Map<string, { cookie: string; locations: MyLocation[] }>();
const cookieOf = (name: string) => sessions.get(`${name}@demo.clinic`)?.cookie ?? "";
const LOT = `WT-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
let variationId = "";
let codes: Record<string, string> = {};

function post(body: string, cookie: string, headers: Record<string, string> = {}) {
  return app().fetch(`${BASE}/api/recalls`, {
    method: "POST",
    body,
    headers: { Cookie: cookie, "Content-Type": "application/json", ...headers },
    redirect: "manual",
  });
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  for (const user of DEMO_USERS) sessions.set(user.email, await signInAs(user.email));
  codes = Object.fromEntries(
    (sessions.get("owner@demo.clinic")?.locations ?? []).map((l) => [l.location.code, l.locationId]),
  );
  const vials = (await (await get("/api/vials?locationId=all&lot=C8123C3", cookieOf("owner"))).json()) as {
    items: { variationId: string }[];
  };
  variationId = vials.items[0]?.variationId ?? "";
  expect(variationId).not.toBe("");
});

describe("POST /api/recalls", () => {
  const unconfirmed = () => JSON.stringify({ variationId, lot: LOT, note: "Manufacturer notice MN-2026-11" });
  const valid = () =>
    JSON.stringify({ variationId, lot: LOT, note: "Manufacturer notice MN-2026-11", confirmNoMatch: true });

  it("answers 401 signed out and 403 to a role without WRITE_PRODUCTS, before reading the body", async () => {
    expect(await answer(await post(valid(), ""))).toEqual({
      status: 401,
      body: { error: expect.stringMatching(/not signed in/), code: "not_signed_in" },
    });
    for (const name of ["staff", "multi", "newhire"]) {
      expect(await answer(await post("{not json", cookieOf(name)))).toEqual({
        status: 403,
        body: { error: expect.stringMatching(/permission/), code: "forbidden" },
      });
    }
  });

  it("answers every bad input with a 4xx that says what to fix, never a 500", async () => {
    const manager = cookieOf("manager");
    const cases: [string, Record<string, string>, number, string][] = [
      ["{not json", {}, 400, "invalid_json"],
      ["[]", {}, 400, "invalid_json"],
      ['"text"', {}, 400, "invalid_json"],
      ["{}", {}, 422, "invalid_input"],
      [JSON.stringify({ variationId, lot: "", note: "x" }), {}, 422, "invalid_input"],
      [JSON.stringify({ variationId, lot: LOT, note: "" }), {}, 422, "invalid_input"],
      [JSON.stringify({ variationId, lot: LOT, note: "x".repeat(10_000) }), {}, 422, "invalid_input"],
      [JSON.stringify({ variationId, lot: "L".repeat(10_000), note: "x" }), {}, 422, "invalid_input"],
      [JSON.stringify({ variationId: 42, lot: LOT, note: "x" }), {}, 422, "invalid_input"],
      [JSON.stringify({ variationId: "no-such-variation", lot: LOT, note: "x" }), {}, 422, "variation_not_found"],
      [JSON.stringify({ variationId, lot: LOT, note: "x", confirmNoMatch: "yes" }), {}, 422, "invalid_input"],
      [unconfirmed(), {}, 409, "confirm_no_match"],
      [valid(), { "Idempotency-Key": "bad key!" }, 400, "invalid_idempotency_key"],
      [valid(), { "Content-Type": "text/plain" }, 415, "unsupported_media_type"],
    ];
    for (const [body, headers, status, code] of cases) {
      const got = await answer(await post(body, manager, headers));
      const sent = body.slice(0, 40);
      expect({ sent, status: got.status, code: got.body.code, error: typeof got.body.error }).toEqual({
        sent,
        status,
        code,
        error: "string",
      });
    }
    const fields = await answer(await post("{}", manager));
    expect(Object.keys((fields.body.fields ?? {}) as object).sort()).toEqual(["lot", "note", "variationId"]);
    // Nothing was recalled by any of them.
    const report = await answer(await get(`/api/recalls/${LOT}?variationId=${variationId}`, manager));
    expect(report.body.status).toBe("never");
  });

  it("refuses a new lot a GS1 barcode could not carry (an emoji, a NUL, a space, 21 characters) with 422 and why", async () => {
    const manager = cookieOf("manager");
    for (const [lot, message] of [
      ["LOT💉1", /holds only what a GS1 barcode can/],
      ["C8123\u0000C3", /invisible or control character \(U\+0000\)/],
      ["C8123 C3", /holds only what a GS1 barcode can/],
      ["L".repeat(21), /at most 20 characters/],
    ] as const) {
      const got = await answer(await post(JSON.stringify({ variationId, lot, note: "Notice" }), manager));
      // A NUL is the form's (422 invalid_input, under the field); the GS1 rule is the verb's (422 invalid).
      expect({ lot, status: got.status }).toEqual({ lot, status: 422 });
      expect(["invalid_input", "invalid"]).toContain(got.body.code);
      expect(got.body.error).toMatch(message);
    }
  });

  it("refuses a lot that holds no vial until confirmed, naming the lots that differ only in case or spacing", async () => {
    const typed = await answer(
      await post(JSON.stringify({ variationId, lot: "c8123c3", note: "Notice" }), cookieOf("manager")),
    );
    expect(typed).toEqual({
      status: 409,
      body: {
        error: expect.stringMatching(/differ only in case or spacing: C8123C3 \(\d+ vials\).*"confirmNoMatch": true/),
        code: "confirm_no_match",
        nearLots: [{ lot: "C8123C3", vials: expect.any(Number) }],
      },
    });
    expect((typed.body.nearLots as { vials: number }[])[0]?.vials).toBeGreaterThan(0);
    const made = await answer(await post(unconfirmed(), cookieOf("manager")));
    expect(made).toMatchObject({ status: 409, body: { code: "confirm_no_match", nearLots: [] } });
    expect(made.body.error).toMatch(new RegExp(`lot ${LOT}`));
  });

  it("marks the lot: 201 with the recall and what it quarantines, once per Idempotency-Key, then 409 while it is in force", async () => {
    const manager = cookieOf("manager");
    const key = crypto.randomUUID();
    const first = await post(valid(), manager, { "Idempotency-Key": key });
    expect(first.status).toBe(201);
    expect(first.headers.get("Cache-Control")).toBe("private, no-store");
    const { recall, quarantined } = (await first.json()) as { recall: Record<string, unknown>; quarantined: unknown };
    expect(quarantined).toEqual({ vials: 0, locations: [] });
    expect(Object.keys(recall).sort()).toEqual(
      [
        "id",
        "variationId",
        "productId",
        "productName",
        "variationName",
        "lot",
        "note",
        "recalledAt",
        "recalledBy",
        "liftedAt",
        "liftedBy",
        "liftNote",
        "inForce",
      ].sort(),
    );
    expect(recall).toMatchObject({
      variationId,
      lot: LOT,
      inForce: true,
      liftedAt: null,
      productName: "Botox Cosmetic",
    });

    const repeat = await answer(await post(valid(), manager, { "Idempotency-Key": key }));
    expect(repeat).toMatchObject({ status: 201, body: { recall: { id: recall.id } } });
    // The same key for another lot is refused (422), not answered with this recall: the other
    // lot is not silently left unrecalled.
    const otherLot = `${LOT}-B`;
    const other = JSON.stringify({ variationId, lot: otherLot, note: "Manufacturer notice MN-2026-11" });
    expect(await answer(await post(other, manager, { "Idempotency-Key": key }))).toMatchObject({
      status: 422,
      body: { code: "idempotency_key_reused" },
    });
    const report = await answer(await get(`/api/recalls/${otherLot}?variationId=${variationId}`, manager));
    expect(report.body.status).toBe("never");
    expect(await answer(await post(valid(), cookieOf("owner")))).toEqual({
      status: 409,
      body: { error: expect.stringMatching(/already recalled/), code: "already_recalled" },
    });

    const list = (await (await get("/api/recalls", cookieOf("staff"))).json()) as { inForce: { id: string }[] };
    expect(list.inForce.map((r) => r.id)).toContain(recall.id);
  });
});

describe("GET /api/recalls/{lot}", () => {
  it("reports a lot, recalled or not, at the caller's locations only", async () => {
    const report = await answer(await get(`/api/recalls/${LOT}?variationId=${variationId}`, cookieOf("staff")));
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ lot: LOT, variationId, status: "in_force", uses: [], vials: [] });
    expect(Object.keys(report.body).sort()).toEqual(
      ["variationId", "lot", "productName", "variationName", "status", "recalls", "uses", "vials"].sort(),
    );

    type Vial = { location: { code: string }; state: string; unitsRemaining: number; unitsText: string };
    const seeded = async (cookie: string, suffix = "") =>
      (await (await get(`/api/recalls/C8123C3?variationId=${variationId}${suffix}`, cookie)).json()) as {
        vials: Vial[];
      };
    const staff = await seeded(cookieOf("staff"));
    expect(staff.vials.length).toBeGreaterThan(0);
    expect(new Set(staff.vials.map((v) => v.location.code))).toEqual(new Set(["DTN"]));
    const manager = await seeded(cookieOf("manager"));
    expect(new Set(manager.vials.map((v) => v.location.code))).toEqual(new Set(["WST"]));
    const everywhere = await seeded(cookieOf("owner"), "&locationId=all");
    expect(new Set(everywhere.vials.map((v) => v.location.code))).toEqual(new Set(["DTN", "WST"]));
    expect(everywhere.vials.length).toBe(staff.vials.length + manager.vials.length);
  });

  it("answers 400 without a variation, 404 for one not in the organization, 401 signed out, 403 elsewhere", async () => {
    const staff = cookieOf("staff");
    expect(await answer(await get(`/api/recalls/${LOT}`, staff))).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/variationId/), code: "invalid_request" },
    });
    expect(await answer(await get(`/api/recalls/${LOT}?variationId=${"v".repeat(5000)}`, staff))).toMatchObject({
      status: 400,
    });
    expect(await answer(await get(`/api/recalls/${LOT}?variationId=nope`, staff))).toEqual({
      status: 404,
      body: { error: expect.stringMatching(/variation/), code: "not_found" },
    });
    expect((await get(`/api/recalls/${LOT}?variationId=${variationId}`)).status).toBe(401);
    expect((await get(`/api/recalls/${LOT}?variationId=${variationId}`, cookieOf("newhire"))).status).toBe(403);
    expect((await get(`/api/recalls/${LOT}?variationId=${variationId}&locationId=${codes.WST}`, staff)).status).toBe(
      403,
    );
  });
});

describe("GET /recalls/report.csv", () => {
  it("answers a missing or unknown variation in the one error shape, saying what is wrong", async () => {
    const staff = cookieOf("staff");
    expect(await answer(await get(`/recalls/report.csv?lot=${LOT}`, staff))).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/Name the variation and the lot/), code: "invalid_request" },
    });
    expect(await answer(await get(`/recalls/report.csv?variationId=nope&lot=${LOT}`, staff))).toEqual({
      status: 404,
      body: { error: expect.stringMatching(/variation does not exist/), code: "not_found" },
    });
    const csv = await get(`/recalls/report.csv?variationId=${variationId}&lot=${LOT}`, staff);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toMatch(/text\/csv/);
  });
});

describe("GET /api/usage", () => {
  it("answers a page in the keyset list shape, at the caller's location, 403 at another", async () => {
    const page = await answer(await get("/api/usage?pageSize=500", cookieOf("staff")));
    expect(page).toMatchObject({
      status: 200,
      body: { pageSize: 25, items: expect.any(Array), totalExact: true, previous: null },
    });
    expect(typeof page.body.total).toBe("number");
    const first = await answer(await get("/api/usage?pageSize=1", cookieOf("staff")));
    expect(first.body.items).toHaveLength(1);
    const next = await answer(await get(`/api/usage?pageSize=1&after=${first.body.next}`, cookieOf("staff")));
    expect(next).toMatchObject({ status: 200, body: { pageSize: 1, previous: expect.any(String) } });
    const idOf = (body: Record<string, unknown>) => (body.items as { id: string }[])[0]?.id;
    expect(idOf(next.body)).toBeTruthy();
    expect(idOf(next.body)).not.toBe(idOf(first.body));
    // A cursor the log did not make: 400 in the one error shape, saying how to start again.
    expect(await answer(await get("/api/usage?after=not-a-cursor", cookieOf("staff")))).toMatchObject({
      status: 400,
      body: { code: "invalid_cursor", error: expect.stringMatching(/first page/) },
    });
    expect((await get(`/api/usage?locationId=${codes.WST}`, cookieOf("staff"))).status).toBe(403);
    expect((await get("/api/usage")).status).toBe(401);
    expect((await get("/api/usage?locationId=all", cookieOf("owner"))).status).toBe(200);
    expect((await get("/api/usage?locationId=all", cookieOf("manager"))).status).toBe(403);
  });
});
