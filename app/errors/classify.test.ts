import { describe, expect, it } from "vitest";
import {
  CircuitOpenError,
  ClientError,
  classifyError,
  DatabaseUnavailableError,
  type ErrorClass,
  errorFromResponse,
  isRetryable,
  NetworkError,
  NoFallbackError,
  RequestError,
  ServerError,
  TimeoutError,
} from "./classify";

describe("errorFromResponse", () => {
  it.each([
    [503, "Database unavailable"],
    [500, '{"error":"Lost database connection"}'],
    [503, "Database connection required"],
    [500, '{"code":"DATABASE_ERROR"}'],
    [400, "DATABASE_ERROR"],
  ])("%i %s is a database outage", (status, body) => {
    const error = errorFromResponse(status, body);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(error.name).toBe("DatabaseUnavailableError");
    expect(error.message).toBe(`Database connectivity issue: ${body}`);
    expect(error.status).toBe(status);
  });

  it.each([
    [500, ServerError],
    [503, ServerError],
    [408, TimeoutError],
    [400, ClientError],
    [404, ClientError],
    [422, ClientError],
    [302, RequestError],
  ])("%i is a %o with 'status: body text'", (status, kind) => {
    const error = errorFromResponse(status, "Not today");
    expect(error).toBeInstanceOf(kind);
    expect(error).toBeInstanceOf(RequestError);
    expect(error.message).toBe(`${status}: Not today`);
    expect(error.status).toBe(status);
    expect(error.body).toBe("Not today");
  });
});

describe("the other request errors", () => {
  it("say what happened in the spec's words", () => {
    expect(new NetworkError().message).toBe("Network request failed");
    expect(new NetworkError().status).toBeNull();
    expect(new TimeoutError("Request timeout after 30000ms", null).name).toBe("TimeoutError");
    expect(new CircuitOpenError("GET /api/vials", Date.UTC(2026, 0, 2, 3, 4, 5)).message).toBe(
      "Circuit breaker open for GET /api/vials. Next attempt at 2026-01-02T03:04:05.000Z",
    );
  });

  it("name the operation and the reason when there is no fallback", () => {
    const cause = errorFromResponse(503, "Database unavailable");
    const error = new NoFallbackError("GET /api/vials", cause);
    expect(error.message).toBe(
      "GET /api/vials failed and no fallback available: Database connectivity issue: Database unavailable",
    );
    expect(error.cause).toBe(cause);
    expect(error.status).toBe(503);
  });
});

describe("classifyError", () => {
  const cases: [string, unknown, ErrorClass][] = [
    ["a fetch failure", new TypeError("Failed to fetch"), "network"],
    ["our network error", new NetworkError(), "network"],
    ["our time-out", new TimeoutError("Request timeout after 30000ms", null), "network"],
    ["a 408 whatever its body", errorFromResponse(408, "Slow down"), "network"],
    ["an open breaker", new CircuitOpenError("GET /api/products", 0), "network"],
    ["the word connection", new Error("Connection reset"), "network"],
    ["the word timeout", "TIMEOUT while loading", "network"],
    ["a database outage answer", errorFromResponse(503, "DATABASE_ERROR"), "database"],
    ["the error name alone", Object.assign(new Error("x"), { name: "DatabaseUnavailableError" }), "database"],
    ["database connection (not network)", new Error("lost database connection"), "database"],
    ["database connection required (not validation)", new Error("Database connection required"), "database"],
    [
      "no fallback for a database outage",
      new NoFallbackError("GET /x", errorFromResponse(503, "Database unavailable")),
      "database",
    ],
    ["a 401", errorFromResponse(401, "Sign in again"), "permission"],
    ["a 403", errorFromResponse(403, "Not at this location"), "permission"],
    ["a Remix error response", { status: 403, statusText: "Forbidden", data: null }, "permission"],
    ["the word forbidden", new Error("FORBIDDEN"), "permission"],
    ["access denied", new Error("Access denied to vials"), "permission"],
    ["permission required (not validation)", new Error("Permission WRITE_PRODUCTS required"), "permission"],
    ["unauthorized", new Error("Unauthorized"), "permission"],
    ["the word invalid", errorFromResponse(400, "Invalid barcode"), "validation"],
    ["the word required", new Error("Lot number is required"), "validation"],
    ["a validation failure", new Error("Validation failed"), "validation"],
    ["a 500 without those words", errorFromResponse(500, "Internal Server Error"), "unknown"],
    ["a plain bug", new TypeError("Cannot read properties of undefined"), "unknown"],
    ["nothing useful", undefined, "unknown"],
    ["a number", 42, "unknown"],
  ];
  it.each(cases)("%s → %s", (_, error, expected) => {
    expect(classifyError(error)).toBe(expected);
  });
});

describe("isRetryable", () => {
  it.each<[ErrorClass, boolean]>([
    ["network", true],
    ["database", true],
    ["validation", false],
    ["permission", false],
    ["unknown", false],
  ])("%s → %s", (errorClass, expected) => {
    expect(isRetryable(errorClass)).toBe(expected);
  });
});
