// The one helper for browser calls to our JSON API (spec sections 7 and 9): cookie credentials,
// a time-out, typed errors, and on request a retry and a circuit breaker. When the database is down,
// a GET answers from its last good copy for up to 5 minutes.
import {
  DatabaseUnavailableError,
  errorFromResponse,
  NetworkError,
  NoFallbackError,
  TimeoutError,
} from "~/errors/classify";
import { breakerStatus } from "./breaker-status";
import { type CircuitBreakers, createCircuitBreakers } from "./circuit-breaker";
import { REQUEST_BACKOFF, withRetry } from "./retry";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  timeoutMs?: number;
  /** Up to 3 attempts with backoff on transient failures. */
  retry?: boolean;
  /** Fail fast while this method and path keep failing. */
  breaker?: boolean;
  /** The caller giving up (e.g. TanStack Query cancelling); its abort is passed on unchanged. */
  signal?: AbortSignal;
  /** Sent with every attempt, e.g. the Idempotency-Key of a write: the same key on each retry. */
  headers?: Record<string, string>;
}

export const REQUEST_TIMEOUT_MS = 30_000;
export const REQUEST_ATTEMPTS = 3;
export const FALLBACK_LIFETIME_MS = 300_000;

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  /** Drop every saved answer, e.g. when the user changes, so nobody sees another user's data. */
  forgetFallbackData(): void;
}

export function createApiClient({
  fetch = (input, init) => globalThis.fetch(input, init),
  now = Date.now,
  random = Math.random,
  breakers = createCircuitBreakers({ now }),
}: {
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  random?: () => number;
  breakers?: CircuitBreakers;
} = {}): ApiClient {
  const lastGood = new Map<string, { data: unknown; savedAt: number }>();

  function remember(operation: string, data: unknown) {
    for (const [key, entry] of lastGood) if (now() - entry.savedAt >= FALLBACK_LIFETIME_MS) lastGood.delete(key);
    lastGood.set(operation, { data, savedAt: now() });
  }

  function recall(operation: string) {
    const entry = lastGood.get(operation);
    return entry && now() - entry.savedAt < FALLBACK_LIFETIME_MS ? entry : undefined;
  }

  async function send<T>(method: HttpMethod, path: string, options: RequestOptions, timeoutMs: number): Promise<T> {
    const { status, ok, text } = await exchange(fetch, method, path, options, timeoutMs);
    if (!ok) throw errorFromResponse(status, text);
    return (text ? JSON.parse(text) : null) as T;
  }

  return {
    async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
      const operation = `${method} ${path}`;
      const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
      const attempt = () =>
        options.breaker
          ? breakers.run(operation, () => send<T>(method, path, options, timeoutMs), timeoutMs)
          : send<T>(method, path, options, timeoutMs);
      try {
        const data = options.retry
          ? await withRetry(attempt, {
              attempts: REQUEST_ATTEMPTS,
              backoff: REQUEST_BACKOFF,
              random,
              signal: options.signal,
            })
          : await attempt();
        if (method === "GET") remember(operation, data);
        return data;
      } catch (error) {
        if (!(error instanceof DatabaseUnavailableError)) throw error;
        const saved = recall(operation);
        if (saved) return saved.data as T;
        throw new NoFallbackError(operation, error);
      }
    },

    forgetFallbackData() {
      lastGood.clear();
    },
  };
}

/** One fetch and its body, with failures to connect or to finish in time made into our errors. */
async function exchange(
  fetch: typeof globalThis.fetch,
  method: HttpMethod,
  path: string,
  { body, signal, headers }: RequestOptions,
  timeoutMs: number,
): Promise<{ status: number; ok: boolean; text: string }> {
  signal?.throwIfAborted();
  const controller = new AbortController();
  const passOnAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", passOnAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const response = await fetch(path, {
      method,
      credentials: "include",
      headers: {
        ...headers,
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    return { status: response.status, ok: response.ok, text: await response.text() };
  } catch (error) {
    if (timedOut) throw new TimeoutError(`Request timeout after ${timeoutMs}ms`, null);
    if (signal?.aborted) throw signal.reason;
    throw new NetworkError({ cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", passOnAbort);
  }
}

/** The app's breakers: its calls and the connectivity monitor's checks, watched by the banner. */
export const appBreakers: CircuitBreakers = createCircuitBreakers({ onChange: breakerStatus.record });

let sharedClient: ApiClient | undefined;

/** The app's calls all share one client, so breakers and saved answers are shared too. */
function shared(): ApiClient {
  sharedClient ??= createApiClient({ breakers: appBreakers });
  return sharedClient;
}

export function apiRequest<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T> {
  return shared().request<T>(method, path, options);
}

export function forgetFallbackData(): void {
  shared().forgetFallbackData();
}

/**
 * The path a generic query key stands for: segments joined with '/', e.g. ["/api/vials", locationId]
 * → "/api/vials/<locationId>". Segments after the first are values and are encoded; missing ones
 * (an optional location) are skipped; a plain object segment becomes the query string instead.
 */
export function queryPath(key: readonly unknown[]): string {
  const [first, ...rest] = key;
  const segments = [String(first ?? "")];
  const query = new URLSearchParams();
  for (const segment of rest) {
    if (segment === null || segment === undefined) continue;
    if (typeof segment === "object") {
      for (const [name, value] of Object.entries(segment)) {
        if (value !== null && value !== undefined) query.append(name, String(value));
      }
    } else {
      segments.push(encodeURIComponent(String(segment)));
    }
  }
  const path = segments.join("/");
  const search = query.toString();
  return `${path.startsWith("/") ? "" : "/"}${path}${search ? `?${search}` : ""}`;
}
