// What the /recalls screen reads, in one batch: the organization's recalls in force and the latest
// lifted ones, and the variations a recall may name (the organization's serialized products: a
// recall quarantines vials).
import { sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { recallOf, recallRows } from "./recall.server";

/** Lifted recalls shown: the latest; older ones stay in the activity log and each lot's report. */
export const LIFTED_SHOWN = 50;

export async function recallsScreen(db: Database, actor: Actor) {
  const organization = organizationOf(actor);
  const [inForce, lifted, variations] = await db.batch([
    recallRows(db, sql`r.organization_id = ${organization} AND r.lifted_at IS NULL`, 500),
    recallRows(db, sql`r.organization_id = ${organization} AND r.lifted_at IS NOT NULL`, LIFTED_SHOWN),
    db.all<{ id: string; name: string; productName: string }>(sql`SELECT v.id, v.name, p.name AS productName
      FROM product_variations AS v JOIN products AS p ON p.id = v.product_id
      WHERE p.organization_id = ${organization} AND p.tracking = 'serialized'
      ORDER BY p.active DESC, lower(p.name), p.id, v.active DESC, lower(v.name), v.id`),
  ]);
  return { inForce: inForce.map(recallOf), lifted: lifted.map(recallOf), variations };
}
