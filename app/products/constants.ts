// Plain values the product pages render, apart from the zod schemas (see app/users/constants.ts).
// The enums are the schema's own, from its dependency-free constants (no drizzle for the browser).

import { UNIT_SCALES } from "~/catalog/format";
import {
  STORAGE_CONDITIONS,
  type StorageCondition as Storage,
  TRACKING_MODES,
  type TrackingMode as Tracking,
} from "../../db/schema/catalog/constants";

export type { Storage, Tracking };

export const PRODUCTS_PAGE_SIZE = 25;

export const TRACKING_LABELS: Record<Tracking, string> = {
  serialized: "Serialized (item by item, e.g. vials)",
  bulk: "Bulk (quantities)",
};
export const TRACKING_SHORT: Record<Tracking, string> = { serialized: "Serialized", bulk: "Bulk" };

export const STORAGE_LABELS: Record<Storage, string> = {
  room: "Room temperature",
  refrigerated: "Refrigerated",
  frozen: "Frozen",
};

export const TRACKING_CHOICES = TRACKING_MODES.map((value) => ({ value, label: TRACKING_LABELS[value] }));
export const STORAGE_CHOICES = STORAGE_CONDITIONS.map((value) => ({ value, label: STORAGE_LABELS[value] }));
export const SCALE_CHOICES = UNIT_SCALES.map((value) => ({ value: String(value), label: String(value) }));

/** Why the safety fields are read-only to everyone but organization admins. */
export const SAFETY_FIELDS_ADMIN_ONLY =
  "Only organization admins change tracking, beyond-use hours and whether a product is controlled: they apply at every location.";
/** Why tracking is read-only once stock was counted the way it is tracked. */
export const TRACKING_LOCKED_HINT =
  "Tracking is fixed while the product has stock, vials or open receipt lines. To track it the other way, create a new product.";

export const STATUS_FILTERS = ["active", "archived", "all"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const UNIT_SCALE_HINT =
  "Quantities are whole numbers of 1/scale of the base unit: with mL and scale 100, stock is counted in hundredths of a mL.";

export const PRODUCT_INTENTS = [
  "update",
  "archive",
  "restore",
  "variation-create",
  "variation-update",
  "variation-archive",
  "variation-restore",
  "barcode-add",
  "barcode-remove",
  "par-set",
  "par-clear",
] as const;
export type ProductIntent = (typeof PRODUCT_INTENTS)[number];

/** How the recent-changes list names each catalogue action. */
export const ACTION_LABELS: Record<string, string> = {
  create_product: "Product created",
  update_product: "Product edited",
  archive_product: "Product archived",
  restore_product: "Product restored",
  create_variation: "Variation added",
  update_variation: "Variation edited",
  archive_variation: "Variation archived",
  restore_variation: "Variation restored",
  add_barcode: "Barcode added",
  remove_barcode: "Barcode removed",
  set_par_level: "Par level set",
  clear_par_level: "Par level cleared",
  adjust_stock: "Stock adjusted",
};

/**
 * The one name of each product and variation field on the product page: in its recent changes
 * (keys of the activity summaries) and in the note of a form that lost an edit (the form's field
 * names). Money is stored in cents (`costCents`) and typed as an amount (`cost`): one label, "Cost".
 */
export const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  sku: "SKU",
  category: "Category",
  manufacturer: "Manufacturer",
  defaultVendorId: "Default vendor",
  tracking: "Tracking",
  baseUnit: "Base unit",
  unitScale: "Scale",
  beyondUseHours: "Beyond-use (h)",
  storage: "Storage",
  controlled: "Controlled substance",
  cost: "Cost",
  price: "Price",
  active: "Active",
  gtin: "GTIN",
  unitsPerPackage: "Units per package",
  par: "Par",
  reorderPoint: "Reorder point",
  max: "Max",
};
