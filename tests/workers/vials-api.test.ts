// The vial JSON API inside workerd: GET /api/vials/{id} with its history, POST .../start, /draw,
// /empty and /discard over HTTP (the one error shape and its codes, the Idempotency-Key replay,
// every bad input a 4xx that changes nothing, 403/404 by scope), and GET /api/barcodes/{code}
// finding an item by its label and by a GS1 payload. The vials are the test's own: a product made
// through the product screens and received at West by its manager, so no other file's stock moves.
import { beforeAll, describe, expect, it } from "vitest";
import { gtinCheckDigit } from "../../app/catalog/gtin";
import { GS } from "../../app/stock/gs1";
import { DEMO_PASSWORD, DEMO_USERS } from "../../scripts/seed/demo";
import { app, BASE, createProduct, get, type MyLocation, postForm, signInAs, toxinFields } from "./support";

const RUN = Date.now().toString(36).toUpperCase();
const LOT = `VA-${RUN}`;
const CONTROLLED_LOT = `VC-${RUN}`;
const SERIAL = `SN${RUN}`;
const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const body13 = `${Date.now()}`.slice(-12).padStart(13, "9");
const GTIN = `${body13}${gtinCheckDigit(body13)}`;

const sessions = new Map<string, { cookie: string; locations: MyLocation[] }>();
const cookieOf = (name: string) => sessions.get(`${name}@demo.clinic`)?.cookie ?? "";
let codes: Record<string, string> = {};

interface Vial {
  id: string;
  labelCode: string;
  locationId: string;
  state: string;
  unitsRemaining: number;
  serial: string | null;
  startedAt: string | null;
  expiresAt: string | null;
  discardReason: string | null;
  controlled: boolean;
}

/** A JSON write, as an integration (or the scan screen) sends it. */
function post(path: string, cookie: string, body: unknown, headers: Record<string, string> = {}) {
  return app().fetch(`${BASE}${path}`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { Cookie: cookie, "Content-Type": "application/json", ...headers },
    redirect: "manual",
  });
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function vialOf(id: string, cookie = cookieOf("manager")): Promise<Vial> {
  const found = await answer(await get(`/api/vials/${id}`, cookie));
  expect(found.status).toBe(200);
  return found.body.vial as Vial;
}

/** A product with one variation, made on the product screens by the manager. */
async function product(name: string, gtin: string, controlled: boolean): Promise<string> {
  const fields = toxinFields(name, name.replace(/\W+/g, "-"), `Vials ${RUN}`, controlled ? { controlled: "on" } : {});
  return (await createProduct(cookieOf("manager"), fields, gtin)).variationId;
}

/** Receives `lines` at West as its manager, through the receiving screens. */
async function receive(lines: { variationId: string; quantity: number; lot: string; serial?: string }[]) {
  const manager = cookieOf("manager");
  const opened = await postForm("/receiving", manager, { vendorId: "", reference: `VA-${RUN}`, notes: "" });
  expect(opened.status).toBe(302);
  const path = (opened.headers.get("Location") ?? "").split("?")[0] ?? "";
  for (const line of lines) {
    const added = await postForm(path, manager, {
      intent: "add-line",
      variationId: line.variationId,
      quantity: String(line.quantity),
      lot: line.lot,
      expirationDate: inDays(200),
      unitCost: "",
      serial: line.serial ?? "",
    });
    expect(added.status, await added.clone().text()).toBeLessThan(400);
  }
  const completed = await postForm(path, manager, { intent: "complete" });
  expect(completed.status).toBeLessThan(400);
}

let vials: Vial[] = [];
let controlled: Vial[] = [];
const take = () => {
  const vial = vials.shift();
  if (!vial) throw new Error("the test ran out of vials: receive more in beforeAll");
  return vial;
};

