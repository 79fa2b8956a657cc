// Starting a vial: sealed → in use, its Use-By Deadline fixed from when it was started: now, or the
// `startedAt` it names (a start recorded offline at the cart at 10:00 and sent at 14:00 gets no four
// hours more). A named start lies between the vial's receipt and now (USED_AT_BACK_DAYS back at
// most, the device's clock USED_AT_SKEW_MS ahead at most), and the vial must have been openable then
// (./rules `startRefusal`). Starting moves no stock (the units are still in the vial; the ledger
// refuses a zero movement), so the batch is the start_vial activity row and the item update,
// guarded in SQL (./change.server).
import { sql } from "drizzle-orm";
import type { Vial } from "~/stock/vials.server";
import { showInstant } from "~/ui/dates";
import { type Changed, changeVial, isPrepared, notRecalled, prepareChange } from "./change.server";
import { StartForm, USED_AT_BACK_DAYS, USED_AT_SKEW_MS, VIAL_MESSAGES } from "./forms";
import { refuse, type VialRefused } from "./outcome";
import { deadlineWhenStarted, startRefusal } from "./rules";
import { vialVerb } from "./verb.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The item update that opens a sealed vial at `now` (shared with a draw from a sealed vial). */
export function openVial(deadline: Date, now: Date) {
  const at = now.getTime();
  return {
    set: sql`state = 'in_use', started_at = coalesce(started_at, ${at}), expires_at = coalesce(expires_at, ${deadline.getTime()})`,
    summary: sql`json_object('startedAt', ${at}, 'expiresAt', ${deadline.getTime()})`,
  };
}

/**
 * The instants a start of `vial` may be dated at `now` (both ends included): from its receipt (and
 * at most USED_AT_BACK_DAYS ago) to now (USED_AT_SKEW_MS ahead allowed). Null when there is none.
 */
export function startWindow(vial: Pick<Vial, "receivedAt">, now: Date): { from: Date; to: Date } | null {
  const from = Math.max(vial.receivedAt.getTime(), now.getTime() - USED_AT_BACK_DAYS * DAY_MS);
  const to = now.getTime() + USED_AT_SKEW_MS;
  return from <= to ? { from: new Date(from), to: new Date(to) } : null;
}

/** Why a start named at `startedAt` cannot be: outside the window it may be dated in. */
function startedAtRefusal(vial: Vial, startedAt: Date | null, now: Date): VialRefused | null {
  if (!startedAt) return null;
  const window = startWindow(vial, now);
  if (!window) return refuse("invalid", VIAL_MESSAGES.startedAt);
  const at = startedAt.getTime();
  if (at >= window.from.getTime() && at <= window.to.getTime()) return null;
  const shown = (d: Date) => showInstant(d, vial.location.timeZone, now)?.title ?? d.toISOString();
  return refuse("invalid", VIAL_MESSAGES.startedAtWindow(shown(window.from), shown(window.to)));
}

export const startVial = vialVerb(StartForm, async (db, actor, input, options = {}): Promise<Changed<object>> => {
  const startedAt = input.startedAt ?? null;
  // The rules as of when it was started: its time in the window, the vial openable then (recalls as of now).
  const rule = (vial: Vial, now: Date) =>
    startedAtRefusal(vial, startedAt, now) ?? startRefusal(vial, startedAt ?? now);
  const prepared = await prepareChange(db, actor, "start", input, rule, options);
  if (!isPrepared(prepared)) return prepared;
  const { vial, now } = prepared;
  const at = startedAt ?? now;
  const deadline = deadlineWhenStarted(vial, at) ?? at;
  // A time outside its window is refused above; with a key the batch still runs (it may be a
  // repeat), so its guard must not write it either.
  const inWindow = startedAtRefusal(vial, startedAt, now) ? sql`0` : sql`1`;
  return changeVial(
    db,
    actor,
    { ...prepared, answer: {} },
    {
      action: "start_vial",
      guard: sql`i.state = 'sealed' AND ${notRecalled} AND ${deadline.getTime()} > ${at.getTime()} AND ${inWindow}`,
      ...openVial(deadline, at),
    },
    (v) => rule(v, now),
  );
});
