// The reorder view's read (issue 23.5), composing two domains as a screen does: purchasing's reorder
// suggestions for the location, and the transfers' balancing suggestions (worked out every minute,
// ADR 0030) that bring the same variation TO it from another location, offered instead of buying.
// One round trip while the worked-out suggestions are recent (both read in one batch); the transfers
// work theirs out themselves otherwise, as their own screen does.
import type { ScopedActor } from "~/access/actor";
import { locationsFor } from "~/access/scope.server";
import type { Database } from "~/db/client.server";
import { organizationOf } from "~/db/sql.server";
import { type ShownSuggestion, shownSuggestion, type TransferOffer } from "~/purchasing/reorder";
import { reorderOf, reorderStatements, vendorsOf } from "~/purchasing/suggestions.server";
import { suggestionsQuery, suggestionsShown } from "~/transfers/suggestions.server";
import { suggestionCarries } from "~/transfers/suggestions-panel";

export interface ReorderScreen {
  /** As the page carries them (ShownSuggestion: the loader's data goes to the browser too), of the vendors shown. */
  suggestions: ShownSuggestion[];
  offers: TransferOffer[];
  /** How many vendors have a suggestion here (shown or not). */
  vendors: number;
}

/**
 * The reorder suggestions of `locationId` (the actor stands there, with READ_PURCHASING), of the
 * `firstVendors` vendors with the most (null: every vendor), and the transfers offered instead.
 * `statements` go in the caller's batch (with the page's own reads); `screenOf` reads their results.
 */
export function reorderScreenStatements(
  db: Database,
  actor: ScopedActor,
  locationId: string,
  firstVendors: number | null,
  now = new Date(),
) {
  return [
    ...reorderStatements(db, organizationOf(actor), locationId, null, now, { firstVendors }),
    suggestionsQuery(db, actor),
  ] as const;
}

export async function reorderScreenOf(
  db: Database,
  actor: ScopedActor,
  locationId: string,
  results: readonly unknown[],
  now = new Date(),
): Promise<ReorderScreen> {
  const suggestions = (reorderOf(results.slice(0, 2), null) ?? []).map(shownSuggestion);
  const vendors = vendorsOf(results.slice(0, 2));
  const wanted = new Set(suggestions.filter((s) => s.packages > 0 && !s.onDraft).map((s) => s.variationId));
  if (wanted.size === 0) return { suggestions, offers: [], vendors };
  const worked = results[2] as Awaited<ReturnType<typeof suggestionsQuery>>;
  const { suggestions: balancing } = await suggestionsShown(db, actor, worked, now);
  const writable = new Set(locationsFor(actor, "WRITE_TRANSFERS").ids);
  const offers = balancing
    .filter((b) => b.toLocationId === locationId && wanted.has(b.variationId))
    .map((b) => ({
      variationId: b.variationId,
      fromLocationId: b.fromLocationId,
      fromLocationName: b.fromLocationName,
      toLocationId: b.toLocationId,
      carries: suggestionCarries(b),
      lines: JSON.stringify(b.lines),
      canDraft: writable.has(b.fromLocationId),
    }));
  return { suggestions, offers, vendors };
}

/** The reorder screen's read on its own (one round trip while the transfers' suggestions are recent). */
export async function readReorderScreen(
  db: Database,
  actor: ScopedActor,
  locationId: string,
  firstVendors: number | null = null,
  now = new Date(),
): Promise<ReorderScreen> {
  const results = await db.batch(reorderScreenStatements(db, actor, locationId, firstVendors, now) as never);
  return reorderScreenOf(db, actor, locationId, results as unknown[], now);
}
