// One lot recall as every recall screen and answer shows it: the lot, its product and variation by
// name, the note, who marked it and when, and once lifted who lifted it, when and why.
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";

export interface Recall {
  id: string;
  variationId: string;
  productId: string;
  productName: string;
  variationName: string;
  lot: string;
  note: string;
  recalledAt: Date;
  recalledBy: string | null;
  liftedAt: Date | null;
  liftedBy: string | null;
  liftNote: string | null;
  /** Not lifted: every vial of the lot, at every location, is quarantined. */
  inForce: boolean;
}

/** A row as read: instants in ms, in force not yet worked out. */
type RecallRow = Omit<Recall, "recalledAt" | "liftedAt" | "inForce"> & { recalledAt: number; liftedAt: number | null };

const userName = (alias: string) => {
  const a = sql.identifier(alias);
  return sql`(SELECT ${a}.first_name || ' ' || ${a}.last_name FROM users AS ${a}`;
};

/** The recalls `where` selects (over `r`, `v`, `p`), newest first, as one statement for a batch. */
export function recallRows(db: Database, where: SQL, limit = 200) {
  return db.all<RecallRow>(sql`SELECT r.id, r.variation_id AS variationId, p.id AS productId, p.name AS productName,
      v.name AS variationName, r.lot, r.note, r.recalled_at AS recalledAt,
      ${userName("marker")} WHERE marker.id = r.recalled_by) AS recalledBy,
      r.lifted_at AS liftedAt, ${userName("lifter")} WHERE lifter.id = r.lifted_by) AS liftedBy, r.lift_note AS liftNote
    FROM lot_recalls AS r JOIN product_variations AS v ON v.id = r.variation_id JOIN products AS p ON p.id = v.product_id
    WHERE ${where} ORDER BY r.recalled_at DESC, r.id DESC LIMIT ${limit}`);
}

export function recallOf(row: RecallRow): Recall {
  return {
    ...row,
    recalledAt: new Date(Number(row.recalledAt)),
    liftedAt: row.liftedAt === null ? null : new Date(Number(row.liftedAt)),
    inForce: row.liftedAt === null,
  };
}
