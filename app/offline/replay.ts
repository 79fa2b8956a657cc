// Sends the cart's offline queue to the server's one door for replays (app/offline/contract.ts),
// oldest first, one at a time, each under its own idempotency key (the same on every try, so the
// server writes it once however often it is sent). Done leaves the queue; flagged stays, with why,
// for its person to see; a refused envelope (400, 403, 404) stays as stuck, with the message; signed
// out, no connection, a time-out, an open breaker or a server error stop the round: it goes again
// later. One sender at a time across tabs (navigator.locks).
import { apiRequest, type HttpMethod, type RequestOptions } from "~/browser/request";
import { statusOf } from "~/errors/classify";
import { OFFLINE_REPLAY_PATH, type ReplayAnswer } from "./contract";
import type { OfflineQueue, QueueEntry } from "./queue";

export const REPLAY_LOCK = "clinic-offline-replay";
export const REPLAY_INTERVAL_MS = 30_000;

/** Statuses that say the envelope itself is wrong there: keeping it waiting would send it for ever. */
const STUCK_STATUSES = new Set([400, 403, 404, 409, 413, 422]);

export interface ReplayRound {
  done: number;
  flagged: number;
  stuck: number;
  /** Why the round stopped before the end: signed out (wait for a sign-in), or not reachable (later). */
  stopped: "signed_out" | "unreachable" | null;
  /** Another tab was sending: this one did nothing. */
  busy: boolean;
}

export type Request = <T>(method: HttpMethod, path: string, options?: RequestOptions) => Promise<T>;

export interface ReplayOptions {
  queue: OfflineQueue;
  userId: string;
  request?: Request;
  /** The browser's lock manager; without one, only this tab's rounds are kept apart. */
  locks?: Pick<LockManager, "request"> | null;
  /** "Send now": stuck entries are tried again too (their person asked; the same key, so still once). */
  retryStuck?: boolean;
}

/** The path an entry is sent to: the door, at the location in scope when it was recorded. */
export function replayPath(entry: Pick<QueueEntry, "locationId">): string {
  return `${OFFLINE_REPLAY_PATH}?locationId=${encodeURIComponent(entry.locationId)}`;
}

/** The `{error}` of our one error shape, else the status and body as they came. */
function messageOf(error: unknown): string {
  const body = (error as { body?: unknown } | null)?.body;
  if (typeof body === "string" && body) {
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (typeof parsed.error === "string") return parsed.error;
    } catch {
      return body.slice(0, 300);
    }
  }
  return error instanceof Error ? error.message : String(error);
}

async function sendAll({
  queue,
  userId,
  request = apiRequest,
  retryStuck = false,
}: ReplayOptions): Promise<ReplayRound> {
  const round: ReplayRound = { done: 0, flagged: 0, stuck: 0, stopped: null, busy: false };
  const waiting = (await queue.list(userId)).filter(
    (entry) => entry.status === "waiting" || (retryStuck && entry.status === "stuck"),
  );
  for (const entry of waiting) {
    let answer: ReplayAnswer;
    try {
      answer = await request<ReplayAnswer>("POST", replayPath(entry), {
        body: entry.command,
        breaker: true,
        headers: { "Idempotency-Key": entry.key },
      });
    } catch (error) {
      const status = statusOf(error);
      if (status === 401) return { ...round, stopped: "signed_out" };
      if (status !== null && STUCK_STATUSES.has(status)) {
        await queue.mark(entry.key, { status: "stuck", problem: messageOf(error) });
        round.stuck += 1;
        continue;
      }
      // No answer, a time-out, the breaker open, 429 or 5xx (the database down): the same key later.
      return { ...round, stopped: "unreachable" };
    }
    if (answer?.status === "done") {
      await queue.remove(entry.key);
      round.done += 1;
    } else if (answer?.status === "flagged") {
      await queue.mark(entry.key, { status: "flagged", flag: answer.flag });
      round.flagged += 1;
    } else {
      // An answer outside the contract: kept, and not sent again until someone looks.
      await queue.mark(entry.key, { status: "stuck", problem: "The server's answer was not understood." });
      round.stuck += 1;
    }
  }
  return round;
}

let runningHere: Promise<ReplayRound> | null = null;

/**
 * One round: `userId`'s waiting entries, in order. A round already running in this tab is joined;
 * one running in another tab (the lock held) makes this one return at once, `busy`.
 */
export function replayWaiting(options: ReplayOptions): Promise<ReplayRound> {
  if (runningHere) return runningHere;
  const locks = options.locks === undefined ? globalThis.navigator?.locks : options.locks;
  const run = locks
    ? (locks.request(REPLAY_LOCK, { ifAvailable: true }, (lock) =>
        lock ? sendAll(options) : { done: 0, flagged: 0, stuck: 0, stopped: null, busy: true },
      ) as Promise<ReplayRound>)
    : sendAll(options);
  runningHere = run.finally(() => {
    runningHere = null;
  });
  return runningHere;
}
