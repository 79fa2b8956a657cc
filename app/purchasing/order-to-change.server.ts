// What every verb that changes an order reads first, in one round trip: the answer its key already
// gave (a replay), and the order where the actor reaches it. Refused when the key was used for
// something else, when the order is not there for this reader, or when the reader may not write it.
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { type IdempotencyKey, recallKey, replayOf } from "~/http/idempotency.server";
import { type Outcome, refuse } from "./outcome";
import { mayWrite, orderOf, orderQueries, type PurchaseOrder } from "./read.server";

export async function orderToChange<T extends object>(
  db: Database,
  actor: ScopedActor,
  orderId: string,
  key: IdempotencyKey | null,
): Promise<{ order: PurchaseOrder } | { answer: Outcome<T> }> {
  const queries = orderQueries(db, actor, orderId, "READ_PURCHASING");
  const [stored, ...rows] = await db.batch([recallKey(db, key), ...queries]);
  const earlier = replayOf<Outcome<T>>(stored, key);
  if (earlier.replay) return { answer: earlier.answer };
  if (earlier.misused) return { answer: refuse("key_misused") };
  const order = orderOf(rows);
  if (!order) return { answer: refuse("not_found") };
  if (!mayWrite(actor, order)) return { answer: refuse("forbidden") };
  return { order };
}
