// Every mutation appends its activity row in the same batch as the change it records.
import { type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";

export type ActivityAction =
  | "sign_in"
  | "sign_in_failed"
  | "sign_in_refused"
  | "password_change_failed"
  | "password_change_refused"
  | "sign_out"
  | "receive_vials"
  | "start_vial"
  | "draw_units"
  | "empty_vial"
  | "discard_vial"
  | "lot_recall"
  | "lot_recall_lift"
  | "update_product"
  | "update_variation"
  | "import_sales"
  | "audit_complete"
  | "transfer_complete"
  | "user_create"
  | "user_update"
  | "user_deactivate"
  | "user_reactivate"
  | "role_grant"
  | "role_change"
  | "role_revoke"
  | "password_reset"
  | "password_change"
  | "location_create"
  | "location_update"
  | "location_archive"
  | "location_restore"
  | "product_create"
  | "product_archive"
  | "product_restore"
  | "variation_create"
  | "variation_archive"
  | "variation_restore"
  | "barcode_add"
  | "barcode_remove"
  | "par_level_set"
  | "par_level_clear"
  | "service_create"
  | "service_update"
  | "service_archive"
  | "service_restore"
  | "recipe_update"
  | "vendor_create"
  | "vendor_update"
  | "vendor_archive"
  | "vendor_restore"
  | "stock_adjust"
  | "receipt_open"
  | "receipt_line_add"
  | "receipt_line_remove"
  | "receipt_cancel"
  | "printer_profile_create"
  | "printer_profile_update"
  | "printer_profile_archive"
  | "printer_profile_restore"
  | "request_backup"
  | "create_backup"
  | "upload_backup"
  | "request_restore"
  | "delete_backup"
  | "rehearse_backup"
  | "restore_backup";

export interface ActivityEntry {
  userId: string | null;
  locationId?: string | null;
  action: ActivityAction;
  entity: string;
  entityId?: string | null;
  summary?: Record<string, unknown>;
}

/** The insert for one activity row, to be put in the caller's batch. */
export function logActivity(db: Database, entry: ActivityEntry) {
  return db.insert(schema.activityLog).values({
    userId: entry.userId,
    locationId: entry.locationId ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    summary: entry.summary ?? null,
  });
}

export interface GuardedActivity {
  /** The row's id when later statements of the batch look for it (it marks that the change happened). */
  id?: string;
  /** Null for the system (a scheduled job). */
  userId: string | null;
  locationId?: string | SQL | null;
  action: ActivityAction;
  entity: string;
  entityId: string | SQL;
  /** A SQL expression for the JSON summary; it may read the row `from` selects (the "before"). */
  summary: SQL;
}

/**
 * The insert for one activity row, written only if `from` (a `FROM ... WHERE ...` clause naming
 * the guarded row) selects a row. Put it in the batch before the change, with the change's guard:
 * in one transaction both see the same rows, so the row is logged exactly when it changes.
 */
export function logActivityWhere(db: Database, entry: GuardedActivity, from: SQL) {
  return db.run(sql`INSERT INTO activity_log (id, at, user_id, location_id, action, entity, entity_id, summary)
    SELECT ${entry.id ?? uuidv7()}, ${Date.now()}, ${entry.userId}, ${entry.locationId ?? null}, ${entry.action}, ${entry.entity},
      ${entry.entityId}, ${entry.summary} ${from} LIMIT 1`);
}
