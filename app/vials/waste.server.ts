// Waste at the deadline (the jobs worker's scheduled run): every in-use vial past its Use-By
// Deadline has what is left booked as WASTE and is discarded with the reason beyond_use_deadline,
// by the system (user null). The same statements as a person's discard (./end.server), up to
// VIALS_PER_BATCH vials per batch, each guarded in SQL by its state, units and deadline as read:
// a vial someone emptied or discarded meanwhile fails its guard, the batch rolls back, and the next
// round reads again without it. Idempotent: a second run finds nothing left to waste.
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { isOutsideGuard } from "~/stock/ledger.server";
import { changeStatements } from "./change.server";
import { endChange } from "./end.server";

export const VIALS_PER_BATCH = 100;
/** Rounds per run: a run ends in bounded time even if vials keep changing under it. */
const ROUNDS_MAX = 50;

interface Due {
  id: string;
  variationId: string;
  lot: string | null;
  state: string;
  unitsRemaining: number;
}

export async function wasteAtDeadline(db: Database, now: Date = new Date()): Promise<{ wasted: number }> {
  let wasted = 0;
  const at = now.getTime();
  for (let round = 0; round < ROUNDS_MAX; round++) {
    const due =
      await db.all<Due>(sql`SELECT id, variation_id AS variationId, lot, state, units_remaining AS unitsRemaining
      FROM items WHERE state = 'in_use' AND expires_at <= ${at} ORDER BY expires_at, id LIMIT ${VIALS_PER_BATCH}`);
    const changes = due.map((vial) =>
      changeStatements(
        db,
        vial,
        { userId: null, where: sql`1`, key: null, now, answer: sql`NULL` },
        endChange(
          vial,
          {
            action: "discard_vial",
            state: "discarded",
            from: ["in_use"],
            movement: "WASTE",
            reason: "beyond_use_deadline",
          },
          now,
          null,
          sql`i.expires_at <= ${at}`,
        ),
      ),
    );
    const [first, ...rest] = changes.flatMap((c) => c.statements);
    if (!first) break;
    const ids = changes.map((c) => c.activityId);
    try {
      const results = await db.batch([
        first,
        ...rest,
        db.all<{ n: number }>(sql`SELECT count(*) AS n FROM activity_log WHERE id IN ${ids}`),
      ]);
      wasted += Number((results.at(-1) as { n: number }[])[0]?.n ?? 0);
    } catch (error) {
      // One of them changed since it was read: read again (it is no longer due, or due as it is now).
      if (isOutsideGuard(error)) continue;
      throw error;
    }
    if (due.length < VIALS_PER_BATCH) break;
  }
  return { wasted };
}
