import { sql } from "drizzle-orm";
import { check, index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id, instant, quotedList } from "../columns";
import { locations } from "../organization/locations";
import { TRANSFER_STATUSES } from "./constants";

/**
 * Stock moved from one location of an organization to another (domain.md "Flows": transfer).
 * A request is made at the receiving location and filled as a draft at the sender; sending books
 * TRANSFER_OUT at the sender (vials in_transit), receiving TRANSFER_IN at the destination line by
 * line. Who did what is kept on the row; no foreign keys to users, like activity_log.
 */
export const transfers = sqliteTable(
  "transfers",
  {
    id: id(),
    fromLocationId: text("from_location_id")
      .notNull()
      .references(() => locations.id),
    toLocationId: text("to_location_id")
      .notNull()
      .references(() => locations.id),
    status: text("status", { enum: TRANSFER_STATUSES }).notNull(),
    /** What the requester asked for, or the sender's note. */
    note: text("note"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    /** Set when the transfer began as a request from the receiving location. */
    requestedBy: text("requested_by"),
    requestedAt: instant("requested_at"),
    sentBy: text("sent_by"),
    sentAt: instant("sent_at"),
    /** When nothing was left to receive. */
    receivedAt: instant("received_at"),
    cancelledBy: text("cancelled_by"),
    cancelledAt: instant("cancelled_at"),
    /** Why it was cancelled or recalled. */
    cancelReason: text("cancel_reason"),
    /** Set when a transfer in transit was recalled to its sender (status cancelled). */
    recalledAt: instant("recalled_at"),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    check("transfers_status", sql`${t.status} IN (${quotedList(TRANSFER_STATUSES)})`),
    check("transfers_two_places", sql`${t.fromLocationId} <> ${t.toLocationId}`),
    check("transfers_sent", sql`${t.status} NOT IN ('in_transit', 'received') OR ${t.sentAt} IS NOT NULL`),
    check("transfers_received", sql`(${t.status} = 'received') = (${t.receivedAt} IS NOT NULL)`),
    check("transfers_cancelled", sql`(${t.status} = 'cancelled') = (${t.cancelledAt} IS NOT NULL)`),
    // Serves each location's list (sent from it, coming to it), by status, newest first.
    index("transfers_from_status_idx").on(t.fromLocationId, t.status, t.createdAt, t.id),
    index("transfers_to_status_idx").on(t.toLocationId, t.status, t.createdAt, t.id),
  ],
);