beforeAll(async () => {
  for (const user of DEMO_USERS) sessions.set(user.email, await signInAs(user.email));
  codes = Object.fromEntries(
    (sessions.get("owner@demo.clinic")?.locations ?? []).map((l) => [l.location.code, l.locationId]),
  );
  const plain = await product(`Vial API ${RUN}`, GTIN, false);
  const narcotic = await product(`Vial API controlled ${RUN}`, "", true);
  await receive([
    { variationId: plain, quantity: 8, lot: LOT },
    { variationId: plain, quantity: 1, lot: LOT, serial: SERIAL },
    { variationId: narcotic, quantity: 2, lot: CONTROLLED_LOT },
  ]);
  const read = async (lot: string) =>
    ((await answer(await get(`/api/vials?lot=${lot}&pageSize=100`, cookieOf("manager")))).body.items as Vial[]) ?? [];
  vials = (await read(LOT)).filter((v) => v.serial === null);
  controlled = await read(CONTROLLED_LOT);
  expect(vials).toHaveLength(8);
  expect(controlled.map((v) => v.controlled)).toEqual([true, true]);
}, 120_000);

describe("start, draw, empty, discard over HTTP", () => {
  it("starts a sealed vial, answers it as GET /api/vials shows it, and refuses a second start with 409", async () => {
    const manager = cookieOf("manager");
    const vial = take();
    const started = await post(`/api/vials/${vial.id}/start`, manager, "");
    expect(started.status).toBe(200);
    expect(started.headers.get("Cache-Control")).toBe("private, no-store");
    const { vial: after } = (await started.json()) as { vial: Vial };
    expect(after).toMatchObject({ id: vial.id, state: "in_use", unitsRemaining: 100 });
    expect(after.startedAt).toEqual(expect.stringMatching(/Z$/));
    expect(new Date(after.expiresAt ?? 0).getTime() - new Date(after.startedAt ?? 0).getTime()).toBe(24 * 3600_000);
    const listed = (await answer(await get(`/api/vials?lot=${LOT}&pageSize=100&state=in_use`, manager))).body
      .items as Vial[];
    expect(listed.find((v) => v.id === vial.id)).toEqual(after);

    expect(await answer(await post(`/api/vials/${vial.id}/start`, manager, {}))).toEqual({
      status: 409,
      body: { error: expect.stringMatching(/Only a sealed vial can be started/), code: "not_sealed" },
    });

    const { body } = await answer(await get(`/api/vials/${vial.id}`, manager));
    expect(body.vial).toEqual(after);
    expect((body.history as { kind: string }[]).map((h) => h.kind)).toEqual(["started", "received"]);
  });

  it("draws units with a usage entry; the same Idempotency-Key replays the first answer and writes nothing", async () => {
    const manager = cookieOf("manager");
    const vial = take();
    const key = crypto.randomUUID();
    const draw = { units: 20, patientRef: "CH-1001", provider: "Dr. Wedge" };
    const first = await answer(await post(`/api/vials/${vial.id}/draw`, manager, draw, { "Idempotency-Key": key }));
    expect(first.status).toBe(200);
    expect(first.body.vial).toMatchObject({ id: vial.id, state: "in_use", unitsRemaining: 80 });
    // It was sealed: the draw started it, and says when and until when.
    const opened = first.body.vial as Vial;
    expect(first.body.started).toEqual({ startedAt: opened.startedAt, expiresAt: opened.expiresAt });
    expect(first.body.usage).toMatchObject({
      itemId: vial.id,
      units: 20,
      unitsText: "20 U",
      patientRef: "CH-1001",
      provider: "Dr. Wedge",
    });
    const again = await answer(await post(`/api/vials/${vial.id}/draw`, manager, draw, { "Idempotency-Key": key }));
    expect(again).toEqual(first);
    expect((await vialOf(vial.id)).unitsRemaining).toBe(80);
    // The key is bound to that request: sent with another body it is refused (422), not answered
    // with the first draw, and writes nothing.
    const reused = await answer(
      await post(`/api/vials/${vial.id}/draw`, manager, { units: 5 }, { "Idempotency-Key": key }),
    );
    expect(reused).toEqual({
      status: 422,
      body: { error: expect.stringMatching(/different request/), code: "idempotency_key_reused" },
    });
    // A key in the body is refused, not silently ignored.
    expect(
      await answer(
        await post(`/api/vials/${vial.id}/draw`, manager, { units: 5, idempotencyKey: crypto.randomUUID() }),
      ),
    ).toMatchObject({ status: 400, body: { code: "idempotency_key_in_body" } });
    expect((await vialOf(vial.id)).unitsRemaining).toBe(80);
    // Units as text in the product's unit, and a fresh key: a second entry.
    const second = await answer(await post(`/api/vials/${vial.id}/draw`, manager, { units: "0015" }));
    expect(second.body.vial).toMatchObject({ unitsRemaining: 65 });
    expect(second.body.started).toBeNull();
    // A draw lies within the vial's life: not before its start, not in the future; 422 names the window.
    for (const usedAt of [new Date(Date.now() - 3_600_000), new Date(Date.now() + 600_000)]) {
      const outside = await answer(await post(`/api/vials/${vial.id}/draw`, manager, { units: 1, usedAt }));
      expect(outside).toMatchObject({
        status: 422,
        body: { code: "invalid", error: expect.stringMatching(/^Enter when the units were used between .+ and .+:/) },
      });
    }
    const { body } = await answer(await get(`/api/vials/${vial.id}`, manager));
    expect((body.history as { kind: string }[]).map((h) => h.kind)).toEqual(["drawn", "drawn", "started", "received"]);
  });

  it("answers every bad input with a 4xx in the one error shape, and changes nothing", async () => {
    const manager = cookieOf("manager");
    const vial = take();
    const path = `/api/vials/${vial.id}/draw`;
    const long = "x".repeat(10_000);
    const cases: [unknown, Record<string, string>, number, string][] = [
      [{}, {}, 422, "invalid_input"],
      [{ units: "abc" }, {}, 422, "invalid_input"],
      [{ units: -5 }, {}, 422, "invalid_input"],
      [{ units: 0 }, {}, 422, "invalid_input"],
      [{ units: 1e300 }, {}, 422, "invalid_input"],
      [{ units: "1".repeat(10_000) }, {}, 422, "invalid_input"],
      [{ units: null }, {}, 422, "invalid_input"],
      [{ units: [20] }, {}, 422, "invalid_input"],
      [{ units: 101 }, {}, 409, "not_enough_units"],
      [{ units: 99_999_999 }, {}, 409, "not_enough_units"],
      [{ units: 0.5 }, {}, 422, "invalid"],
      [{ units: 5, patientRef: long }, {}, 422, "invalid_input"],
      [{ units: 5, provider: long }, {}, 422, "invalid_input"],
      [{ units: 5, serviceId: "no-such-service" }, {}, 422, "invalid"],
      [{ units: 5, usedAt: "yesterday-ish" }, {}, 422, "invalid_input"],
      ["{not json", {}, 400, "invalid_json"],
      ["[1, 2]", {}, 400, "invalid_json"],
      ['"units"', {}, 400, "invalid_json"],
      [{ units: 5 }, { "Content-Type": "text/plain" }, 415, "unsupported_media_type"],
      [{ units: 5 }, { "Idempotency-Key": "bad key!" }, 400, "invalid_idempotency_key"],
      [{ units: 5, note: long.repeat(7) }, {}, 413, "too_large"],
    ];
    for (const [body, headers, status, code] of cases) {
      const got = await answer(await post(path, manager, body, headers));
      const sent = (typeof body === "string" ? body : JSON.stringify(body)).slice(0, 40);
      expect({ sent, status: got.status, code: got.body.code, error: typeof got.body.error }).toEqual({
        sent,
        status,
        code,
        error: "string",
      });
    }
    const missing = await answer(await post(path, manager, {}));
    expect(missing.body.fields).toEqual({ units: expect.stringMatching(/units/) });

    const discard = `/api/vials/${vial.id}/discard`;
    for (const [body, field] of [
      [{}, "reason"],
      [{ reason: "because" }, "reason"],
      [{ reason: "other" }, "note"],
      [{ reason: "damaged", note: long }, "note"],
      [{ reason: "damaged", witness: { email: long, password: "x" } }, "witness.email"],
      [{ reason: "damaged", witness: "me" }, "witness"],
    ] as const) {
      const got = await answer(await post(discard, manager, body));
      expect({ field, status: got.status, code: got.body.code }).toEqual({ field, status: 422, code: "invalid_input" });
      expect(Object.keys(got.body.fields as object)).toContain(field);
    }
    // A vial in the wrong state for the verb.
    expect(await answer(await post(`/api/vials/${vial.id}/empty`, manager, {}))).toMatchObject({
      status: 409,
      body: { code: "not_in_use" },
    });
    // Nothing of any of it was written.
    const after = await vialOf(vial.id);
    expect(after).toMatchObject({ state: "sealed", unitsRemaining: 100, startedAt: null });
    const { body } = await answer(await get(`/api/vials/${vial.id}`, manager));
    expect((body.history as { kind: string }[]).map((h) => h.kind)).toEqual(["received"]);
  });

  it("refuses a patient reference with a NUL, a name or 65 characters with 422 and why, writing nothing", async () => {
    const manager = cookieOf("manager");
    const vial = take();
    for (const [patientRef, message] of [
      ["CH-1042\u0000hidden", /invisible or control character \(U\+0000\)/],
      ["CH-\u200b1042", /invisible or control character \(U\+200B\)/],
      ["Jane Doe", /Use the chart number, not a name/],
      ["C".repeat(65), /at most 64 characters/],
    ] as const) {
      const got = await answer(await post(`/api/vials/${vial.id}/draw`, manager, { units: 5, patientRef }));
      expect({ status: got.status, code: got.body.code }).toEqual({ status: 422, code: "invalid_input" });
      expect((got.body.fields as Record<string, string>).patientRef).toMatch(message);
    }
    expect(await vialOf(vial.id)).toMatchObject({ state: "sealed", unitsRemaining: 100 });
  });

  it("empties an open vial, booking what is left, and then refuses anything more with 409 finished", async () => {
    const manager = cookieOf("manager");
    const vial = take();
    await post(`/api/vials/${vial.id}/draw`, manager, { units: 30 });
    const emptied = await answer(await post(`/api/vials/${vial.id}/empty`, manager, ""));
    expect(emptied).toMatchObject({ status: 200, body: { vial: { id: vial.id, state: "empty", unitsRemaining: 0 } } });
    for (const verb of ["start", "empty"]) {
      expect(await answer(await post(`/api/vials/${vial.id}/${verb}`, manager, {}))).toMatchObject({
        status: 409,
        body: { code: "finished" },
      });
    }
    expect(await answer(await post(`/api/vials/${vial.id}/draw`, manager, { units: 1 }))).toMatchObject({
      status: 409,
      body: { code: "finished" },
    });
    const { body } = await answer(await get(`/api/vials/${vial.id}`, manager));
    expect((body.history as { kind: string }[])[0]?.kind).toBe("emptied");
  });

  it("discards a sealed vial with a reason ('other' with its note)", async () => {
    const manager = cookieOf("manager");
    const vial = take();
    const discarded = await answer(
      await post(`/api/vials/${vial.id}/discard`, manager, { reason: "other", note: "Dropped on the floor" }),
    );
    expect(discarded).toMatchObject({
      status: 200,
      body: { vial: { id: vial.id, state: "discarded", discardReason: "other", unitsRemaining: 0 } },
    });
  });

  it("asks a controlled product's waste for a witness: another active user of the location, with their password", async () => {
    const manager = cookieOf("manager");
    const [vial] = controlled;
    if (!vial) throw new Error("no controlled vial");
    const path = `/api/vials/${vial.id}/discard`;
    expect(await answer(await post(path, manager, { reason: "damaged" }))).toMatchObject({
      status: 422,
      body: { code: "witness_required" },
    });
    for (const witness of [
      { email: "admin@demo.clinic", password: "not-their-password" },
      { email: "manager@demo.clinic", password: DEMO_PASSWORD }, // themselves
      { email: "staff@demo.clinic", password: DEMO_PASSWORD }, // not at West
    ]) {
      expect(await answer(await post(path, manager, { reason: "damaged", witness }))).toMatchObject({
        status: 422,
        body: { code: "witness_invalid" },
      });
    }
    expect((await vialOf(vial.id)).state).toBe("sealed");
    const witnessed = await answer(
      await post(path, manager, {
        reason: "damaged",
        witness: { email: "admin@demo.clinic", password: DEMO_PASSWORD },
      }),
    );
    expect(witnessed).toMatchObject({ status: 200, body: { vial: { state: "discarded", discardReason: "damaged" } } });
  });
});

