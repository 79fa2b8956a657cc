// What the /recalls screen reads, in one batch: the organization's recalls in force and the latest
// lifted ones, and the variations a recall may name (the organization's serialized products: a
// recall quarantines vials).
import { sql } from "drizzle-orm";
import type { Actor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { serializedVariationChoices } from "~/products/list.server";
import { recallOf, recallRows } from "./recall.server";

/** Lifted recalls shown: the latest; older ones stay in the activity log and each lot's report. */
export const LIFTED_SHOWN = 50;

export async function recallsScreen(db: Database, actor: Actor) {
  const organization = organizationOf(actor);
  const [inForce, lifted, variations] = await db.batch([
    recallRows(db, sql`r.organization_id = ${organization} AND r.lifted_at IS NULL`, 500),
    recallRows(db, sql`r.organization_id = ${organization} AND r.lifted_at IS NOT NULL`, LIFTED_SHOWN),
    serializedVariationChoices(db, actor),
  ]);
  return { inForce: inForce.map(recallOf), lifted: lifted.map(recallOf), variations };
}
