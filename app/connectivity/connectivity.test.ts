import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBreakerStatusStore } from "~/browser/breaker-status";
import { BREAKER_RESET_MS, createCircuitBreakers } from "~/browser/circuit-breaker";
import {
  type Connectivity,
  createConnectivityStore,
  DEGRADED_MODE_WARNING,
  HEALTH_CHECK_INTERVAL_MS,
  HEALTH_CHECK_TIMEOUT_MS,
  HEALTH_OPERATION,
  startConnectivityMonitor,
} from "./connectivity";

type Fetch = typeof globalThis.fetch;

const healthy = () => Promise.resolve(new Response('{"status":"ok"}', { status: 200 }));
const degraded = () => Promise.resolve(new Response('{"status":"degraded"}', { status: 503 }));
const unreachable = () => Promise.reject(new TypeError("Failed to fetch"));
/** Like the browser's fetch: it only ends by being aborted. */
const silent: Fetch = (_, init) =>
  new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("", "AbortError"))));

function setup(fetch: Fetch, onRestored: () => unknown = () => {}) {
  const store = createConnectivityStore();
  const events = new EventTarget();
  const seen: Connectivity[] = [];
  store.subscribe(() => seen.push(store.getSnapshot()));
  const health = vi.fn(fetch);
  const stop = startConnectivityMonitor({ fetch: health, onRestored, events, store });
  return { store, events, seen, health, stop };
}

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.useFakeTimers();
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("connectivity monitor", () => {
  it("checks GET /health every 30 s, fresh each time", async () => {
    expect(HEALTH_CHECK_INTERVAL_MS).toBe(30_000);
    const { health, store, stop } = setup(healthy);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(health).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(health).toHaveBeenCalledWith("/health", expect.objectContaining({ cache: "no-store" }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(health).toHaveBeenCalledTimes(3);
    expect(store.getSnapshot()).toBe("online");
    stop();
  });

  it.each([
    ["unreachable", unreachable],
    ["answering 503", degraded],
  ])("goes offline when the server is %s, warning once", async (_, fetch) => {
    const { store, stop } = setup(fetch);
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(store.getSnapshot()).toBe("offline");
    await vi.advanceTimersByTimeAsync(3 * HEALTH_CHECK_INTERVAL_MS);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(DEGRADED_MODE_WARNING);
    stop();
  });

  it("gives a check 5 s to answer", async () => {
    expect(HEALTH_CHECK_TIMEOUT_MS).toBe(5_000);
    const { store, stop } = setup(silent);
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS + 4_999);
    expect(store.getSnapshot()).toBe("online");
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getSnapshot()).toBe("offline");
    stop();
  });

  it("comes back through 'restored', refreshing data before settling online", async () => {
    let finishRefresh: () => void = () => {};
    const onRestored = vi.fn(() => new Promise<void>((resolve) => (finishRefresh = resolve)));
    const fetch = vi.fn<Fetch>(unreachable).mockImplementationOnce(unreachable).mockImplementation(healthy);
    const { store, seen, stop } = setup(fetch, onRestored);
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(store.getSnapshot()).toBe("offline");
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(store.getSnapshot()).toBe("restored");
    expect(onRestored).toHaveBeenCalledTimes(1);
    finishRefresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(["offline", "restored", "online"]);
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(onRestored).toHaveBeenCalledTimes(1);
    stop();
  });

  it("settles online even if the refresh fails", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { store, events, stop } = setup(healthy, () => Promise.reject(new Error("refetch failed")));
    events.dispatchEvent(new Event("offline"));
    events.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getSnapshot()).toBe("online");
    expect(error).toHaveBeenCalledTimes(1);
    stop();
  });

  it("believes the browser's offline event at once, but checks the server on 'online'", async () => {
    let reachable = false;
    const { store, events, health, seen, stop } = setup(() => (reachable ? healthy() : unreachable()));
    events.dispatchEvent(new Event("offline"));
    expect(store.getSnapshot()).toBe("offline");
    expect(warn).toHaveBeenCalledTimes(1);

    events.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    expect(health).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toBe("offline");

    reachable = true;
    events.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(["offline", "restored", "online"]);
    stop();
  });

  it("warns again each time it newly enters degraded mode", async () => {
    const { events, stop } = setup(healthy);
    events.dispatchEvent(new Event("offline"));
    events.dispatchEvent(new Event("offline"));
    events.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    events.dispatchEvent(new Event("offline"));
    expect(warn).toHaveBeenCalledTimes(2);
    stop();
  });

  it("stops checking and listening when stopped, dropping a check in flight", async () => {
    const { store, events, health, stop } = setup(silent);
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(health).toHaveBeenCalledTimes(1);
    stop();
    await vi.advanceTimersByTimeAsync(10 * HEALTH_CHECK_INTERVAL_MS);
    events.dispatchEvent(new Event("offline"));
    expect(health).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toBe("online");
  });

  it("imports and runs on the server, where there are no browser events", () => {
    const stop = startConnectivityMonitor({ fetch: vi.fn<Fetch>(healthy), store: createConnectivityStore() });
    stop();
  });
});

