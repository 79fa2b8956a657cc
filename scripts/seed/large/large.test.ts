// The large seed at a tiny scale: same seed and `now` → the same bytes in every table; the
// ledger balances; every item state is there; the named targets are findable by name.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "libsql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PURCHASE_ORDER_STATUSES } from "../../../db/schema/purchasing/constants";
import { ITEM_STATES } from "../../../db/schema/stock/constants";
import { LARGE_TARGETS, LARGE_USERS, type SeedLargeResult, seedLarge } from "./index";

const NOW = new Date("2026-03-14T15:00:00Z");
const SCALE = 0.002;
const dir = mkdtempSync(path.join(os.tmpdir(), "clinic-large-"));
const first = path.join(dir, "first.db");
const second = path.join(dir, "second.db");
let result: SeedLargeResult;
let db: Database.Database;

/** Every table's rows, hashed in a stable order. */
function tableHashes(file: string): Record<string, string> {
  const reader = new Database(file, { readonly: true });
  try {
    const tables = reader
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => {
        const rows = reader.prepare(`SELECT * FROM "${name}" ORDER BY 1, 2`).raw().all();
        return [name, createHash("sha256").update(JSON.stringify(rows)).digest("hex")];
      }),
    );
  } finally {
    reader.close();
  }
}

