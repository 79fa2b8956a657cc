// What the browser's offline queue sends and what the server answers (issue #25). One door for
// every replayed command: POST /api/offline-replays?locationId=<the location in scope when it was
// recorded>, with the entry's Idempotency-Key header and an OfflineCommand body. Browser-safe.

export const OFFLINE_KINDS = ["start", "draw", "empty", "discard", "count"] as const;
export type OfflineKind = (typeof OFFLINE_KINDS)[number];

export const OFFLINE_REPLAY_PATH = "/api/offline-replays";

export interface OfflineCommand {
  kind: OfflineKind;
  /** The vial (start, draw, empty, discard). */
  itemId?: string;
  /** The count session (count). */
  sessionId?: string;
  /**
   * The body the verb's JSON twin takes (POST /api/vials/{id}/draw, /api/audit-sessions/{id}/counts...),
   * as the person entered it. Never a password: a witness's password is not kept on the device.
   */
  body: Record<string, unknown>;
  /** When it happened at the cart (ISO 8601). A draw's usedAt and a start's startedAt default to it. */
  recordedAt: string;
  /** What the person saw when they saved it, e.g. "Draw 10 U from Botox 100 U (lot C1234)". */
  summary: string;
}

/** A replay the server refused, kept as a record a manager resolves. */
export interface OfflineFlag {
  id: string;
  /** The verb's refusal code, e.g. "not_in_use", "recalled". */
  code: string;
  /** The verb's message: why the server refused it now. */
  reason: string;
}

/**
 * 200 answers. `done`: the command was applied (or had been: the same key replays the first answer).
 * `flagged`: the server refused it now, so it is kept as a flag (the same key answers the same flag).
 * Other statuses: 400 malformed envelope, 401 signed out, 403 no WRITE_INVENTORY there, 503 the
 * database is down (the one error shape {error, code}); the client keeps the entry and retries.
 */
export type ReplayAnswer = { status: "done"; result: unknown } | { status: "flagged"; flag: OfflineFlag };
