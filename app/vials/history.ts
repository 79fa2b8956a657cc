// One vial's history as screens and the API show it: each event once (a draw is its USE movement
// with its usage entry; an empty or discard is its activity row with what it wasted), newest first.
// Browser-safe: types and the words staff read; history.server.ts reads it.
import type { DiscardReason, MovementType } from "../../db/schema/stock/constants";

export const HISTORY_KINDS = [
  "received",
  "started",
  "drawn",
  "emptied",
  "discarded",
  "wasted",
  "transferred",
  "adjusted",
  "other",
] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export const HISTORY_NAMES: Record<HistoryKind, string> = {
  received: "Received",
  started: "Started",
  drawn: "Drawn",
  emptied: "Emptied",
  discarded: "Discarded",
  wasted: "Wasted",
  transferred: "Transferred",
  adjusted: "Adjusted",
  other: "Changed",
};

/** Why a vial was discarded, as staff read it (the first five are the ones a person picks). */
export const DISCARD_REASON_NAMES: Record<DiscardReason, string> = {
  expired: "Expired",
  contaminated: "Contaminated",
  damaged: "Damaged",
  recalled: "Recalled",
  other: "Other",
  beyond_use_deadline: "Past its Use-By Deadline",
  lost_in_transit: "Lost in transit",
  missing_in_count: "Missing in a count",
};

export interface HistoryEntry {
  /** The id of the movement or activity row it was read from. */
  id: string;
  kind: HistoryKind;
  /** What it was read from: an activity action ("start_vial") or a movement type ("USE"). */
  source: string;
  at: Date;
  userId: string | null;
  /** Who did it; null for the system (the deadline's waste job) or an unknown user. */
  userName: string | null;
  /** Base units moved, signed (taken out is negative); null when nothing moved. */
  units: number | null;
  /** The same in the product's unit: "-20 U", "+100 U". */
  unitsText: string | null;
  serviceId: string | null;
  serviceName: string | null;
  provider: string | null;
  patientRef: string | null;
  /** When a draw's units were used (the treatment), which may be before it was recorded (`at`). */
  usedAt: Date | null;
  reason: string | null;
  note: string | null;
  /** The second person who confirmed a controlled substance's waste. */
  witnessName: string | null;
}

/** A movement type as the event it is, for movements no activity row explains. */
export function kindOfMovement(type: MovementType): HistoryKind {
  switch (type) {
    case "RECEIVE":
      return "received";
    case "START":
      return "started";
    case "USE":
      return "drawn";
    case "EMPTY":
      return "emptied";
    case "DISCARD":
      return "discarded";
    case "WASTE":
      return "wasted";
    case "TRANSFER_IN":
    case "TRANSFER_OUT":
      return "transferred";
    case "ADJUST":
    case "COUNT":
      return "adjusted";
    default:
      return "other";
  }
}

/** A reason as shown: a discard reason's name, any other reason code as it is. */
export function reasonName(reason: string | null): string | null {
  if (!reason) return null;
  return DISCARD_REASON_NAMES[reason as DiscardReason] ?? reason;
}
