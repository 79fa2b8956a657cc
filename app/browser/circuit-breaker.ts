// One circuit breaker per operation (spec sections 4 and 9): after 5 failures in a row the operation
// fails fast for 60 s, then one trial call decides whether it closes again.
import { CircuitOpenError, TimeoutError } from "~/errors/classify";
import { isTransientFailure } from "./retry";

export type BreakerState = "closed" | "open" | "half-open";

export const BREAKER_FAILURE_THRESHOLD = 5;
export const BREAKER_RESET_MS = 60_000;

interface Circuit {
  state: BreakerState;
  failures: number;
  nextAttemptAt: number;
  trialRunning: boolean;
}

export interface CircuitBreakers {
  stateOf(operation: string): BreakerState;
  /** Runs `call` through the operation's breaker, failing it with 'Circuit breaker timeout' after `limitMs`. */
  run<T>(operation: string, call: () => Promise<T>, limitMs: number): Promise<T>;
}

/** Told of every change of an operation's state, e.g. so the banner can say when the server is tried again. */
export type BreakerListener = (operation: string, state: BreakerState, nextAttemptAt: number | null) => void;

export function createCircuitBreakers({
  now = Date.now,
  onChange = () => {},
}: {
  now?: () => number;
  onChange?: BreakerListener;
} = {}): CircuitBreakers {
  // Only operations that are failing are kept; a success forgets the operation.
  const circuits = new Map<string, Circuit>();

  function forget(operation: string) {
    const circuit = circuits.get(operation);
    circuits.delete(operation);
    if (circuit && circuit.state !== "closed") onChange(operation, "closed", null);
  }

  function admit(operation: string): Circuit {
    const circuit = circuits.get(operation) ?? { state: "closed", failures: 0, nextAttemptAt: 0, trialRunning: false };
    circuits.set(operation, circuit);
    if (circuit.state === "open" && now() >= circuit.nextAttemptAt) {
      circuit.state = "half-open";
      onChange(operation, "half-open", circuit.nextAttemptAt);
    }
    // While open, and while the one half-open trial is out, everyone else fails fast.
    if (circuit.state === "open" || circuit.trialRunning) throw new CircuitOpenError(operation, circuit.nextAttemptAt);
    circuit.trialRunning = circuit.state === "half-open";
    return circuit;
  }

  function recordFailure(operation: string, circuit: Circuit) {
    circuit.failures += 1;
    if (circuit.state === "half-open" || circuit.failures >= BREAKER_FAILURE_THRESHOLD) {
      circuit.state = "open";
      circuit.nextAttemptAt = now() + BREAKER_RESET_MS;
      onChange(operation, "open", circuit.nextAttemptAt);
    }
  }

  return {
    stateOf(operation) {
      const circuit = circuits.get(operation);
      if (!circuit) return "closed";
      return circuit.state === "open" && now() >= circuit.nextAttemptAt ? "half-open" : circuit.state;
    },

    async run(operation, call, limitMs) {
      const circuit = admit(operation);
      try {
        const result = await withinLimit(call, limitMs);
        forget(operation);
        return result;
      } catch (error) {
        // A refusal or a bug still proves the server answered; only outages count against it.
        if (isTransientFailure(error)) recordFailure(operation, circuit);
        else forget(operation);
        throw error;
      } finally {
        circuit.trialRunning = false;
      }
    },
  };
}

/** The call starts before the limit's timer, so a request's own equal time-out reports first. */
async function withinLimit<T>(call: () => Promise<T>, limitMs: number): Promise<T> {
  const pending = call();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError("Circuit breaker timeout", null)), limitMs);
  });
  try {
    return await Promise.race([pending, limit]);
  } finally {
    clearTimeout(timer);
  }
}