const one = (sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as Record<string, number | string>;

beforeAll(async () => {
  result = await seedLarge({ dbPath: first, seed: 7, scale: SCALE, now: NOW });
  await seedLarge({ dbPath: second, seed: 7, scale: SCALE, now: NOW });
  db = new Database(first, { readonly: true });
}, 60_000);

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("seedLarge at a tiny scale", () => {
  it("writes identical tables for one seed and one now", () => {
    const hashes = tableHashes(first);
    expect(Object.keys(hashes)).toContain("stock_movements");
    expect(tableHashes(second)).toEqual(hashes);
  });

  it("balances the ledger: levels, vials and usage entries agree with the movements", () => {
    expect(result.ledger).toEqual({ levelsOff: 0, itemsOff: 0, usesOff: 0, transitOff: 0, ordersOff: 0 });
    // Once more here, in the test's own words: no level differs from the sum of its movements.
    const off = one(`SELECT count(*) AS n FROM stock_levels AS s WHERE s.on_hand <> (SELECT sum(quantity)
      FROM stock_movements AS m WHERE m.location_id = s.location_id AND m.variation_id = s.variation_id)`);
    expect(off.n).toBe(0);
    expect(one("SELECT count(*) AS n FROM usage_entries").n).toBe(
      one("SELECT count(*) AS n FROM stock_movements WHERE type = 'USE'").n,
    );
  });

  it("has items in every state, and every vial in use still within its deadline", () => {
    const states = (db.prepare("SELECT DISTINCT state FROM items").all() as { state: string }[]).map((r) => r.state);
    expect(states.sort()).toEqual([...ITEM_STATES].sort());
    expect(one("SELECT count(*) AS n FROM items WHERE state = 'in_use' AND expires_at <= ?", NOW.getTime()).n).toBe(0);
    const reasons = (
      db.prepare("SELECT DISTINCT discard_reason AS r FROM items WHERE discard_reason IS NOT NULL").all() as {
        r: string;
      }[]
    ).map((r) => r.r);
    expect(reasons).toEqual(expect.arrayContaining(["expired", "recalled", "beyond_use_deadline"]));
  });

  it("writes transfers and counts as their verbs would (ADR 0031)", () => {
    expect(Object.keys(result.transfers.byStatus)).toEqual(
      expect.arrayContaining(["in_transit", "draft", "cancelled", "requested"]),
    );
    expect(Object.keys(result.counts.byStatus)).toEqual(expect.arrayContaining(["approved", "in_progress"]));
    expect(result.parLevels).toBeGreaterThan(0);
    // Every transfer movement names its transfer; a sent transfer's lines went out at its sender.
    expect(
      one(`SELECT count(*) AS n FROM stock_movements AS m WHERE m.reference_type = 'transfer'
        AND NOT EXISTS (SELECT 1 FROM transfers AS t WHERE t.id = m.reference_id)`).n,
    ).toBe(0);
    expect(
      one(`SELECT count(*) AS n FROM transfer_lines AS tl JOIN transfers AS t ON t.id = tl.transfer_id
        WHERE t.sent_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM stock_movements AS m WHERE m.reference_id = t.id
          AND m.type = 'TRANSFER_OUT' AND m.location_id = t.from_location_id AND m.variation_id = tl.variation_id
          AND m.quantity = -tl.quantity)`).n,
    ).toBe(0);
    // A count's movements are its approval's: the session approved, after it was counted.
    expect(
      one(`SELECT count(*) AS n FROM stock_movements AS m LEFT JOIN audit_sessions AS a ON a.id = m.reference_id
        WHERE m.reference_type = 'audit' AND (a.status IS NOT 'approved' OR m.occurred_at <> a.reviewed_at)`).n,
    ).toBe(0);
    // Every line was counted before the seed's now.
    expect(one("SELECT count(*) AS n FROM audit_lines WHERE counted_at > ?", NOW.getTime()).n).toBe(0);
  });

  it("writes purchase orders in every status, numbered per year, received by the receipts linked to them", () => {
    const statuses = (
      db.prepare("SELECT DISTINCT status FROM purchase_orders ORDER BY status").all() as { status: string }[]
    ).map((r) => r.status);
    expect(statuses).toEqual([...PURCHASE_ORDER_STATUSES].sort());
    expect(result.purchasing.linkedReceipts).toBeGreaterThan(0);
    expect(one("SELECT count(*) AS n FROM receipts WHERE purchase_order_id IS NOT NULL").n).toBe(
      result.purchasing.linkedReceipts,
    );
    // Numbers follow creation within a year, from 1, without gaps.
    const numbered = db.prepare("SELECT year, sequence, number FROM purchase_orders ORDER BY created_at, id").all() as {
      year: number;
      sequence: number;
      number: string;
    }[];
    const seen = new Map<number, number>();
    for (const o of numbered) {
      seen.set(o.year, (seen.get(o.year) ?? 0) + 1);
      expect(o.sequence).toBe(seen.get(o.year));
      expect(o.number).toBe(`PO-${o.year}-${String(o.sequence).padStart(4, "0")}`);
    }
    // What is still expected: a partially received order has a line short; a received one none.
    expect(
      one(`SELECT count(*) AS n FROM purchase_orders AS po WHERE po.status = 'received' AND EXISTS (
        SELECT 1 FROM purchase_order_lines AS l WHERE l.order_id = po.id AND l.packages_received < l.packages_ordered)`)
        .n,
    ).toBe(0);
    expect(
      one(`SELECT count(*) AS n FROM purchase_orders AS po WHERE po.status = 'partially_received' AND NOT EXISTS (
        SELECT 1 FROM purchase_order_lines AS l WHERE l.order_id = po.id AND l.packages_received < l.packages_ordered)`)
        .n,
    ).toBe(0);
    // The frozen-receipt trigger is back after linking.
    expect(
      one("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name = 'receipts_closed_no_update'").n,
    ).toBe(1);
  });

  it("writes about the sizes asked for, scaled", () => {
    expect(one("SELECT count(*) AS n FROM locations").n).toBe(2);
    expect(Number(one("SELECT count(*) AS n FROM items").n)).toBeGreaterThanOrEqual(600);
    expect(Number(one("SELECT count(*) AS n FROM usage_entries").n)).toBeGreaterThanOrEqual(1_900);
    expect(Number(one("SELECT count(*) AS n FROM stock_movements").n)).toBeGreaterThanOrEqual(3_800);
  });

  it("makes the named targets findable by name", () => {
    const product = one("SELECT id FROM products WHERE name LIKE ?", `%${LARGE_TARGETS.productSearch}%`);
    const variation = one(
      "SELECT id FROM product_variations WHERE product_id = ? AND name = ?",
      product.id,
      LARGE_TARGETS.variation,
    );
    const uses = one(
      "SELECT count(*) AS n, count(DISTINCT location_id) AS locations FROM usage_entries WHERE variation_id = ? AND lot = ?",
      variation.id,
      LARGE_TARGETS.lotWith500Uses,
    );
    expect(uses).toMatchObject({ n: LARGE_TARGETS.usesOfLot, locations: 2 });
    const recall = (lot: string) =>
      one("SELECT lifted_at FROM lot_recalls WHERE variation_id = ? AND lot = ?", variation.id, lot);
    expect(recall(LARGE_TARGETS.recalledLot).lifted_at).toBeNull();
    expect(recall(LARGE_TARGETS.lotWith500Uses).lifted_at).toBeNull();
    expect(recall(LARGE_TARGETS.liftedLot).lifted_at).toEqual(expect.any(Number));
    const inUse = one(
      `SELECT i.label_code, i.expires_at FROM items AS i JOIN locations AS l ON l.id = i.location_id
      WHERE i.lot = ? AND l.code = ? AND i.state = 'in_use'`,
      LARGE_TARGETS.inUseLot,
      LARGE_TARGETS.inUseLocation,
    );
    expect(inUse.label_code).toMatch(/^V[0-9A-Z]{9}$/);
    // Started within hours of `now`: still usable for days after the seed ran (bench, manual tries).
    expect(Number(inUse.expires_at)).toBeGreaterThan(NOW.getTime() + 6 * 24 * 60 * 60 * 1000);
    for (const user of Object.values(LARGE_USERS)) {
      expect(one("SELECT count(*) AS n FROM users WHERE email = ?", user.email).n).toBe(1);
    }
  });
});