describe("who may, and where", () => {
  it("answers 401 signed out, 403 without WRITE_INVENTORY where asked, 404 for a vial elsewhere or unknown", async () => {
    const vial = take();
    const start = `/api/vials/${vial.id}/start`;
    expect(await answer(await post(start, "", {}))).toMatchObject({ status: 401, body: { code: "not_signed_in" } });
    expect(await answer(await post(start, cookieOf("newhire"), {}))).toMatchObject({
      status: 403,
      body: { code: "forbidden" },
    });
    // Staff work at Downtown: naming West is refused, and West's vial is not there from Downtown.
    expect(await answer(await post(`${start}?locationId=${codes.WST}`, cookieOf("staff"), {}))).toMatchObject({
      status: 403,
      body: { code: "forbidden" },
    });
    for (const cookie of [cookieOf("staff"), cookieOf("multi")]) {
      expect(await answer(await post(start, cookie, {}))).toEqual({
        status: 404,
        body: { error: expect.stringMatching(/No vial with this id/), code: "not_found" },
      });
      expect((await answer(await get(`/api/vials/${vial.id}`, cookie))).status).toBe(404);
    }
    expect(await answer(await post("/api/vials/no-such-vial/draw", cookieOf("manager"), { units: 1 }))).toMatchObject({
      status: 404,
      body: { code: "not_found" },
    });
    expect((await answer(await get("/api/vials/no-such-vial", cookieOf("manager")))).status).toBe(404);
    // A GET of a write path says to POST.
    const wrongMethod = await get(start, cookieOf("manager"));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("Allow")).toBe("POST");
    expect(await wrongMethod.json()).toMatchObject({ code: "method_not_allowed" });
    expect((await vialOf(vial.id)).state).toBe("sealed");

    // admin@demo.clinic is a manager at West: they reach it by naming it, and an organization admin by choosing it.
    const admin = await answer(await post(`${start}?locationId=${codes.WST}`, cookieOf("admin"), {}));
    expect(admin).toMatchObject({ status: 200, body: { vial: { state: "in_use" } } });
    expect((await answer(await get(`/api/vials/${vial.id}?locationId=${codes.WST}`, cookieOf("owner")))).status).toBe(
      200,
    );
  });
});

