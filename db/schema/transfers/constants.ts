// The transfers' vocabulary (domain.md "Flows": transfer). Imports nothing, so the UI can use it.

/**
 * requested: asked for by the receiving location, waiting for the sender to fill it;
 * draft: being filled at the sending location; in_transit: sent, lines on the way (or some
 * received); received: nothing left to receive; cancelled: a draft or request given up, or a
 * transfer recalled to its sender while in transit (`recalled_at` says which).
 */
export const TRANSFER_STATUSES = ["requested", "draft", "in_transit", "received", "cancelled"] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/**
 * A line on the way is pending; on arrival it is received, or marked missing (lost in transit),
 * damaged (discarded) or short (a bulk quantity that arrived short); returned when the transfer
 * was recalled to its sender.
 */
export const TRANSFER_LINE_STATUSES = ["pending", "received", "missing", "damaged", "short", "returned"] as const;
export type TransferLineStatus = (typeof TRANSFER_LINE_STATUSES)[number];

/** The line statuses that open a discrepancy (kept open on the transfer until resolved with a note). */
export const DISCREPANCY_STATUSES = ["missing", "damaged", "short"] as const;
