// Starting a vial: sealed → in use, its Use-By Deadline fixed now (./rules `deadlineWhenStarted`).
// Starting moves no stock (the units are still in the vial; the ledger refuses a zero movement),
// so the batch is the start_vial activity row and the item update, guarded in SQL (./change.server).
import { sql } from "drizzle-orm";
import { type Changed, changeVial, isPrepared, notRecalled, prepareChange } from "./change.server";
import { StartForm } from "./forms";
import { deadlineWhenStarted, startRefusal } from "./rules";
import { vialVerb } from "./verb.server";

/** The item update that opens a sealed vial at `now` (shared with a draw from a sealed vial). */
export function openVial(deadline: Date, now: Date) {
  const at = now.getTime();
  return {
    set: sql`state = 'in_use', started_at = coalesce(started_at, ${at}), expires_at = coalesce(expires_at, ${deadline.getTime()})`,
    summary: sql`json_object('startedAt', ${at}, 'expiresAt', ${deadline.getTime()})`,
  };
}

export const startVial = vialVerb(StartForm, async (db, actor, input, options = {}): Promise<Changed<object>> => {
  const prepared = await prepareChange(db, actor, "start", input, startRefusal, options);
  if (!isPrepared(prepared)) return prepared;
  const { vial, now } = prepared;
  const deadline = deadlineWhenStarted(vial, now) ?? now;
  return changeVial(
    db,
    actor,
    { ...prepared, answer: {} },
    {
      action: "start_vial",
      guard: sql`i.state = 'sealed' AND ${notRecalled} AND ${deadline.getTime()} > ${now.getTime()}`,
      ...openVial(deadline, now),
    },
    (v) => startRefusal(v, now),
  );
});
