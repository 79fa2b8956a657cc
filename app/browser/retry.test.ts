import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CircuitOpenError, errorFromResponse, NetworkError, NoFallbackError, TimeoutError } from "~/errors/classify";
import { backoffDelay, isRefusal, isTransientFailure, REQUEST_BACKOFF, withRetry } from "./retry";

describe("backoffDelay", () => {
  it("doubles from 1 s and adds up to 100 ms of jitter (the helper's policy)", () => {
    expect(REQUEST_BACKOFF).toEqual({ baseMs: 1000, multiplier: 2, capMs: 30000, jitterMs: 100 });
    expect(backoffDelay(0, REQUEST_BACKOFF, () => 0)).toBe(1000);
    expect(backoffDelay(0, REQUEST_BACKOFF, () => 0.999)).toBe(1099);
    expect(backoffDelay(1, REQUEST_BACKOFF, () => 0.5)).toBe(2050);
    expect(backoffDelay(2, REQUEST_BACKOFF, () => 0)).toBe(4000);
  });

  it("never waits longer than the cap, jitter included", () => {
    expect(backoffDelay(4, REQUEST_BACKOFF, () => 0.999)).toBe(16099);
    expect(backoffDelay(5, REQUEST_BACKOFF, () => 0.999)).toBe(30000);
    expect(backoffDelay(30, REQUEST_BACKOFF, () => 0)).toBe(30000);
  });
});

describe("isTransientFailure", () => {
  it.each<[string, unknown, boolean]>([
    ["a network failure", new NetworkError(), true],
    ["our time-out", new TimeoutError("Request timeout after 30000ms", null), true],
    ["the breaker's time-out", new TimeoutError("Circuit breaker timeout", null), true],
    ["a 408", errorFromResponse(408, "slow"), true],
    ["a 500", errorFromResponse(500, "boom"), true],
    ["a 503", errorFromResponse(503, "later"), true],
    ["a database outage, whatever its status", errorFromResponse(400, "DATABASE_ERROR"), true],
    [
      "no fallback after an outage",
      new NoFallbackError("GET /x", errorFromResponse(503, "Database unavailable")),
      true,
    ],
    ["a browser's fetch failure", new TypeError("Failed to fetch"), true],
    ["a foreign network error", new Error("NetworkError when attempting to fetch resource."), true],
    ["a foreign timeout", new Error("Socket timeout"), true],
    ["a 400", errorFromResponse(400, "Invalid barcode"), false],
    ["a 404 that mentions the network", errorFromResponse(404, "No such network"), false],
    ["a 401", errorFromResponse(401, "Sign in"), false],
    ["an open breaker", new CircuitOpenError("GET /x", 0), false],
    ["the caller giving up", new DOMException("This operation was aborted", "AbortError"), false],
    ["a bug", new TypeError("x is not a function"), false],
    ["a thrown string", "fetch failed", false],
  ])("%s → %s", (_, error, expected) => {
    expect(isTransientFailure(error)).toBe(expected);
  });
});

describe("isRefusal", () => {
  it.each<[unknown, boolean]>([
    [errorFromResponse(400, "x"), true],
    [errorFromResponse(404, "x"), true],
    [errorFromResponse(499, "x"), true],
    [errorFromResponse(408, "x"), false],
    [errorFromResponse(500, "x"), false],
    [new NetworkError(), false],
    [new Error("x"), false],
  ])("%o → %s", (error, expected) => {
    expect(isRefusal(error)).toBe(expected);
  });
});

describe("withRetry", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const backoff = REQUEST_BACKOFF;

  it("tries again after each transient failure, waiting longer each time", async () => {
    const attempt = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new NetworkError())
      .mockRejectedValueOnce(errorFromResponse(502, "bad gateway"))
      .mockResolvedValueOnce("done");
    const result = withRetry(attempt, { attempts: 3, backoff, random: () => 0 });
    await vi.advanceTimersByTimeAsync(999);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempt).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(attempt).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe("done");
  });

  it("gives up after the last attempt with the last error", async () => {
    const last = errorFromResponse(503, "third");
    const attempt = vi
      .fn<() => Promise<never>>()
      .mockRejectedValueOnce(new NetworkError())
      .mockRejectedValueOnce(new NetworkError())
      .mockRejectedValueOnce(last);
    const result = withRetry(attempt, { attempts: 3, backoff, random: () => 0 });
    const settled = expect(result).rejects.toBe(last);
    await vi.runAllTimersAsync();
    await settled;
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it("waits 1000 ms plus its jitter (at most 100 ms) before the first retry, then 2000 ms plus jitter", async () => {
    const attempt = vi.fn<() => Promise<string>>().mockRejectedValue(new NetworkError());
    const result = withRetry(attempt, { attempts: 3, backoff, random: () => 0.999 });
    const settled = expect(result).rejects.toBeInstanceOf(NetworkError);
    await vi.advanceTimersByTimeAsync(1098);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempt).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2098);
    expect(attempt).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempt).toHaveBeenCalledTimes(3);
    await settled;
  });

  it("doubles the wait until the 30 000 ms cap and never waits longer", async () => {
    const attempt = vi.fn<() => Promise<string>>().mockRejectedValue(new NetworkError());
    const result = withRetry(attempt, { attempts: 8, backoff, random: () => 0 });
    const settled = expect(result).rejects.toBeInstanceOf(NetworkError);
    // 1000, 2000, 4000, 8000, 16000, then 30000 (not 32000), then 30000 (not 64000).
    const waits = [1000, 2000, 4000, 8000, 16000, 30000, 30000];
    for (const [index, wait] of waits.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(attempt, `before retry ${index + 1}`).toHaveBeenCalledTimes(index + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempt, `at retry ${index + 1}`).toHaveBeenCalledTimes(index + 2);
    }
    await settled;
  });

  it("retries a 408 (the server timed out) but no other 4xx", async () => {
    const slow = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(errorFromResponse(408, "Request Timeout"))
      .mockResolvedValueOnce("done");
    const retried = withRetry(slow, { attempts: 3, backoff, random: () => 0 });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(retried).resolves.toBe("done");
    expect(slow).toHaveBeenCalledTimes(2);

    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      const refused = errorFromResponse(status, "refused");
      const attempt = vi.fn<() => Promise<never>>().mockRejectedValue(refused);
      const result = withRetry(attempt, { attempts: 3, backoff, random: () => 0 });
      const settled = expect(result, String(status)).rejects.toBe(refused);
      await vi.runAllTimersAsync();
      await settled;
      expect(attempt, String(status)).toHaveBeenCalledTimes(1);
    }
  });

  it("does not retry what cannot heal", async () => {
    const refusal = errorFromResponse(422, "Invalid lot");
    const attempt = vi.fn<() => Promise<never>>().mockRejectedValue(refusal);
    await expect(withRetry(attempt, { attempts: 3, backoff })).rejects.toBe(refusal);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it("stops waiting as soon as the caller gives up", async () => {
    const caller = new AbortController();
    const attempt = vi.fn<() => Promise<never>>().mockRejectedValue(new NetworkError());
    const result = withRetry(attempt, { attempts: 3, backoff, signal: caller.signal });
    const settled = expect(result).rejects.toBe("left the page");
    await vi.advanceTimersByTimeAsync(500);
    caller.abort("left the page");
    await settled;
    await vi.runAllTimersAsync();
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});
