import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CircuitOpenError, errorFromResponse, NetworkError, TimeoutError } from "~/errors/classify";
import { BREAKER_FAILURE_THRESHOLD, BREAKER_RESET_MS, createCircuitBreakers } from "./circuit-breaker";
import { REQUEST_TIMEOUT_MS } from "./request";

const OPERATION = "GET /api/vials";
const LIMIT_MS = 30_000;
const failing = () => Promise.reject(new NetworkError());
const working = () => Promise.resolve("ok");

describe("circuit breaker", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 0, 1, 8, 0, 0));
  });
  afterEach(() => vi.useRealTimers());

  async function trip(breakers: ReturnType<typeof createCircuitBreakers>) {
    for (let i = 0; i < BREAKER_FAILURE_THRESHOLD; i++) {
      await expect(breakers.run(OPERATION, failing, LIMIT_MS)).rejects.toBeInstanceOf(NetworkError);
    }
  }

  it("opens after 5 failures in a row and then fails fast, saying when it will try again", async () => {
    expect(BREAKER_FAILURE_THRESHOLD).toBe(5);
    expect(BREAKER_RESET_MS).toBe(60_000);
    const breakers = createCircuitBreakers();
    for (let i = 0; i < 4; i++) await breakers.run(OPERATION, failing, LIMIT_MS).catch(() => {});
    expect(breakers.stateOf(OPERATION)).toBe("closed");
    await breakers.run(OPERATION, failing, LIMIT_MS).catch(() => {});
    expect(breakers.stateOf(OPERATION)).toBe("open");

    const call = vi.fn(working);
    const refused = breakers.run(OPERATION, call, LIMIT_MS);
    await expect(refused).rejects.toBeInstanceOf(CircuitOpenError);
    await expect(refused).rejects.toThrow(
      "Circuit breaker open for GET /api/vials. Next attempt at 2026-01-01T08:01:00.000Z",
    );
    expect(call).not.toHaveBeenCalled();
  });

  it("counts failures per operation and forgets them after a success", async () => {
    const breakers = createCircuitBreakers();
    for (let i = 0; i < 4; i++) await breakers.run(OPERATION, failing, LIMIT_MS).catch(() => {});
    await breakers.run(OPERATION, working, LIMIT_MS);
    for (let i = 0; i < 4; i++) await breakers.run(OPERATION, failing, LIMIT_MS).catch(() => {});
    expect(breakers.stateOf(OPERATION)).toBe("closed");
    await breakers.run(OPERATION, failing, LIMIT_MS).catch(() => {});
    expect(breakers.stateOf(OPERATION)).toBe("open");
    expect(breakers.stateOf("GET /api/products")).toBe("closed");
    await expect(breakers.run("GET /api/products", working, LIMIT_MS)).resolves.toBe("ok");
  });

  it("does not count refusals: the server answered", async () => {
    const breakers = createCircuitBreakers();
    const refused = () => Promise.reject(errorFromResponse(404, "No such vial"));
    for (let i = 0; i < 10; i++) await breakers.run(OPERATION, refused, LIMIT_MS).catch(() => {});
    expect(breakers.stateOf(OPERATION)).toBe("closed");
  });

  it("after 60 s lets one trial through; success closes it", async () => {
    const breakers = createCircuitBreakers();
    await trip(breakers);
    vi.advanceTimersByTime(BREAKER_RESET_MS - 1);
    await expect(breakers.run(OPERATION, working, LIMIT_MS)).rejects.toBeInstanceOf(CircuitOpenError);
    vi.advanceTimersByTime(1);
    expect(breakers.stateOf(OPERATION)).toBe("half-open");

    let finishTrial: (value: string) => void = () => {};
    const trial = breakers.run(OPERATION, () => new Promise<string>((resolve) => (finishTrial = resolve)), LIMIT_MS);
    await expect(breakers.run(OPERATION, working, LIMIT_MS)).rejects.toBeInstanceOf(CircuitOpenError);
    finishTrial("back");
    await expect(trial).resolves.toBe("back");
    expect(breakers.stateOf(OPERATION)).toBe("closed");
    await expect(breakers.run(OPERATION, working, LIMIT_MS)).resolves.toBe("ok");
  });

  it("a failed trial opens it for another 60 s", async () => {
    const breakers = createCircuitBreakers();
    await trip(breakers);
    vi.advanceTimersByTime(BREAKER_RESET_MS);
    await expect(breakers.run(OPERATION, failing, LIMIT_MS)).rejects.toBeInstanceOf(NetworkError);
    expect(breakers.stateOf(OPERATION)).toBe("open");
    await expect(breakers.run(OPERATION, working, LIMIT_MS)).rejects.toThrow(
      "Next attempt at 2026-01-01T08:02:00.000Z",
    );
  });

  it("gives a call exactly its limit, the request time-out of 30 000 ms", async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    const breakers = createCircuitBreakers();
    let finish: (value: string) => void = () => {};
    const inTime = breakers.run(
      OPERATION,
      () => new Promise<string>((resolve) => (finish = resolve)),
      REQUEST_TIMEOUT_MS,
    );
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    finish("just in time");
    await expect(inTime).resolves.toBe("just in time");

    const late = breakers.run(OPERATION, () => new Promise<never>(() => {}), REQUEST_TIMEOUT_MS);
    let settled = false;
    late.catch(() => {}).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(late).rejects.toThrow("Circuit breaker timeout");
  });

  it("fails fast for the whole 60 000 ms without calling, then lets exactly one trial through", async () => {
    const breakers = createCircuitBreakers();
    await trip(breakers);
    const call = vi.fn(working);
    for (const elapsed of [0, 1, 30_000, 59_999]) {
      vi.setSystemTime(Date.UTC(2026, 0, 1, 8, 0, 0) + elapsed);
      await expect(breakers.run(OPERATION, call, LIMIT_MS), `at +${elapsed} ms`).rejects.toBeInstanceOf(
        CircuitOpenError,
      );
      expect(breakers.stateOf(OPERATION)).toBe("open");
    }
    expect(call).not.toHaveBeenCalled();
    vi.setSystemTime(Date.UTC(2026, 0, 1, 8, 0, 0) + BREAKER_RESET_MS);
    expect(breakers.stateOf(OPERATION)).toBe("half-open");
    await expect(breakers.run(OPERATION, call, LIMIT_MS)).resolves.toBe("ok");
    expect(call).toHaveBeenCalledTimes(1);
    expect(breakers.stateOf(OPERATION)).toBe("closed");
  });

  it("fails a call slower than the limit with 'Circuit breaker timeout', which counts", async () => {
    const breakers = createCircuitBreakers();
    const never = () => new Promise<never>(() => {});
    for (let i = 0; i < BREAKER_FAILURE_THRESHOLD; i++) {
      const slow = breakers.run(OPERATION, never, LIMIT_MS);
      const settled = expect(slow).rejects.toThrow(new TimeoutError("Circuit breaker timeout", null));
      await vi.advanceTimersByTimeAsync(LIMIT_MS);
      await settled;
    }
    expect(breakers.stateOf(OPERATION)).toBe("open");
  });
});
