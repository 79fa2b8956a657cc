// The request errors of spec section 8 and the one map from any thrown value to the five error
// classes the error screens know. Names are set as strings so they survive minification.

export type ErrorClass = "network" | "database" | "validation" | "permission" | "unknown";

/** A failed call to our server. `status` is the HTTP status, or null when no response arrived. */
export class RequestError extends Error {
  override name = "RequestError";
  constructor(
    message: string,
    readonly status: number | null,
    readonly body = "",
  ) {
    super(message);
  }
}

/** The server answered, but said its database is unreachable. */
export class DatabaseUnavailableError extends RequestError {
  override name = "DatabaseUnavailableError";
  constructor(status: number, body: string) {
    super(`Database connectivity issue: ${body}`, status, body);
  }
}

export class ServerError extends RequestError {
  override name = "ServerError";
}

/** 408 answers, our own abort after the time-out, and the breaker's slow-call limit. */
export class TimeoutError extends RequestError {
  override name = "TimeoutError";
}

export class ClientError extends RequestError {
  override name = "ClientError";
}

export class NetworkError extends RequestError {
  override name = "NetworkError";
  /** `cause` keeps the browser's own error (e.g. "Failed to fetch") for the report. */
  constructor(options?: { cause?: unknown }) {
    super("Network request failed", null);
    if (options) this.cause = options.cause;
  }
}

export class CircuitOpenError extends Error {
  override name = "CircuitOpenError";
  constructor(
    readonly operation: string,
    readonly nextAttemptAt: number,
  ) {
    super(`Circuit breaker open for ${operation}. Next attempt at ${new Date(nextAttemptAt).toISOString()}`);
  }
}

/** The database is down and there is no recent copy of the answer to show instead. */
export class NoFallbackError extends Error {
  override name = "NoFallbackError";
  /** The status of the failure behind it, so retry rules treat both alike. */
  readonly status: number | null;
  constructor(
    readonly operation: string,
    override readonly cause: Error,
  ) {
    super(`${operation} failed and no fallback available: ${cause.message}`);
    this.status = cause instanceof RequestError ? cause.status : null;
  }
}

export const DATABASE_UNAVAILABLE_MARKERS = [
  "Database unavailable",
  "database connection",
  "Database connection required",
  "DATABASE_ERROR",
] as const;

/** The error a non-OK response stands for; the body decides first, since a database outage may come with any status. */
export function errorFromResponse(status: number, body: string): RequestError {
  const lowerBody = body.toLowerCase();
  if (DATABASE_UNAVAILABLE_MARKERS.some((marker) => lowerBody.includes(marker.toLowerCase()))) {
    return new DatabaseUnavailableError(status, body);
  }
  const message = `${status}: ${body}`;
  if (status >= 500) return new ServerError(message, status, body);
  if (status === 408) return new TimeoutError(message, status, body);
  if (status >= 400) return new ClientError(message, status, body);
  return new RequestError(message, status, body);
}

/** The HTTP status carried by a thrown value (our errors, Remix error responses), if any. */
export function statusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : null;
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : "";
}

function messageOf(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  const { message, statusText, data } = (error ?? {}) as Record<string, unknown>;
  return [message, statusText, data].filter((part) => typeof part === "string").join(" ");
}

const PERMISSION_WORDS = /unauthorized|forbidden|permission|access denied/;
const NETWORK_WORDS = /network|fetch|connection|timeout/;
const VALIDATION_WORDS = /validation|invalid|required/;

/**
 * Which error screen a thrown value gets. Checked in this order, case-insensitively, first match wins:
 * 1. database: the database-unavailable error, or "database" in the message. First, because the
 *    server's outage texts also hold "connection" (network) and "required" (validation).
 * 2. permission: status 401 or 403, or unauthorized/forbidden/permission/access denied. Before
 *    network and validation so a refusal is never offered a pointless retry ("Permission required").
 * 3. network: our network, time-out and open-breaker errors, or network/fetch/connection/timeout.
 * 4. validation: validation/invalid/required.
 * 5. unknown: everything else, 5xx answers without those words included.
 */
export function classifyError(error: unknown): ErrorClass {
  const name = nameOf(error);
  const message = messageOf(error).toLowerCase();
  const status = statusOf(error);
  if (name === "DatabaseUnavailableError" || message.includes("database")) return "database";
  if (status === 401 || status === 403 || PERMISSION_WORDS.test(message)) return "permission";
  if (["NetworkError", "TimeoutError", "CircuitOpenError"].includes(name) || NETWORK_WORDS.test(message)) {
    return "network";
  }
  if (VALIDATION_WORDS.test(message)) return "validation";
  return "unknown";
}

/** Only outages can heal by themselves; trying again cannot fix bad data, a refusal or a bug. */
export function isRetryable(errorClass: ErrorClass): boolean {
  return errorClass === "network" || errorClass === "database";
}
