// Plain values the stock levels screen renders (no zod, no drizzle): the statuses of a level against
// its par level, the page size, and on-hand quantities in the product's unit.
import { formatQuantity, type UnitScale } from "~/catalog/format";

/**
 * A level against the par level at its location (par and reorder point count packages):
 * below_reorder at or under the reorder point (time to order), below_par under par, ok at or over
 * par (or a par of zero), no_par when the location has none for that variation.
 */
export const STOCK_STATUSES = ["below_reorder", "below_par", "ok", "no_par"] as const;
export type StockStatus = (typeof STOCK_STATUSES)[number];

export const STOCK_STATUS_LABELS: Record<StockStatus, string> = {
  below_reorder: "Reorder",
  below_par: "Below par",
  ok: "OK",
  no_par: "No par level",
};

export const STOCK_LEVELS_PAGE_SIZE = 25;

/**
 * On hand in the product's unit, written as every quantity is (formatQuantity): 350 → "350 U";
 * 250 at 100 → "2.5 mL". Not with the scale's decimals: one screen showed "60.0 mL" beside
 * "4.50 mL" for products of two scales (issue 18.13); one unit reads one way.
 */
export function formatOnHand(onHand: number, unitScale: UnitScale, baseUnit: string): string {
  return formatQuantity(onHand, unitScale, baseUnit);
}

/** Whole packages plus what is left of an opened one, in base units (integers only). */
export function packagesOf(onHand: number, unitsPerPackage: number): { whole: number; remainder: number } {
  return { whole: Math.floor(onHand / unitsPerPackage), remainder: onHand % unitsPerPackage };
}
