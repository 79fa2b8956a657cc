// Backoff and the "is this worth another try" rules, shared by the HTTP helper and the query client
// (spec section 9) so both wait and give up the same way.
import { CircuitOpenError, NoFallbackError, RequestError, statusOf } from "~/errors/classify";

export interface Backoff {
  baseMs: number;
  multiplier: number;
  capMs: number;
  /** Up to this many random milliseconds added, so clients that failed together do not retry together. */
  jitterMs: number;
}

/** The generic helper's backoff. */
export const REQUEST_BACKOFF: Backoff = { baseMs: 1_000, multiplier: 2, capMs: 30_000, jitterMs: 100 };

/** Delay before retry number `retryIndex + 1` (0-based: the first retry waits about baseMs). */
export function backoffDelay(retryIndex: number, backoff: Backoff, random: () => number = Math.random): number {
  const exponential = backoff.baseMs * backoff.multiplier ** retryIndex;
  return Math.min(exponential + Math.floor(random() * backoff.jitterMs), backoff.capMs);
}

const TRANSIENT_WORDS = /fetch|network|timeout/i;

/**
 * Failures that may heal by themselves: network, time-out, 5xx and database outages. Our own errors
 * are judged by their type and status; only foreign errors (a browser's "Failed to fetch") by their
 * words, so a 404 whose body says "network" is not retried. An open breaker is not: it said when.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof CircuitOpenError) return false;
  if (error instanceof NoFallbackError) return isTransientFailure(error.cause);
  if (error instanceof RequestError) {
    const { status } = error;
    return status === null || status >= 500 || status === 408 || error.name === "DatabaseUnavailableError";
  }
  return error instanceof Error && TRANSIENT_WORDS.test(`${error.name} ${error.message}`);
}

/** 4xx answers other than 408: the server understood and refused, so asking again changes nothing. */
export function isRefusal(error: unknown): boolean {
  const status = statusOf(error);
  return status !== null && status >= 400 && status < 500 && status !== 408;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as the caller gives up. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Runs `attempt` up to `attempts` times, pausing with backoff between transient failures. */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  {
    attempts,
    backoff,
    random = Math.random,
    signal,
  }: { attempts: number; backoff: Backoff; random?: () => number; signal?: AbortSignal },
): Promise<T> {
  for (let retryIndex = 0; ; retryIndex++) {
    try {
      return await attempt();
    } catch (error) {
      if (retryIndex + 1 >= attempts || !isTransientFailure(error) || signal?.aborted) throw error;
      await pause(backoffDelay(retryIndex, backoff, random), signal);
    }
  }
}
