// Each action's name in words, as the activity log's action filter offers it ("Changed vendor":
// its rows under the old name vendor_update too, ADR 0027). Apart from ./words so a screen's
// filter carries these few words, not every sentence.
import type { ActivityAction } from "./actions";

export const ACTION_LABELS: Record<ActivityAction, string> = {
  sign_in: "Signed in",
  sign_out: "Signed out",
  sign_in_failed: "Failed sign-in",
  sign_in_refused: "Refused sign-in",
  change_password_failed: "Failed password change",
  change_password_refused: "Refused password change",
  change_password: "Changed password",
  reset_password: "Reset password",
  receive_vials: "Received stock",
  start_vial: "Started vial",
  draw_units: "Drew from vial",
  empty_vial: "Emptied vial",
  discard_vial: "Discarded vial",
  recall_lot: "Recalled lot",
  lift_recall: "Lifted recall",
  create_product: "Added product",
  update_product: "Changed product",
  archive_product: "Archived product",
  restore_product: "Restored product",
  create_variation: "Added variation",
  update_variation: "Changed variation",
  archive_variation: "Archived variation",
  restore_variation: "Restored variation",
  add_barcode: "Added barcode",
  remove_barcode: "Removed barcode",
  set_par_level: "Set par level",
  clear_par_level: "Cleared par level",
  adjust_stock: "Adjusted stock",
  import_sales: "Imported sales",
  audit_complete: "Completed audit",
  transfer_complete: "Completed transfer",
  create_user: "Added user",
  update_user: "Changed user",
  deactivate_user: "Deactivated user",
  reactivate_user: "Reactivated user",
  grant_role: "Gave role",
  change_role: "Changed role",
  revoke_role: "Removed role",
  create_location: "Added location",
  update_location: "Changed location",
  archive_location: "Archived location",
  restore_location: "Restored location",
  create_service: "Added service",
  update_service: "Changed service",
  archive_service: "Archived service",
  restore_service: "Restored service",
  update_recipe: "Changed recipe",
  create_vendor: "Added vendor",
  update_vendor: "Changed vendor",
  archive_vendor: "Archived vendor",
  restore_vendor: "Restored vendor",
  open_receipt: "Opened receipt",
  add_receipt_line: "Added receipt line",
  remove_receipt_line: "Removed receipt line",
  cancel_receipt: "Cancelled receipt",
  create_printer_profile: "Added printer profile",
  update_printer_profile: "Changed printer profile",
  archive_printer_profile: "Archived printer profile",
  restore_printer_profile: "Restored printer profile",
  request_backup: "Asked for backup",
  create_backup: "Made backup",
  upload_backup: "Uploaded backup",
  request_restore: "Asked for restore",
  restore_backup: "Restored backup",
  delete_backup: "Deleted backup",
  rehearse_backup: "Rehearsed restore",
  create_transfer: "Created transfer",
  request_transfer: "Requested transfer",
  add_transfer_line: "Added to transfer",
  remove_transfer_line: "Removed from transfer",
  send_transfer: "Sent transfer",
  receive_transfer: "Received transfer",
  resolve_discrepancy: "Resolved discrepancy",
  cancel_transfer: "Cancelled transfer",
  recall_transfer: "Recalled transfer",
  start_count: "Started count",
  count_stock: "Counted stock",
  submit_count: "Submitted count",
  reject_count: "Sent count back",
};

/** The action's name in words, for a filter's choice: "Archived vendor" (its old name's rows too). */
export function actionLabel(action: ActivityAction): string {
  return ACTION_LABELS[action];
}

/** Today's actions in words, sorted by their words: the action filter's choices. */
export function actionChoices(): { value: ActivityAction; label: string }[] {
  return (Object.keys(ACTION_LABELS) as ActivityAction[])
    .map((value) => ({ value, label: ACTION_LABELS[value] }))
    .sort((a, b) => a.label.localeCompare(b.label));
}
