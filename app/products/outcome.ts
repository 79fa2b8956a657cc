// What a catalogue verb answers: done, or refused for a named reason the route turns into a
// message next to the right field (or a 403/404). Same shape as the users and locations verbs.
import type { Outcome as AnyOutcome, Refused } from "~/users/outcome";

export type ProductRefusal =
  | "forbidden"
  | "not_found"
  | "variation_not_found"
  | "location_unavailable"
  | "sku_taken"
  | "vendor_unavailable"
  | "stale"
  | "variation_stale"
  | "scale_changed"
  | "scale_locked"
  | "units_locked"
  | "variation_name_taken"
  | "gtin_taken"
  | "barcode_invalid"
  | "barcode_taken"
  | "barcode_not_found"
  | "par_invalid"
  | "no_par_level"
  | "already_archived"
  | "already_active";

export type Outcome<T extends object = object> = AnyOutcome<T, ProductRefusal>;
export type ProductRefused = Refused<ProductRefusal>;

export const PRODUCT_REFUSALS: Record<ProductRefusal, string> = {
  forbidden: "You do not have permission to access this resource. Please contact your administrator.",
  not_found: "That product does not exist in your organization.",
  variation_not_found: "That variation does not exist in your organization.",
  location_unavailable: "That location is archived or does not exist.",
  sku_taken: "Another product already uses this SKU. Choose a different SKU, or leave it empty.",
  vendor_unavailable: "That vendor is archived or does not exist. Choose an active vendor.",
  stale:
    "Someone else changed this product while you were editing. Your changes were not saved: review the current values and save again.",
  variation_stale:
    "Someone else changed this variation while you were editing. Your changes were not saved: review the current values and save again.",
  scale_changed:
    "The product's unit scale changed while you were editing. Your changes were not saved: review the current values and save again.",
  scale_locked:
    "The scale cannot change once the product has variations: their units per package (and any stock) are counted at this scale. Keep the scale, or create a new product.",
  units_locked:
    "This variation has stock or open receipt lines, so its units per package cannot change. Archive it and add a new variation with the new package size.",
  variation_name_taken: "This product already has a variation with this name. Choose a different name.",
  gtin_taken: "Another variation already uses this GTIN.",
  barcode_invalid: "This barcode does not follow the barcode rules.",
  barcode_taken: "This barcode is already used.",
  barcode_not_found: "That barcode is not on this product any more.",
  par_invalid: "These par level values are not valid.",
  no_par_level: "There is no par level to clear at that location.",
  already_archived: "This is already archived.",
  already_active: "This is already active.",
};

export function refuse<R extends ProductRefusal>(refusal: R, message = PRODUCT_REFUSALS[refusal]): Refused<R> {
  return { ok: false, refusal, message };
}