describe("connectivity store", () => {
  it("notifies on change only, and renders online on the server", () => {
    const store = createConnectivityStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.set("online");
    expect(listener).not.toHaveBeenCalled();
    store.set("offline");
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getServerSnapshot()).toBe("online");
    unsubscribe();
    store.set("online");
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("connectivity monitor through its circuit breaker", () => {
  it("stops asking after 5 failed checks, tries once more 60 s later, and closes when that trial is answered", async () => {
    vi.setSystemTime(Date.UTC(2026, 10, 27, 9, 0, 0));
    const statuses = createBreakerStatusStore();
    const breakers = createCircuitBreakers({ onChange: statuses.record });
    let answer: Fetch = degraded;
    const health = vi.fn<Fetch>((input, init) => answer(input, init));
    const store = createConnectivityStore();
    const stop = startConnectivityMonitor({ fetch: health, events: new EventTarget(), store, breakers });

    // Checks at 30, 60, 90, 120 s fail and the breaker stays closed; the fifth, at 150 s, opens it.
    await vi.advanceTimersByTimeAsync(4 * HEALTH_CHECK_INTERVAL_MS);
    expect(health).toHaveBeenCalledTimes(4);
    expect(statuses.getSnapshot().state).toBe("closed");
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(health).toHaveBeenCalledTimes(5);
    const opened = Date.UTC(2026, 10, 27, 9, 2, 30);
    expect(statuses.getSnapshot()).toEqual({
      state: "open",
      operation: HEALTH_OPERATION,
      nextAttemptAt: opened + BREAKER_RESET_MS,
    });
    expect(store.getSnapshot()).toBe("offline");

    // The check at 180 s fails fast: the server is not asked.
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(health).toHaveBeenCalledTimes(5);
    // At 210 s, 60 s after it opened, one trial goes through; it fails, so it opens for 60 s more.
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(health).toHaveBeenCalledTimes(6);
    expect(statuses.getSnapshot().state).toBe("open");
    expect(statuses.getSnapshot().nextAttemptAt).toBe(opened + 60_000 + BREAKER_RESET_MS);

    // The server is back: the next trial (at 270 s) closes the breaker and the app is online again.
    answer = healthy;
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(health).toHaveBeenCalledTimes(6);
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS);
    expect(health).toHaveBeenCalledTimes(7);
    expect(statuses.getSnapshot()).toEqual({ state: "closed", operation: null, nextAttemptAt: null });
    expect(store.getSnapshot()).toBe("online");
    stop();
  });

  it("shows half-open while the one trial is out", async () => {
    const statuses = createBreakerStatusStore();
    const breakers = createCircuitBreakers({ onChange: statuses.record });
    const seen: string[] = [];
    statuses.subscribe(() => seen.push(statuses.getSnapshot().state));
    const stop = startConnectivityMonitor({ fetch: silent, events: new EventTarget(), breakers, timeoutMs: 5_000 });
    // Five checks that time out (5 s each) open it at 155 s; the checks at 180 and 210 s fail fast;
    // the one at 240 s is the trial, and it hangs until its time-out.
    await vi.advanceTimersByTimeAsync(5 * HEALTH_CHECK_INTERVAL_MS + HEALTH_CHECK_TIMEOUT_MS);
    expect(seen).toEqual(["open"]);
    await vi.advanceTimersByTimeAsync(2 * HEALTH_CHECK_INTERVAL_MS);
    expect(seen).toEqual(["open"]);
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_INTERVAL_MS - HEALTH_CHECK_TIMEOUT_MS);
    expect(statuses.getSnapshot().state).toBe("half-open");
    await vi.advanceTimersByTimeAsync(HEALTH_CHECK_TIMEOUT_MS);
    expect(seen).toEqual(["open", "half-open", "open"]);
    stop();
  });
});

describe("connectivity monitor started with no network", () => {
  it("is offline at once when the browser already knows it has no network (a page reloaded offline)", () => {
    vi.stubGlobal("navigator", { onLine: false });
    try {
      const store = createConnectivityStore();
      const stop = startConnectivityMonitor({ fetch: healthy, events: new EventTarget(), store });
      expect(store.getSnapshot()).toBe("offline");
      stop();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
