// A new purchase order, made at a location where the actor may write purchasing
// (WRITE_PURCHASING there) to an active vendor of the organization: a draft, empty (the page then
// adds items) or with its first lines in the same batch (the API, the reorder view). Its number,
// PO-{year}-{sequence}, is taken in the INSERT's own SQL (the organization's highest sequence of
// the year plus one); the unique index on (organization, year, sequence) makes two creates at once
// fail rather than share a number, and the loser is tried once more.
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { constraintFailed, organizationOf } from "~/db/sql.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { calendarDayIn } from "~/ui/dates";
import { CreateOrderInput } from "./forms";
import { expectedDate, insertLine, isLineRefused, resolveLines } from "./lines.server";
import { type Outcome, refuse } from "./outcome";
import { happened, reached } from "./read.server";

type Created = { orderId: string; number: string; lines: number };

/** Whether a batch failed because another order took the same number first. */
const isNumberTaken = (error: unknown) => constraintFailed(error, /purchase_orders\.(organization_id|year|sequence)/);

export async function createPurchaseOrder(
  db: Database,
  actor: ScopedActor,
  sent: CreateOrderInput,
  options: { retried?: boolean } = {},
): Promise<Outcome<Created>> {
  const read = CreateOrderInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const input = read.data;
  if (!reachesAt(actor, "WRITE_PURCHASING", input.locationId)) return refuse("forbidden");
  const { idempotencyKey, ...request } = input;
  const key = await idempotencyKeyFor(actor.id, idempotencyKey, "purchase_order_create", request);
  const earlier = replayOf<Outcome<Created>>(await recallKey(db, key), key);
  if (earlier.replay) return earlier.answer;
  if (earlier.misused) return refuse("key_misused");

  const organization = organizationOf(actor);
  const [places, vendors] = await db.batch([
    db.all<{ timezone: string }>(sql`SELECT timezone FROM locations
      WHERE id = ${input.locationId} AND active = 1 AND organization_id = ${organization}`),
    db.all<{ leadTimeDays: number | null }>(sql`SELECT lead_time_days AS leadTimeDays FROM vendors
      WHERE id = ${input.vendorId} AND active = 1 AND organization_id = ${organization}`),
  ]);
  const place = places[0];
  if (!place) return refuse("location_unavailable");
  const vendor = vendors[0];
  if (!vendor) return refuse("vendor_unavailable");
  const now = new Date();
  const resolved = await resolveLines(
    db,
    actor,
    null,
    input.lines,
    expectedDate(now, place.timezone, vendor.leadTimeDays),
  );
  if (!resolved.ok) return resolved;
  const { lines } = resolved;

  const orderId = uuidv7();
  const activityId = uuidv7();
  const at = now.getTime();
  const year = Number(calendarDayIn(now, place.timezone).slice(0, 4));
  const guard = sql`l.id = ${input.locationId} AND l.active = 1 AND l.organization_id = ${organization}
    AND ${reached(actor, "WRITE_PURCHASING", sql`l.id`)}
    AND EXISTS (SELECT 1 FROM vendors AS v WHERE v.id = ${input.vendorId} AND v.active = 1
      AND v.organization_id = l.organization_id)
    AND ${keyUnused(key)}`;
  try {
    const [created, , ...rest] = await db.batch([
      db.all<{ id: string; number: string }>(sql`INSERT INTO purchase_orders (id, organization_id, location_id,
          vendor_id, year, sequence, number, status, revision, version, note, created_by, created_at, updated_at)
        SELECT ${orderId}, l.organization_id, l.id, ${input.vendorId}, ${year}, n.sequence,
          'PO-' || ${String(year)} || '-' || printf('%04d', n.sequence), 'draft', 0, 1, ${input.note}, ${actor.id}, ${at}, ${at}
        FROM locations AS l, (SELECT coalesce(max(sequence), 0) + 1 AS sequence FROM purchase_orders
          WHERE organization_id = ${organization} AND year = ${year}) AS n
        WHERE ${guard}
        RETURNING id, number`),
      logActivityWhere(
        db,
        {
          id: activityId,
          userId: actor.id,
          locationId: input.locationId,
          action: "create_purchase_order",
          entity: "purchase_order",
          entityId: orderId,
          summary: sql`json_object('number', o.number, 'vendor', (SELECT name FROM vendors WHERE id = o.vendor_id),
            'lines', ${lines.length}, 'note', o.note)`,
        },
        sql`FROM purchase_orders AS o WHERE o.id = ${orderId}`,
      ),
      ...lines.map((line) => insertLine(db, orderId, line, happened(activityId), at)),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'orderId', o.id, 'number', o.number, 'lines', ${lines.length})`,
        sql`FROM purchase_orders AS o WHERE o.id = ${orderId}`,
      ),
      recallKey(db, key),
    ]);
    const row = created[0];
    if (row) return { ok: true, orderId, number: row.number, lines: lines.length };
    const replay = replayOf<Outcome<Created>>(rest[rest.length - 1] as never, key);
    if (replay.replay) return replay.answer;
    if (replay.misused) return refuse("key_misused");
    return refuse("location_unavailable");
  } catch (error) {
    // Another create took the number, a repeat of the key won, or a line's variation changed meanwhile.
    if (isNumberTaken(error) || isKeyTaken(error) || isLineRefused(error)) {
      const replay = replayOf<Outcome<Created>>(await recallKey(db, key), key);
      if (replay.replay) return replay.answer;
      if (replay.misused) return refuse("key_misused");
      if (!options.retried) return createPurchaseOrder(db, actor, sent, { retried: true });
      return refuse(isNumberTaken(error) ? "number_taken" : "changed");
    }
    throw error;
  }
}
