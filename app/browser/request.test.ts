import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  CircuitOpenError,
  ClientError,
  DatabaseUnavailableError,
  NetworkError,
  NoFallbackError,
  ServerError,
  TimeoutError,
} from "~/errors/classify";
import { createApiClient, FALLBACK_LIFETIME_MS, queryPath, REQUEST_ATTEMPTS, REQUEST_TIMEOUT_MS } from "./request";

type Fetch = typeof globalThis.fetch;

const json = (data: unknown, status = 200) => new Response(JSON.stringify(data), { status });
const text = (body: string, status: number) => new Response(body, { status });
const DATABASE_DOWN = '{"error":"Database unavailable"}';

/** Like the browser's fetch, it only ever ends by being aborted. */
const hangingFetch: Fetch = (_, init) =>
  new Promise((_, reject) =>
    init?.signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError"))),
  );

/** Answers in turn, repeating the last answer; an Error is thrown as a fetch failure. */
function fakeFetch(...answers: (Response | Error | (() => Response))[]) {
  let index = 0;
  return vi.fn<Fetch>(async () => {
    const answer = answers[Math.min(index++, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    if (typeof answer === "function") return answer();
    return (answer as Response).clone();
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.UTC(2026, 0, 1, 8, 0, 0));
});
afterEach(() => vi.useRealTimers());

describe("a request", () => {
  it("sends the session cookie and a JSON body, and reads JSON back", async () => {
    const fetch = fakeFetch(json({ id: "vial_1" }, 201));
    const api = createApiClient({ fetch });
    await expect(api.request("POST", "/api/vials", { body: { lot: "A1" } })).resolves.toEqual({ id: "vial_1" });
    const [path, init] = fetch.mock.calls[0] ?? [];
    expect(path).toBe("/api/vials");
    expect(init).toMatchObject({
      method: "POST",
      credentials: "include",
      body: '{"lot":"A1"}',
      headers: { Accept: "application/json", "Content-Type": "application/json" },
    });
  });

  it("sends no body or content type without a body, and reads an empty answer as null", async () => {
    const fetch = fakeFetch(new Response(null, { status: 204 }));
    await expect(createApiClient({ fetch }).request("DELETE", "/api/x/1")).resolves.toBeNull();
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.body).toBeUndefined();
    expect(init?.headers).toEqual({ Accept: "application/json" });
  });

  it.each([
    [500, "Internal error", ServerError, "500: Internal error"],
    [408, "Too slow", TimeoutError, "408: Too slow"],
    [404, '{"error":"No such vial"}', ClientError, '404: {"error":"No such vial"}'],
  ])("turns a %i answer into the classified error", async (status, body, kind, message) => {
    const request = createApiClient({ fetch: fakeFetch(text(body, status)) }).request("GET", "/api/vials");
    await expect(request).rejects.toBeInstanceOf(kind);
    await expect(request).rejects.toThrow(message);
    await expect(request).rejects.toMatchObject({ status });
  });

  it("reports a failure to reach the server as 'Network request failed'", async () => {
    const cause = new TypeError("Failed to fetch");
    const request = createApiClient({ fetch: fakeFetch(cause) }).request("GET", "/api/vials");
    await expect(request).rejects.toBeInstanceOf(NetworkError);
    await expect(request).rejects.toThrow("Network request failed");
    await expect(request).rejects.toMatchObject({ cause });
  });

  it("gives up after 30 s by default", async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    const request = createApiClient({ fetch: hangingFetch }).request("GET", "/api/vials");
    const settled = expect(request).rejects.toThrow(new TimeoutError("Request timeout after 30000ms", null));
    await vi.advanceTimersByTimeAsync(29_999);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
  });

  it("honours a shorter time-out", async () => {
    const request = createApiClient({ fetch: hangingFetch }).request("GET", "/health", { timeoutMs: 5000 });
    const settled = expect(request).rejects.toThrow("Request timeout after 5000ms");
    await vi.advanceTimersByTimeAsync(5000);
    await settled;
  });

  it("passes the caller's abort on unchanged, and does not retry it", async () => {
    const fetch = vi.fn(hangingFetch);
    const caller = new AbortController();
    const request = createApiClient({ fetch }).request("GET", "/api/vials", { signal: caller.signal, retry: true });
    const settled = expect(request).rejects.toBe("cancelled");
    caller.abort("cancelled");
    await settled;
    await vi.runAllTimersAsync();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("retry", () => {
  it("is off unless asked for", async () => {
    const fetch = fakeFetch(text("down", 503));
    await expect(createApiClient({ fetch }).request("GET", "/api/vials")).rejects.toBeInstanceOf(ServerError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("sends the caller's headers with every attempt: a write's Idempotency-Key is the same on each retry", async () => {
    const fetch = fakeFetch(text("down", 503), json({ vial: { id: "v1" } }));
    const request = createApiClient({ fetch, random: () => 0 }).request("POST", "/api/vials/v1/start", {
      body: {},
      retry: true,
      headers: { "Idempotency-Key": "key-12345678" },
    });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(request).resolves.toEqual({ vial: { id: "v1" } });
    expect(fetch.mock.calls.map(([, init]) => init?.headers)).toEqual([
      { "Idempotency-Key": "key-12345678", Accept: "application/json", "Content-Type": "application/json" },
      { "Idempotency-Key": "key-12345678", Accept: "application/json", "Content-Type": "application/json" },
    ]);
  });

  it("makes 3 attempts, 1 s then 2 s apart plus jitter", async () => {
    expect(REQUEST_ATTEMPTS).toBe(3);
    const fetch = fakeFetch(text("down", 503));
    const request = createApiClient({ fetch, random: () => 0.5 }).request("GET", "/api/vials", { retry: true });
    const settled = expect(request).rejects.toBeInstanceOf(ServerError);
    await vi.advanceTimersByTimeAsync(1049);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2049);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(3);
    await settled;
    await vi.runAllTimersAsync();
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it.each([
    ["a network failure", new TypeError("Failed to fetch")],
    ["a 500", text("boom", 500)],
    ["a 408", text("slow", 408)],
    ["a database outage", text(DATABASE_DOWN, 503)],
  ])("recovers from %s", async (_, failure) => {
    const fetch = fakeFetch(failure, json(["vial"]));
    const request = createApiClient({ fetch, random: () => 0 }).request("GET", "/api/vials", { retry: true });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(request).resolves.toEqual(["vial"]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("recovers from a time-out", async () => {
    const fetch = vi.fn<Fetch>(hangingFetch).mockImplementationOnce(hangingFetch).mockResolvedValueOnce(json([]));
    const request = createApiClient({ fetch, random: () => 0 }).request("GET", "/api/vials", {
      retry: true,
      timeoutMs: 5000,
    });
    await vi.advanceTimersByTimeAsync(5000 + 1000);
    await expect(request).resolves.toEqual([]);
  });

  it.each([400, 401, 403, 404, 409, 422])("never repeats a %i", async (status) => {
    const fetch = fakeFetch(text("no", status));
    await expect(createApiClient({ fetch }).request("POST", "/api/x", { retry: true })).rejects.toBeInstanceOf(
      ClientError,
    );
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("circuit breaker", () => {
  it("is off unless asked for", async () => {
    const fetch = fakeFetch(text("down", 500));
    const api = createApiClient({ fetch });
    for (let i = 0; i < 7; i++) await api.request("GET", "/api/vials").catch(() => {});
    expect(fetch).toHaveBeenCalledTimes(7);
  });

  it("opens per method and path after 5 failures, then half-opens after 60 s", async () => {
    const fetch = fakeFetch(text("down", 500));
    const api = createApiClient({ fetch });
    for (let i = 0; i < 5; i++) await api.request("GET", "/api/vials", { breaker: true }).catch(() => {});
    const refused = api.request("GET", "/api/vials", { breaker: true });
    await expect(refused).rejects.toBeInstanceOf(CircuitOpenError);
    await expect(refused).rejects.toThrow(
      "Circuit breaker open for GET /api/vials. Next attempt at 2026-01-01T08:01:00.000Z",
    );
    expect(fetch).toHaveBeenCalledTimes(5);

    fetch.mockResolvedValueOnce(json([]));
    await expect(api.request("GET", "/api/products", { breaker: true })).resolves.toEqual([]);

    await vi.advanceTimersByTimeAsync(60_000);
    fetch.mockResolvedValueOnce(json(["vial"]));
    await expect(api.request("GET", "/api/vials", { breaker: true })).resolves.toEqual(["vial"]);
  });

  it("with retry, an open breaker stops the remaining attempts", async () => {
    const fetch = fakeFetch(text("down", 500));
    const api = createApiClient({ fetch, random: () => 0 });
    for (let i = 0; i < 4; i++) await api.request("GET", "/api/vials", { breaker: true }).catch(() => {});
    const request = api.request("GET", "/api/vials", { breaker: true, retry: true });
    const settled = expect(request).rejects.toBeInstanceOf(CircuitOpenError);
    await vi.runAllTimersAsync();
    await settled;
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it("limits a call to the request time-out", async () => {
    // The headers arrive but the body never does, and this body ignores the abort.
    const stalled = { status: 200, ok: true, text: () => new Promise<string>(() => {}) } as unknown as Response;
    const api = createApiClient({ fetch: fakeFetch(() => stalled) });
    const request = api.request("GET", "/api/vials", { breaker: true, timeoutMs: 1000 });
    const settled = expect(request).rejects.toThrow(new TimeoutError("Circuit breaker timeout", null));
    await vi.advanceTimersByTimeAsync(1000);
    await settled;
  });
});

describe("fallback when the database is down", () => {
  it("answers a GET from its last good copy", async () => {
    const fetch = fakeFetch(json(["vial 1"]), text(DATABASE_DOWN, 503));
    const api = createApiClient({ fetch });
    await api.request("GET", "/api/vials?locationId=a");
    await vi.advanceTimersByTimeAsync(FALLBACK_LIFETIME_MS - 1);
    await expect(api.request("GET", "/api/vials?locationId=a")).resolves.toEqual(["vial 1"]);
  });

  it("keeps copies for 5 minutes only", async () => {
    expect(FALLBACK_LIFETIME_MS).toBe(300_000);
    const fetch = fakeFetch(json(["vial 1"]), text(DATABASE_DOWN, 503));
    const api = createApiClient({ fetch });
    await api.request("GET", "/api/vials");
    await vi.advanceTimersByTimeAsync(FALLBACK_LIFETIME_MS);
    const request = api.request("GET", "/api/vials");
    await expect(request).rejects.toBeInstanceOf(NoFallbackError);
    await expect(request).rejects.toThrow(
      'GET /api/vials failed and no fallback available: Database connectivity issue: {"error":"Database unavailable"}',
    );
    await expect(request).rejects.toMatchObject({ cause: expect.any(DatabaseUnavailableError) });
  });

  it("never mixes up paths or covers other failures", async () => {
    const fetch = fakeFetch(json(["location a"]), text(DATABASE_DOWN, 503), text("boom", 500));
    const api = createApiClient({ fetch });
    await api.request("GET", "/api/vials?locationId=a");
    await expect(api.request("GET", "/api/vials?locationId=b")).rejects.toBeInstanceOf(NoFallbackError);
    await expect(api.request("GET", "/api/vials?locationId=a")).rejects.toBeInstanceOf(ServerError);
  });

  it("has nothing to offer for a write", async () => {
    const fetch = fakeFetch(text("Database connection required", 503));
    const request = createApiClient({ fetch }).request("POST", "/api/vials", { body: {} });
    await expect(request).rejects.toThrow(
      "POST /api/vials failed and no fallback available: Database connectivity issue",
    );
  });

  it("forgets every copy on request", async () => {
    const fetch = fakeFetch(json(["vial 1"]), text(DATABASE_DOWN, 503));
    const api = createApiClient({ fetch });
    await api.request("GET", "/api/vials");
    api.forgetFallbackData();
    await expect(api.request("GET", "/api/vials")).rejects.toBeInstanceOf(NoFallbackError);
  });
});

describe("queryPath", () => {
  it.each<[readonly unknown[], string]>([
    [["/api/vials"], "/api/vials"],
    [["/api/dashboard/stats"], "/api/dashboard/stats"],
    [["/api/vials", "loc_1"], "/api/vials/loc_1"],
    [["/api/products", 42, "variations"], "/api/products/42/variations"],
    [["/api/vials", undefined], "/api/vials"],
    [["/api/vials", null, "x"], "/api/vials/x"],
    [["/api/vials", "a/b c"], "/api/vials/a%2Fb%20c"],
    [["/api/vials", { locationId: "loc_1", state: undefined }], "/api/vials?locationId=loc_1"],
    [["api", "transfers"], "/api/transfers"],
  ])("%o → %s", (key, path) => {
    expect(queryPath(key)).toBe(path);
  });
});
