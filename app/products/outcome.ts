// The catalogue verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

export const { messages: PRODUCT_REFUSALS, refuse } = refusalsOf({
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
  tracking_locked:
    "This product has stock, vials or open receipt lines, so its tracking cannot change. To track it the other way, create a new product with that tracking.",
  safety_admin_only:
    "Only organization admins change whether a product is controlled, its beyond-use hours and its tracking: they apply at every location. Nothing was saved: keep them as they are, or ask an organization admin.",
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
});

export type ProductRefusal = keyof typeof PRODUCT_REFUSALS;
export type Outcome<T extends object = object> = AnyOutcome<T, ProductRefusal>;
export type ProductRefused = Refused<ProductRefusal>;