describe("GET /api/barcodes/{code} finds items", () => {
  it("answers kind item for a label at a location the reader reaches, else 404", async () => {
    const [vial] = vials;
    if (!vial) throw new Error("no vial left");
    const found = await answer(await get(`/api/barcodes/${vial.labelCode.toLowerCase()}`, cookieOf("manager")));
    expect(found).toMatchObject({ status: 200, body: { kind: "item", code: vial.labelCode, vial: { id: vial.id } } });
    expect(found.body.vial).toEqual(await vialOf(vial.id));
    // From Downtown the West vial's label is nothing at all.
    expect(await answer(await get(`/api/barcodes/${vial.labelCode}`, cookieOf("staff")))).toMatchObject({
      status: 404,
      body: { code: "not_found" },
    });
    const everywhere = await answer(await get(`/api/barcodes/${vial.labelCode}?locationId=all`, cookieOf("owner")));
    expect(everywhere).toMatchObject({ status: 200, body: { kind: "item" } });
  });

  it("finds the item a GS1 payload names by GTIN, lot and serial; a GTIN alone is the variation", async () => {
    const manager = cookieOf("manager");
    for (const payload of [
      `(01)${GTIN}(17)${inDays(200).slice(2).replaceAll("-", "")}(10)${LOT}(21)${SERIAL}`,
      `01${GTIN}10${LOT}${GS}21${SERIAL}`,
    ]) {
      const found = await answer(await get(`/api/barcodes/${encodeURIComponent(payload)}`, manager));
      expect(found).toMatchObject({ status: 200, body: { kind: "item", vial: { serial: SERIAL } } });
    }
    const variation = await answer(await get(`/api/barcodes/${GTIN}`, manager));
    expect(variation).toMatchObject({
      status: 200,
      body: { kind: "variation", match: "gtin", variation: { gtin: GTIN }, product: { name: `Vial API ${RUN}` } },
    });
    // Another serial of the lot is no item: the payload's GTIN still names the variation.
    const other = await answer(
      await get(`/api/barcodes/${encodeURIComponent(`(01)${GTIN}(10)${LOT}(21)NOPE`)}`, manager),
    );
    expect(other).toMatchObject({ status: 200, body: { kind: "variation" } });
  });
});
