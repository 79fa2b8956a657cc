// Migration 0009 rebuilds the ledger, item and receipt-line tables to add CHECKs (SQLite cannot
// add a CHECK to a table). A database with stock made under 0008 is migrated here: its rows stay,
// the append-only and frozen-receipt triggers that the rebuild dropped are back, the new integer
// and bound CHECKs refuse what they should, and lines get the package size they were received with.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "../../scripts/lib/database";

const dir = mkdtempSync(path.join(os.tmpdir(), "clinic-migration-"));
const url = `file:${path.join(dir, "clinic.db")}`;
const client = createClient({ url });

/** Migrates up to and including migration `last` (by journal index), from a copy of the folder. */
async function migrateTo(last: number) {
  const folder = path.join(dir, `migrations-${last}`);
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  await migrate(drizzle(client), { migrationsFolder: folder });
}

const DAY = 24 * 60 * 60 * 1000;
/** 2026-11-01T00:00:00Z, when the old receipt's lines were added. */
const ADDED = Date.UTC(2026, 10, 1);

/** What a refused statement's error says, wrapped or not. */
async function refusal(statement: string, args: (string | number)[] = []): Promise<string> {
  try {
    await client.execute({ sql: statement, args });
  } catch (error) {
    return `${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? "")}`;
  }
  return "accepted";
}

beforeAll(async () => {
  await migrateTo(8);
  // Stock made under 0008: a completed receipt of 2 vials of a 100 U variation, an open one with a
  // line whose lot had already expired when added, and the RECEIVE movements and level.
  await client.batch(
    [
      `INSERT INTO organizations (id, name, created_at) VALUES ('org', 'Clinic', ${ADDED})`,
      `INSERT INTO locations (id, organization_id, name, code, created_at) VALUES ('loc', 'org', 'Downtown', 'DTN', ${ADDED})`,
      `INSERT INTO products (id, organization_id, name, category, tracking, base_unit, created_at)
        VALUES ('toxin', 'org', 'Toxin', 'Neurotoxin', 'serialized', 'U', ${ADDED})`,
      `INSERT INTO product_variations (id, product_id, name, units_per_package, created_at)
        VALUES ('v100', 'toxin', '100 U vial', 100, ${ADDED})`,
      `INSERT INTO receipts (id, location_id, created_at) VALUES ('done', 'loc', ${ADDED})`,
      `INSERT INTO receipts (id, location_id, created_at) VALUES ('open', 'loc', ${ADDED})`,
      `INSERT INTO receipt_lines (id, receipt_id, variation_id, quantity, lot, expiration_date, created_at)
        VALUES ('line-done', 'done', 'v100', 2, 'L1', '2027-06-30', ${ADDED})`,
      `INSERT INTO receipt_lines (id, receipt_id, variation_id, quantity, lot, expiration_date, created_at)
        VALUES ('line-open', 'open', 'v100', 1, 'L0', '2024-01-31', ${ADDED})`,
      `INSERT INTO items (id, location_id, variation_id, receipt_line_id, label_code, lot, units_remaining, received_at, created_at)
        VALUES ('i1', 'loc', 'v100', 'line-done', 'V000000001', 'L1', 60, ${ADDED + DAY}, ${ADDED + DAY}),
               ('i2', 'loc', 'v100', 'line-done', 'V000000002', 'L1', 100, ${ADDED + DAY}, ${ADDED + DAY})`,
      `INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, item_id, lot, quantity, type)
        VALUES ('m1', ${ADDED + DAY}, 'loc', 'v100', 'i1', 'L1', 100, 'RECEIVE'),
               ('m2', ${ADDED + DAY}, 'loc', 'v100', 'i2', 'L1', 100, 'RECEIVE'),
               ('m3', ${ADDED + 2 * DAY}, 'loc', 'v100', 'i1', 'L1', -40, 'USE')`,
      `INSERT INTO stock_levels (location_id, variation_id, on_hand, updated_at) VALUES ('loc', 'v100', 160, ${ADDED})`,
      `UPDATE receipts SET status = 'completed', completed_at = ${ADDED + DAY} WHERE id = 'done'`,
    ],
    "write",
  );
  await migrateTo(9);
}, 60_000);

