// Idempotency keys are bound to their request (issue 19.4): the same key sent again with the same
// request replays the first answer and writes nothing; sent with another request (another lot,
// other units for another patient, another vial, another quantity) it is refused as key_misused
// and writes nothing, never answered with the first answer. Keys stored before the fingerprint was
// kept (NULL) still replay by purpose.
import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import type { SessionUser } from "../../app/auth/session.server";
import { schema } from "../../app/db/client.server";
import { canonicalJson, fingerprintOf } from "../../app/http/idempotency.server";
import { markRecall } from "../../app/recalls/mark.server";
import { addReceiptLine } from "../../app/receiving/add-line.server";
import { openReceipt } from "../../app/receiving/open.server";
import { adjustStock } from "../../app/stock/adjust.server";
import { discardVial } from "../../app/vials/discard.server";
import { drawUnits } from "../../app/vials/draw.server";
import { startVial } from "../../app/vials/start.server";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { receiveVials, variationNamed } from "../support/receive";
import { signedIn } from "../support/screens";

let t: TestDatabase;
let loc: Record<"DTN" | "WST" | "NTH", string>;
const users = new Map<string, SessionUser>();
let BOTOX: string;

const DAY = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

function as(name: string, where: "DTN" | "WST" = "DTN"): ScopedActor {
  const user = users.get(name);
  if (!user) throw new Error(`no user ${name}`);
  return { ...user, locationId: loc[where] };
}

const variation = (product: string, name: string) => variationNamed(t.db, product, name);

let lots = 0;
async function vial(lot = `IK${++lots}`): Promise<string> {
  const [id] = await receiveVials(t.db, as("admin"), {
    locationId: loc.DTN,
    variationId: BOTOX,
    quantity: 1,
    lot,
    expirationDate: day(200),
  });
  if (!id) throw new Error("nothing received");
  return id;
}

/** Rows every keyed verb writes, counted at once: a refusal leaves them as they were. */
async function written() {
  const [activity, keys, usage, recalls, lines] = await t.db.batch([
    t.db.select({ n: count() }).from(schema.activityLog),
    t.db.select({ n: count() }).from(schema.idempotencyKeys),
    t.db.select({ n: count() }).from(schema.usageEntries),
    t.db.select({ n: count() }).from(schema.lotRecalls),
    t.db.select({ n: count() }).from(schema.receiptLines),
  ]);
  return [activity, keys, usage, recalls, lines].map((rows) => rows[0]?.n);
}

async function inForce(lot: string): Promise<boolean> {
  const rows = await t.db.all(sql`SELECT 1 FROM lot_recalls WHERE lot = ${lot} AND lifted_at IS NULL`);
  return rows.length > 0;
}

beforeAll(async () => {
  t = await freshDatabase();
  ({ loc } = await demoLocations(t.db));
  for (const name of ["owner", "admin", "manager", "staff"]) users.set(name, (await signedIn(t.db, name)).user);
  BOTOX = await variation("Botox Cosmetic", "100 U vial");
});
afterAll(() => t.close());

