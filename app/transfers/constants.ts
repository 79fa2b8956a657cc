// The transfers screens' words and limits, browser-safe (no database code): what the list and a
// transfer's page say about a status, a line, and how long a note or a reason may be.
import type { TransferLineStatus, TransferStatus } from "../../db/schema/transfers/constants";

export { DISCREPANCY_STATUSES, TRANSFER_LINE_STATUSES, TRANSFER_STATUSES } from "../../db/schema/transfers/constants";
export type { TransferLineStatus, TransferStatus };

/** A note (what a request asks for, the sender's note) and a reason or a resolution, in characters. */
export const NOTE_MAX = 500;
export const REASON_MAX = 500;
/** One transfer carries at most this many lines (a van, not a warehouse). */
export const TRANSFER_LINES_MAX = 200;
/** A bulk quantity, in base units. */
export const QUANTITY_MAX = 1_000_000;
/** The list shows this many transfers a page. */
export const TRANSFERS_PAGE_SIZE = 25;

export const TRANSFER_STATUS_LABELS: Record<TransferStatus, string> = {
  requested: "Requested",
  draft: "Draft",
  in_transit: "On the way",
  received: "Received",
  cancelled: "Cancelled",
};

export const LINE_STATUS_LABELS: Record<TransferLineStatus, string> = {
  pending: "Pending",
  received: "Received",
  missing: "Missing",
  damaged: "Damaged",
  short: "Short",
  returned: "Returned",
};

/** What a person may mark a line as on arrival. */
export const RECEIVE_STATUSES = ["received", "missing", "damaged", "short"] as const;
export type ReceiveStatus = (typeof RECEIVE_STATUSES)[number];

export const transferPath = (id: string) => `/transfers/${id}`;

export const TRANSFER_MESSAGES = {
  location: "Choose a location.",
  sameLocation: "A transfer goes to another location: choose a different one.",
  note: `Keep the note under ${NOTE_MAX} characters.`,
  requestNote: "Say what you need (the sender sees this note).",
  reason: `Give a reason of at most ${REASON_MAX} characters.`,
  reasonNeeded: "Say why (for a missing, damaged or short line).",
  resolution: `Write what was done about it, in at most ${REASON_MAX} characters.`,
  labelCode: "Scan or type the vial's label code.",
  variation: "Choose a product variation.",
  quantity: "Enter a whole number of units, 1 or more.",
  lines: "Add at least one line.",
  tooManyLines: `A transfer holds at most ${TRANSFER_LINES_MAX} lines.`,
  lineStatus: "Mark the line received, missing, damaged or short.",
} as const;
