// The ledger's invariants, checked on a staged copy of a snapshot (the rehearsal): the same rules
// as the large seed's check (scripts/seed/large/check.ts) and the ledger property test: each stock
// level equals the sum of its movements, each vial's units left equal the sum of its own
// movements, and every usage entry is booked by one USE movement of its units (and no more).
import type { Client } from "@libsql/client";
import { type Copy, copyName, quote } from "./tables.server";

export interface LedgerFindings {
  levelsOff: number;
  itemsOff: number;
  usesOff: number;
}

const LEDGER_TABLES = ["stock_levels", "stock_movements", "items", "usage_entries"] as const;

/** Null when the snapshot has no ledger (none of its tables). */
export async function checkLedger(
  client: Client,
  copy: Copy,
  tables: readonly string[],
): Promise<LedgerFindings | null> {
  if (!LEDGER_TABLES.every((t) => tables.includes(t))) return null;
  const [levels, movements, items, usage] = LEDGER_TABLES.map((t) => quote(copyName(copy, t)));
  // The staged copy has its keys only: the lookups below get the indexes the live tables have.
  const index = (name: string, columns: string) =>
    `CREATE INDEX IF NOT EXISTS ${quote(`${copyName(copy, "stock_movements")}_${name}`)} ON ${movements} (${columns})`;
  await client.batch(
    [
      index("by_reference", "reference_id"),
      index("by_item", "item_id"),
      index("by_level", "location_id, variation_id"),
    ],
    "write",
  );
  const results = await client.batch(
    [
      `SELECT (SELECT count(*) FROM (
          SELECT location_id, variation_id, sum(quantity) AS total FROM ${movements} GROUP BY location_id, variation_id) AS m
        LEFT JOIN ${levels} AS s USING (location_id, variation_id) WHERE s.on_hand IS NOT m.total)
        + (SELECT count(*) FROM ${levels} AS s WHERE s.on_hand <> 0 AND NOT EXISTS (SELECT 1 FROM ${movements} AS m
          WHERE m.location_id = s.location_id AND m.variation_id = s.variation_id)) AS n`,
      `SELECT count(*) AS n FROM ${items} AS i LEFT JOIN (
          SELECT item_id, sum(quantity) AS total FROM ${movements} WHERE item_id IS NOT NULL GROUP BY item_id) AS m
        ON m.item_id = i.id WHERE i.units_remaining IS NOT coalesce(m.total, 0)`,
      `SELECT (SELECT count(*) FROM ${usage} AS u WHERE NOT EXISTS (SELECT 1 FROM ${movements} AS m
          WHERE m.reference_type = 'usage' AND m.reference_id = u.id AND m.type = 'USE' AND m.quantity = -u.units
            AND m.item_id = u.item_id AND m.location_id = u.location_id))
        + abs((SELECT count(*) FROM ${usage}) - (SELECT count(*) FROM ${movements} WHERE type = 'USE')) AS n`,
    ],
    "read",
  );
  const n = (i: number) => Number(results[i]?.rows[0]?.n ?? 0);
  return { levelsOff: n(0), itemsOff: n(1), usesOff: n(2) };
}

/** The findings in words, or null when the ledger balances. */
export function ledgerProblem(findings: LedgerFindings | null): string | null {
  if (!findings) return null;
  const problems = [
    findings.levelsOff && `${findings.levelsOff} stock level(s) differ from the sum of their movements`,
    findings.itemsOff && `${findings.itemsOff} vial(s) whose units left differ from their movements`,
    findings.usesOff && `${findings.usesOff} usage entr(ies) not booked by exactly one use movement`,
  ].filter(Boolean);
  return problems.length ? `The ledger does not balance in this snapshot: ${problems.join("; ")}.` : null;
}
