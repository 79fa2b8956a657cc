// Adding lines to a draft (WRITE_PURCHASING at its location): one or more variations with their
// packages, each with its defaults (unit cost, vendor's SKU, expected date from the vendor's lead
// time), one activity row each, in one batch. A variation already on the order is refused by name
// (change its line instead); a submitted order gains lines only by a revision.
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { v7 as uuidv7 } from "uuid";
import type { ScopedActor } from "~/access/actor";
import { logActivityWhere } from "~/activity/log.server";
import type { Database } from "~/db/client.server";
import { idempotencyKeyFor, isKeyTaken, keyUnused, recallKey, rememberKey, replayOf } from "~/http/idempotency.server";
import { ORDER_LINES_MAX } from "./constants";
import { AddLinesInput } from "./forms";
import { expectedDate, insertLine, isLineRefused, resolveLines } from "./lines.server";
import { orderToChange } from "./order-to-change.server";
import { type Outcome, refuse } from "./outcome";
import { happened, reached } from "./read.server";

type Batched = BatchItem<"sqlite">;
type Added = { orderId: string; added: number; products: string[] };

export async function addOrderLines(
  db: Database,
  actor: ScopedActor,
  sent: AddLinesInput,
  options: { retried?: boolean } = {},
): Promise<Outcome<Added>> {
  const read = AddLinesInput.safeParse(sent);
  if (!read.success) return refuse("invalid", read.error.issues[0]?.message);
  const { orderId, lines: wanted, idempotencyKey } = read.data;
  const key = await idempotencyKeyFor(actor.id, idempotencyKey, `purchase_order_lines:${orderId}`, { lines: wanted });
  const found = await orderToChange<Added>(db, actor, orderId, key);
  if ("answer" in found) return found.answer;
  const { order } = found;
  if (order.status !== "draft") return refuse("not_draft");
  if (order.lines.length + wanted.length > ORDER_LINES_MAX) return refuse("too_many_lines");
  const now = new Date();
  const resolved = await resolveLines(
    db,
    actor,
    orderId,
    wanted,
    expectedDate(now, order.timezone, order.leadTimeDays),
  );
  if (!resolved.ok) return resolved;
  const { lines } = resolved;
  const at = now.getTime();
  const activityIds = lines.map(() => uuidv7());
  const first = activityIds[0] as string;
  const guard = sql`o.id = ${orderId} AND o.status = 'draft'
    AND ${reached(actor, "WRITE_PURCHASING", sql`o.location_id`)} AND ${keyUnused(key)}
    AND (SELECT count(*) FROM purchase_order_lines AS x WHERE x.order_id = o.id) <= ${ORDER_LINES_MAX - lines.length}`;
  try {
    const statements = [
      ...lines.map((line, n) =>
        logActivityWhere(
          db,
          {
            id: activityIds[n],
            userId: actor.id,
            locationId: order.locationId,
            action: "add_purchase_order_line",
            entity: "purchase_order",
            entityId: orderId,
            summary: sql`json_object('number', o.number, 'vendor', ${order.vendorName}, 'product', ${line.product},
              'lineId', ${line.id}, 'packages', ${line.packages}, 'unitCostCents', ${line.unitCostCents})`,
          },
          // Every row under the guard as the batch began: the first row marks that it held.
          n === 0
            ? sql`FROM purchase_orders AS o WHERE ${guard}`
            : sql`FROM purchase_orders AS o WHERE o.id = ${orderId}
            AND ${happened(first)}`,
        ),
      ),
      ...lines.map((line) => insertLine(db, orderId, line, happened(first), at)),
      db.run(sql`UPDATE purchase_orders SET updated_at = ${at} WHERE id = ${orderId} AND ${happened(first)}`),
      rememberKey(
        db,
        key,
        sql`json_object('ok', json('true'), 'orderId', ${orderId}, 'added', ${lines.length},
          'products', json(${JSON.stringify(lines.map((l) => l.product))}))`,
        sql`FROM activity_log WHERE id = ${first}`,
      ),
      db.all<{ n: number }>(sql`SELECT count(*) AS n FROM activity_log WHERE id = ${first}`),
    ];
    const results = (await db.batch(statements as unknown as [Batched, ...Batched[]])) as readonly unknown[];
    const [written] = results[results.length - 1] as { n: number }[];
    if (Number(written?.n) === 1)
      return { ok: true, orderId, added: lines.length, products: lines.map((l) => l.product) };
    const replay = replayOf<Outcome<Added>>(await recallKey(db, key), key);
    if (replay.replay) return replay.answer;
    if (replay.misused) return refuse("key_misused");
    return refuse("changed");
  } catch (error) {
    if (isLineRefused(error) || isKeyTaken(error)) {
      const replay = replayOf<Outcome<Added>>(await recallKey(db, key), key);
      if (replay.replay) return replay.answer;
      if (replay.misused) return refuse("key_misused");
      if (!options.retried) return addOrderLines(db, actor, sent, { retried: true });
      return refuse("changed");
    }
    throw error;
  }
}