afterAll(() => {
  client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("migration 0009 on a database with stock", () => {
  it("keeps every row, and gives each line the package size it was received with", async () => {
    const counts = await client.execute(`SELECT (SELECT count(*) FROM items) AS items,
      (SELECT count(*) FROM stock_movements) AS movements, (SELECT on_hand FROM stock_levels) AS onHand`);
    expect(counts.rows[0]).toMatchObject({ items: 2, movements: 3, onHand: 160 });
    // The package size changed after the delivery: the received line keeps what its items got.
    const lines = await client.execute(
      "SELECT id, units_per_package AS units, expiry_reason AS reason FROM receipt_lines ORDER BY id",
    );
    expect(lines.rows.map((r) => ({ ...r }))).toEqual([
      { id: "line-done", units: 100, reason: null },
      { id: "line-open", units: 100, reason: "Added before receiving asked to confirm such lots" },
    ]);
  });

  it("still refuses UPDATE and DELETE of stock movements (the rebuild dropped and 0009 recreated the triggers)", async () => {
    expect(await refusal("UPDATE stock_movements SET quantity = 700 WHERE id = 'm1'")).toMatch(
      /stock_movements is append-only/,
    );
    expect(await refusal("DELETE FROM stock_movements WHERE id = 'm1'")).toMatch(/stock_movements is append-only/);
  });

  it("still freezes a closed receipt's lines and bumps an open receipt's version", async () => {
    expect(await refusal("UPDATE receipt_lines SET quantity = 5 WHERE id = 'line-done'")).toMatch(/receipt is closed/);
    expect(await refusal("DELETE FROM receipt_lines WHERE id = 'line-done'")).toMatch(/receipt is closed/);
    const before = await client.execute("SELECT version FROM receipts WHERE id = 'open'");
    await client.execute("DELETE FROM receipt_lines WHERE id = 'line-open'");
    const after = await client.execute("SELECT version FROM receipts WHERE id = 'open'");
    expect(Number(after.rows[0]?.version)).toBe(Number(before.rows[0]?.version) + 1);
  });

  it("refuses REAL quantities and units, and package sizes above 1,000,000", async () => {
    const move = (quantity: number) =>
      refusal(
        `INSERT INTO stock_movements (id, occurred_at, location_id, variation_id, quantity, type)
        VALUES ('m-${quantity}', ${ADDED}, 'loc', 'v100', ?, 'ADJUST')`,
        [quantity],
      );
    expect(await move(1.5)).toMatch(/CHECK constraint failed: stock_movements_quantity_integer/);
    expect(await refusal("UPDATE stock_levels SET on_hand = on_hand + 0.5")).toMatch(
      /CHECK constraint failed: stock_levels_on_hand_integer/,
    );
    expect(await refusal("UPDATE items SET units_remaining = 59.5 WHERE id = 'i1'")).toMatch(
      /CHECK constraint failed: items_units_remaining/,
    );
    expect(await refusal("UPDATE items SET cost_cents = 10.25 WHERE id = 'i1'")).toMatch(
      /CHECK constraint failed: items_cost/,
    );
    const line = (quantity: number, units: number) =>
      refusal(
        `INSERT INTO receipt_lines (id, receipt_id, variation_id, quantity, units_per_package, created_at)
        VALUES ('l-${quantity}-${units}', 'open', 'v100', ?, ?, ${Date.now()})`,
        [quantity, units],
      );
    expect(await line(1.5, 100)).toMatch(/receipt_lines_quantity/);
    expect(await line(1, 100.5)).toMatch(/receipt_lines_units_per_package/);
    expect(await line(1, 1_000_001)).toMatch(/receipt_lines_units_per_package/);
    expect(await line(1000, 1_000_000)).toBe("accepted");
    expect(
      await refusal(`INSERT INTO product_variations (id, product_id, name, units_per_package, created_at)
        VALUES ('huge', 'toxin', 'Huge', 1000001, ${ADDED})`),
    ).toMatch(/product_variations_units/);
  });

  it("refuses a second item with the same serial of a variation and lot", async () => {
    const item = (id: string, serial: string, lot = "L1") =>
      refusal(`INSERT INTO items (id, location_id, variation_id, label_code, lot, serial, units_remaining, received_at, created_at)
        VALUES ('${id}', 'loc', 'v100', 'V${id.padStart(9, "0")}', '${lot}', '${serial}', 100, ${ADDED}, ${ADDED})`);
    expect(await item("10", "SN1")).toBe("accepted");
    expect(await item("11", "SN1")).toMatch(/UNIQUE constraint failed: items\.variation_id, items\.lot, items\.serial/);
    expect(await item("12", "SN1", "L2")).toBe("accepted");
  });
});
