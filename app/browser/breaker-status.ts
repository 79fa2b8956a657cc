// What the app's circuit breakers mean for the person at the screen (spec sections 4 and 9): the
// banner says when the server is not answering and when it will be tried again. Framework-free, so
// React reads it with useSyncExternalStore like the connectivity store.
import type { BreakerListener, BreakerState } from "./circuit-breaker";
import { createStore, type Store } from "./store";

export interface BreakerStatus {
  /** Open if any operation's breaker is open, else half-open if one is trying again, else closed. */
  state: BreakerState;
  /** The operation that state is about, e.g. "GET /health". */
  operation: string | null;
  /** When an open breaker lets the next trial through (epoch ms). */
  nextAttemptAt: number | null;
}

const CLOSED: BreakerStatus = { state: "closed", operation: null, nextAttemptAt: null };
const RANK: Record<BreakerState, number> = { closed: 0, "half-open": 1, open: 2 };

export interface BreakerStatusStore extends Store<BreakerStatus> {
  /** The breakers' listener: one operation changed state. */
  record: BreakerListener;
}

export function createBreakerStatusStore(): BreakerStatusStore {
  const circuits = new Map<string, BreakerStatus>();
  const store = createStore(CLOSED);

  function worst(): BreakerStatus {
    let found = CLOSED;
    for (const status of circuits.values()) {
      const later = status.state === found.state && (status.nextAttemptAt ?? 0) > (found.nextAttemptAt ?? 0);
      if (RANK[status.state] > RANK[found.state] || later) found = status;
    }
    return found;
  }

  return {
    subscribe: store.subscribe,
    getSnapshot: store.getSnapshot,
    getServerSnapshot: store.getServerSnapshot,
    record(operation, state, nextAttemptAt) {
      if (state === "closed") circuits.delete(operation);
      else circuits.set(operation, { state, operation, nextAttemptAt });
      store.set(worst());
    },
  };
}

/** The app's one store, fed by the app's breakers (./request). */
export const breakerStatus = createBreakerStatusStore();
