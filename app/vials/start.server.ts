// Starting a vial: sealed → in use, its Use-By Deadline fixed now (./rules `deadlineWhenStarted`).
// Starting moves no stock (the units are still in the vial; the ledger refuses a zero movement),
// so the batch is the start_vial activity row and the item update, guarded in SQL (./change.server).
import { sql } from "drizzle-orm";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import {
  type Changed,
  type ChangeOptions,
  changeVial,
  notRecalled,
  readForChange,
  vialKey,
  writeReach,
} from "./change.server";
import { refuse } from "./outcome";
import { deadlineWhenStarted, startRefusal } from "./rules";

/** The item update that opens a sealed vial at `now` (shared with a draw from a sealed vial). */
export function openVial(deadline: Date, now: Date) {
  const at = now.getTime();
  return {
    set: sql`state = 'in_use', started_at = coalesce(started_at, ${at}), expires_at = coalesce(expires_at, ${deadline.getTime()})`,
    summary: sql`json_object('startedAt', ${at}, 'expiresAt', ${deadline.getTime()})`,
  };
}

export async function startVial(
  db: Database,
  actor: ScopedActor,
  input: { itemId: string; idempotencyKey?: string | null },
  options: ChangeOptions = {},
): Promise<Changed<object>> {
  const reach = writeReach(actor);
  if (typeof reach !== "function") return reach;
  const now = options.now ?? new Date();
  const vial = await readForChange(db, reach, input.itemId, now);
  if (!vial) return refuse("not_found");
  const key = vialKey(actor, "start", vial.id, input.idempotencyKey);
  const why = (v: typeof vial) => startRefusal(v, now);
  // With a key, a refusal may be the repeat of a start that happened: the batch finds its answer.
  const refused = why(vial);
  if (refused && !key) return refused;
  const deadline = deadlineWhenStarted(vial, now) ?? now;
  return changeVial(
    db,
    actor,
    { vial, reach, key, now, answer: {} },
    {
      action: "start_vial",
      guard: sql`i.state = 'sealed' AND ${notRecalled} AND ${deadline.getTime()} > ${now.getTime()}`,
      ...openVial(deadline, now),
    },
    why,
  );
}
