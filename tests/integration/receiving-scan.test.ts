// The receiving scan box and a GTIN's check digit: a misread or mistyped digit is refused before
// any lookup, with the digit the GTIN should end in and, when the corrected GTIN is in the
// catalogue, the product it names; it is never offered for attaching to a variation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScopedActor } from "../../app/access/actor";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import { openReceipt } from "../../app/receiving/open.server";
import { readScan } from "../../app/receiving/scan.server";
import { freshDatabase, type TestDatabase } from "../support/database";
import { signedIn } from "../support/screens";

let t: TestDatabase;
let actor: ScopedActor;
let receiptId: string;
const today = new Date("2026-11-22T12:00:00Z");

beforeAll(async () => {
  t = await freshDatabase();
  const [downtown] = await t.db.select({ id: schema.locations.id, code: schema.locations.code }).from(schema.locations);
  if (!downtown) throw new Error("no location");
  const { user } = await signedIn(t.db, "owner", { SESSION_SECRET: "test-secret" } as Env);
  actor = { ...user, locationId: downtown.id };
  const opened = await openReceipt(t.db, actor, {
    locationId: downtown.id,
    vendorId: null,
    reference: null,
    notes: null,
  });
  if (!opened.ok) throw new Error(opened.message);
  receiptId = opened.receiptId;
});
afterAll(() => t?.close());

const scan = (text: string) => readScan(t.db, actor, { receiptId, scan: text }, today);

describe("receiving scan: the GTIN check digit", () => {
  it("reads a GTIN whose check digit is right", async () => {
    expect(await scan("(01)00300239211001(17)270331(10)C1234")).toMatchObject({
      ok: true,
      reading: { kind: "found", label: "Botox Cosmetic · 100 U vial" },
    });
  });

  it("refuses a wrong check digit, says the right one and names the product it would be", async () => {
    const result = await scan("(01)00300239211003(17)270331(10)C1234");
    expect(result).toEqual({
      ok: true,
      reading: {
        kind: "unreadable",
        message:
          "The product number (AI 01) 00300239211003 has a wrong check digit: with these digits it should end in 1. Scan the barcode again, or type the number printed under it. With that digit it is the GTIN of Botox Cosmetic · 100 U vial.",
      },
    });
  });

  it("refuses a wrong check digit of a GTIN the catalogue does not know, instead of offering to attach it", async () => {
    const result = await scan("(01)09506000134353");
    expect(result).toEqual({
      ok: true,
      reading: {
        kind: "unreadable",
        message:
          "The product number (AI 01) 09506000134353 has a wrong check digit: with these digits it should end in 2. Scan the barcode again, or type the number printed under it.",
      },
    });
    // With the right digit the same number is simply unknown, and may be attached.
    expect(await scan("(01)09506000134352")).toMatchObject({ ok: true, reading: { kind: "unknown" } });
  });
});
