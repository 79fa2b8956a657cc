// The purchasing vocabulary (domain.md "Flows": purchase_order). Imports nothing, so the UI can use it.

/**
 * draft: edited freely; submitted: sent to the vendor (changed only by a recorded revision);
 * partially_received: some of it arrived; received: every line arrived in full; closed: done with
 * (received, or closed with lines outstanding and a reason); cancelled: given up before anything arrived.
 */
export const PURCHASE_ORDER_STATUSES = [
  "draft",
  "submitted",
  "partially_received",
  "received",
  "closed",
  "cancelled",
] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];

/** The statuses whose outstanding lines are "on order" (what reorder suggestions count as coming). */
export const ON_ORDER_STATUSES = ["submitted", "partially_received"] as const;

/** At most this many packages on one line (a typo of 1e9 is refused, not ordered). */
export const MAX_PACKAGES_A_LINE = 10_000;
/** At most this many cents for one package ($1,000,000). */
export const MAX_UNIT_COST_CENTS = 100_000_000;
