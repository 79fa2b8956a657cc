// Par levels from usage (issue 23.4, ADR 0032): from a variation's use at a location over the last
// 30 or 90 days and its default vendor's lead time, a proposed reorder point, par and max, in
// packages. Browser-safe: the page shows the proposal beside today's values with this module.
import type { Levels } from "~/catalog/par-level";

/** The windows a proposal may be read over. */
export const USAGE_WINDOWS = [30, 90] as const;
export type UsageWindow = (typeof USAGE_WINDOWS)[number];
/** The lead time assumed for a product without a default vendor, or a vendor without a lead time. */
export const DEFAULT_LEAD_DAYS = 7;
/** Use held in reserve above the lead time's: a week. */
export const SAFETY_DAYS = 7;
/** Use between the reorder point and the max: a month of orders. */
export const CYCLE_DAYS = 30;

/** The window of `?suggest=`: 30 or 90, else none. */
export function usageWindowOf(value: string | null | undefined): UsageWindow | null {
  return USAGE_WINDOWS.find((w) => String(w) === value) ?? null;
}

/**
 * The proposal for `usedUnits` base units used over `days` days (packages of `unitsPerPackage`):
 * reorder point = the use during the lead time and a week's safety, rounded up, at least 1; max =
 * the reorder point and a month's use, rounded up, at least one package more; par = today's, kept
 * between the two, else the max. Null when the variation was not used in the window: no rate to
 * propose from.
 */
export function proposeLevels(input: {
  usedUnits: number;
  days: number;
  unitsPerPackage: number;
  leadTimeDays: number | null;
  today: Levels | null;
}): Levels | null {
  if (input.usedUnits <= 0 || input.days <= 0) return null;
  const perDay = input.usedUnits / input.days / input.unitsPerPackage;
  const lead = input.leadTimeDays ?? DEFAULT_LEAD_DAYS;
  const reorderPoint = Math.max(1, Math.ceil(perDay * (lead + SAFETY_DAYS) - 1e-9));
  const max = reorderPoint + Math.max(1, Math.ceil(perDay * CYCLE_DAYS - 1e-9));
  const par = Math.min(max, Math.max(reorderPoint, input.today?.par ?? max));
  return { par, reorderPoint, max };
}

/** "5 | 2 | 8" of a row's levels (— for none), as the page shows them side by side. */
export function levelsText(levels: Levels | null): string {
  if (!levels) return "—";
  return `${levels.par} / ${levels.reorderPoint} / ${levels.max ?? "—"}`;
}

/** The hidden value of a proposal a row carries: "par|reorderPoint|max". */
export const proposalValue = (levels: Levels) => `${levels.par}|${levels.reorderPoint}|${levels.max ?? ""}`;
/** The form field of a row's proposal. */
export const proposalField = (variationId: string) => `proposal:${variationId}`;
