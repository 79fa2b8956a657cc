// The names of what the activity log records, in one style: verb_object (`update_product`,
// `receive_vials`, `archive_vendor`), the spec's own style (ADR 0027). Two names the spec fixes
// keep their shape: `audit_complete` and `transfer_complete` (refresh-set keys). An attempt that
// did not happen is the act's name and its outcome (`sign_in_failed`, `change_password_refused`).
// History is never edited: rows written before the rename keep their noun_verb names, which
// LEGACY_ACTIONS maps to today's, so the log shows and filters old and new rows alike.
// Browser-safe: the activity log's words and filters read it on both sides.

export const ACTIVITY_ACTIONS = [
  "sign_in",
  "sign_in_failed",
  "sign_in_refused",
  "change_password_failed",
  "change_password_refused",
  "sign_out",
  "receive_vials",
  "start_vial",
  "draw_units",
  "empty_vial",
  "discard_vial",
  "recall_lot",
  "lift_recall",
  "update_product",
  "update_variation",
  "import_sales",
  "audit_complete",
  "transfer_complete",
  "create_user",
  "update_user",
  "deactivate_user",
  "reactivate_user",
  "grant_role",
  "change_role",
  "revoke_role",
  "reset_password",
  "change_password",
  "create_location",
  "update_location",
  "archive_location",
  "restore_location",
  "create_product",
  "archive_product",
  "restore_product",
  "create_variation",
  "archive_variation",
  "restore_variation",
  "add_barcode",
  "remove_barcode",
  "set_par_level",
  "clear_par_level",
  "create_service",
  "update_service",
  "archive_service",
  "restore_service",
  "update_recipe",
  "create_vendor",
  "update_vendor",
  "archive_vendor",
  "restore_vendor",
  "adjust_stock",
  "open_receipt",
  "add_receipt_line",
  "remove_receipt_line",
  "cancel_receipt",
  "create_printer_profile",
  "update_printer_profile",
  "archive_printer_profile",
  "restore_printer_profile",
  "create_backup",
  "upload_backup",
  "restore_backup",
  "delete_backup",
  "rehearse_backup",
] as const;

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** The names written before ADR 0027, each to the name written since. Old rows keep them. */
export const LEGACY_ACTIONS = {
  lot_recall_lift: "lift_recall",
  user_create: "create_user",
  user_update: "update_user",
  user_deactivate: "deactivate_user",
  user_reactivate: "reactivate_user",
  role_grant: "grant_role",
  role_change: "change_role",
  role_revoke: "revoke_role",
  password_reset: "reset_password",
  password_change_failed: "change_password_failed",
  password_change_refused: "change_password_refused",
  password_change: "change_password",
  location_create: "create_location",
  location_update: "update_location",
  location_archive: "archive_location",
  location_restore: "restore_location",
  product_create: "create_product",
  product_archive: "archive_product",
  product_restore: "restore_product",
  variation_create: "create_variation",
  variation_archive: "archive_variation",
  variation_restore: "restore_variation",
  barcode_add: "add_barcode",
  barcode_remove: "remove_barcode",
  par_level_set: "set_par_level",
  par_level_clear: "clear_par_level",
  service_create: "create_service",
  service_update: "update_service",
  service_archive: "archive_service",
  service_restore: "restore_service",
  recipe_update: "update_recipe",
  vendor_create: "create_vendor",
  vendor_update: "update_vendor",
  vendor_archive: "archive_vendor",
  vendor_restore: "restore_vendor",
  stock_adjust: "adjust_stock",
  receipt_open: "open_receipt",
  receipt_line_add: "add_receipt_line",
  receipt_line_remove: "remove_receipt_line",
  receipt_cancel: "cancel_receipt",
  printer_profile_create: "create_printer_profile",
  printer_profile_update: "update_printer_profile",
  printer_profile_archive: "archive_printer_profile",
  printer_profile_restore: "restore_printer_profile",
  lot_recall: "recall_lot",
} as const satisfies Record<string, ActivityAction>;

export type LegacyAction = keyof typeof LEGACY_ACTIONS;

const known = new Set<string>(ACTIVITY_ACTIONS);

/** Today's name of an action as a row stores it (an old row's noun_verb name, or today's); null if unknown. */
export function currentAction(stored: string): ActivityAction | null {
  if (known.has(stored)) return stored as ActivityAction;
  return Object.hasOwn(LEGACY_ACTIONS, stored) ? LEGACY_ACTIONS[stored as LegacyAction] : null;
}

/** Every name rows of this action may carry: today's and the old one, for a filter. */
export function storedNames(action: ActivityAction): string[] {
  return [action, ...Object.entries(LEGACY_ACTIONS).flatMap(([old, now]) => (now === action ? [old] : []))];
}

/** Whether a value is one of today's action names (a filter's choice). */
export function isActivityAction(value: unknown): value is ActivityAction {
  return typeof value === "string" && known.has(value);
}
