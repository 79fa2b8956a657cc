// What /inventory/{itemId} reads, in one batch: the vial and its whole history (./history.server,
// shared with the API), and the active services a draw may name; then which of the four actions
// this reader may take on it now, by the same rules the verbs check (app/vials/rules).
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import { serviceChoices } from "~/catalog/services.server";
import type { Database } from "~/db/client.server";
import type { Vial } from "~/stock/vials.server";
import type { VialActions } from "./actions";
import { historyOf, vialHistoryQueries } from "./history.server";
import { openActions } from "./rules";

const NONE: VialActions = { start: false, draw: false, empty: false, discard: false, witness: false };

/** The actions `actor` may take on `vial` at `now`: WRITE_INVENTORY at its location (from where they stand), and the state allows it. */
export function vialActions(actor: ScopedActor, vial: Vial, now: Date): VialActions {
  return reachesAt(actor, "WRITE_INVENTORY", vial.locationId) ? openActions(vial, now) : NONE;
}

export async function vialPage(db: Database, actor: ScopedActor, itemId: string, now = new Date()) {
  const [vials, movements, activity, ends, services] = await db.batch([
    ...vialHistoryQueries(db, actor, itemId),
    serviceChoices(db, actor),
  ]);
  const found = historyOf([vials, movements, activity, ends], now);
  if (!found) return null;
  return { ...found, services, actions: vialActions(actor, found.vial, now) };
}