describe("the fingerprint", () => {
  it("is the same for the same fields in any order, and leaves out the key and passwords", async () => {
    expect(canonicalJson({ b: 1, a: [{ y: null, x: undefined }], idempotencyKey: "k" })).toBe(
      '{"a":[{"y":null}],"b":1}',
    );
    expect(canonicalJson({ witness: { email: "w@x", password: "secret" } })).toBe('{"witness":{"email":"w@x"}}');
    expect(await fingerprintOf("p", { a: 1, b: "2" })).toBe(await fingerprintOf("p", { b: "2", a: 1 }));
    expect(await fingerprintOf("p", { a: 1 })).not.toBe(await fingerprintOf("p", { a: 2 }));
    expect(await fingerprintOf("p", { a: 1 })).not.toBe(await fingerprintOf("q", { a: 1 }));
    expect(await fingerprintOf("p", { a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("a key sent again with another request", () => {
  it("does not answer a recall of another lot with the first recall: refused, the second lot not silently skipped", async () => {
    const key = "recall-bound-0001";
    const first = await markRecall(t.db, as("admin"), {
      variationId: BOTOX,
      lot: "RB-1",
      note: "Notice",
      idempotencyKey: key,
      // No vial of this made-up lot is in stock: a recall of it is confirmed (issue 19.6).
      confirmNoMatch: true,
    });
    expect(first).toMatchObject({ ok: true, recall: { lot: "RB-1" } });
    // The same request again (a double tap, a retry) still replays.
    const before = await written();
    expect(
      await markRecall(t.db, as("admin"), {
        variationId: BOTOX,
        lot: "RB-1",
        note: "Notice",
        idempotencyKey: key,
        confirmNoMatch: true,
      }),
    ).toEqual(first);
    const other = await markRecall(t.db, as("admin"), {
      variationId: BOTOX,
      lot: "RB-2",
      note: "Notice",
      idempotencyKey: key,
      // No vial of this made-up lot is in stock: a recall of it is confirmed (issue 19.6).
      confirmNoMatch: true,
    });
    expect(other).toMatchObject({ ok: false, refusal: "key_misused" });
    expect(await written()).toEqual(before);
    expect(await inForce("RB-2")).toBe(false);
  });

  it("does not answer a draw of other units for another patient with the first draw", async () => {
    const id = await vial();
    const key = "draw-bound-0001";
    const request = { itemId: id, units: "10", patientRef: "PT-1", idempotencyKey: key };
    const first = await drawUnits(t.db, as("staff"), request);
    expect(first).toMatchObject({ ok: true, vial: { unitsRemaining: 90 } });
    const before = await written();
    expect(await drawUnits(t.db, as("staff"), request)).toEqual(first);
    // A number where the form sent text is the same request once parsed.
    expect(await drawUnits(t.db, as("staff"), { ...request, units: 10 })).toEqual(first);
    expect(await drawUnits(t.db, as("staff"), { ...request, units: "20", patientRef: "PT-2" })).toMatchObject({
      ok: false,
      refusal: "key_misused",
    });
    expect(await drawUnits(t.db, as("staff"), { ...request, patientRef: "PT-2" })).toMatchObject({
      refusal: "key_misused",
    });
    expect(await written()).toEqual(before);
  });

  it("refuses a discard with another reason, and a start of another vial, under a used key", async () => {
    const id = await vial();
    const key = "discard-bound-01";
    const first = await discardVial(t.db, as("staff"), { itemId: id, reason: "damaged", idempotencyKey: key });
    expect(first).toMatchObject({ ok: true, vial: { state: "discarded" } });
    expect(await discardVial(t.db, as("staff"), { itemId: id, reason: "damaged", idempotencyKey: key })).toEqual(first);
    expect(
      await discardVial(t.db, as("staff"), { itemId: id, reason: "other", note: "Dropped", idempotencyKey: key }),
    ).toMatchObject({ refusal: "key_misused" });
    const started = await startVial(t.db, as("staff"), { itemId: await vial(), idempotencyKey: "start-bound-01" });
    expect(started.ok).toBe(true);
    expect(
      await startVial(t.db, as("staff"), { itemId: await vial(), idempotencyKey: "start-bound-01" }),
    ).toMatchObject({ refusal: "key_misused" });
  });

  it("refuses a stock adjustment of another quantity, and a receipt line of another quantity", async () => {
    const [gauze] = await t.db.all<{ id: string }>(sql`SELECT v.id FROM product_variations AS v
      JOIN products AS p ON p.id = v.product_id WHERE p.tracking = 'bulk' AND v.active = 1 AND p.active = 1 LIMIT 1`);
    const adjust = {
      locationId: loc.DTN,
      variationId: gauze?.id ?? "",
      quantity: "5",
      reason: "count_correction",
      idempotencyKey: "adjust-bound-01",
    };
    const adjusted = await adjustStock(t.db, as("staff"), adjust);
    expect(adjusted).toMatchObject({ ok: true });
    expect(await adjustStock(t.db, as("staff"), adjust)).toEqual(adjusted);
    expect(await adjustStock(t.db, as("staff"), { ...adjust, quantity: "50" })).toMatchObject({
      refusal: "key_misused",
    });

    const opened = await openReceipt(t.db, as("admin"), {
      locationId: loc.DTN,
      vendorId: null,
      reference: null,
      notes: null,
    });
    if (!opened.ok) throw new Error(opened.message);
    const line = {
      receiptId: opened.receiptId,
      variationId: BOTOX,
      quantity: 2,
      lot: "RL-1",
      serial: null,
      expirationDate: day(300),
      unitCostCents: null,
      expiryConfirmed: false,
      expiryReason: null,
      idempotencyKey: "line-bound-0001",
    };
    const added = await addReceiptLine(t.db, as("admin"), line);
    expect(added).toMatchObject({ ok: true });
    expect(await addReceiptLine(t.db, as("admin"), line)).toEqual(added);
    expect(await addReceiptLine(t.db, as("admin"), { ...line, quantity: 20 })).toMatchObject({
      refusal: "key_misused",
    });
  });
});

describe("a key stored before fingerprints were kept", () => {
  it("replays by purpose", async () => {
    const key = "legacy-key-0001";
    const first = await markRecall(t.db, as("admin"), {
      variationId: BOTOX,
      lot: "LG-1",
      note: "Notice",
      idempotencyKey: key,
      // No vial of this made-up lot is in stock: a recall of it is confirmed (issue 19.6).
      confirmNoMatch: true,
    });
    expect(first.ok).toBe(true);
    await t.db.run(sql`UPDATE idempotency_keys SET fingerprint = NULL WHERE key = ${key}`);
    expect(
      await markRecall(t.db, as("admin"), {
        variationId: BOTOX,
        lot: "LG-1",
        note: "Notice",
        idempotencyKey: key,
        confirmNoMatch: true,
      }),
    ).toEqual(first);
  });
});
