// Par levels on the product page: setting or clearing one row of this product. Like every
// location-bound record (ADR 0014), a row is reached where the actor stands, with WRITE_PRODUCTS
// there: the location in scope, or any in organization mode. The write itself is the bulk page's (parLevelWrite), with the row's names read in
// the same batch for the message.
import type { ScopedActor } from "~/access/actor";
import { reachesAt } from "~/access/scope.server";
import type { Levels, ParLevelInput } from "~/catalog/par-level";
import { type ParPlace, parLevelWrite, parPlaceNames, writeRefused } from "~/catalog/par-levels.server";
import type { Database } from "~/db/client.server";
import { refuse } from "./outcome";

const UNAVAILABLE = "That variation or location is not available: reload the page.";

/** One row in one batch: whether it changed, and its variation's and location's names. */
async function writeParLevel(db: Database, actor: ScopedActor, place: Required<ParPlace>, levels: Levels | null) {
  if (!reachesAt(actor, "WRITE_PRODUCTS", place.locationId)) return refuse("forbidden");
  try {
    const [, written, found] = await db.batch([
      ...parLevelWrite(db, actor, place, levels),
      parPlaceNames(db, actor, place),
    ]);
    const names = found[0];
    if (!names) return refuse("not_found", UNAVAILABLE);
    return { ok: true as const, changed: written.length === 1, ...names };
  } catch (error) {
    if (writeRefused(error)) return refuse("not_found", UNAVAILABLE);
    throw error;
  }
}

export async function setParLevel(db: Database, actor: ScopedActor, input: ParLevelInput & { productId: string }) {
  const { productId, locationId, variationId, par, reorderPoint, max } = input;
  return writeParLevel(db, actor, { productId, locationId, variationId }, { par, reorderPoint, max });
}

export async function clearParLevel(
  db: Database,
  actor: ScopedActor,
  input: { productId: string; variationId: string; locationId: string },
) {
  const result = await writeParLevel(db, actor, input, null);
  if (!result.ok) return result;
  if (!result.changed) return refuse("no_par_level");
  return { ok: true as const, location: result.location, variation: result.variation };
}
