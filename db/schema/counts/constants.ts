// The cycle counts' vocabulary (domain.md "Flows": audit_session). Imports nothing, so the UI can use it.

/** in_progress while counting; submitted for review; approved (variances booked) or rejected (sent back for a recount). */
export const AUDIT_STATUSES = ["in_progress", "submitted", "approved", "rejected"] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/** What a count covers: everything at the location, one category, or chosen products. */
export const AUDIT_SCOPES = ["all", "category", "products"] as const;
export type AuditScope = (typeof AUDIT_SCOPES)[number];
