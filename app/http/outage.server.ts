// Telling "the database is unreachable" apart from "this SQL was refused": the first gets the
// spec's database screens (and a 503 the client may retry); a refused constraint is a 409 that
// says to reload (the one mapping of every verb, form or API); anything else an ordinary error.

import { CHANGED_MEANWHILE, DATABASE_UNAVAILABLE } from "~/db/outage";
import { isConstraintError } from "~/db/sql.server";
import { jsonError } from "./json.server";

export function isDatabaseOutage(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? "");
    if (code.startsWith("SQLITE_")) return false;
    const message = String((e as { message?: unknown }).message ?? "");
    if (
      /fetch failed|network connection|ECONNREFUSED|ECONNRESET|connection refused|internal error|Server returned HTTP status 5\d\d/i.test(
        message,
      ) ||
      code === "SERVER_ERROR" ||
      code.startsWith("HRANA_")
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Runs a database call; an outage becomes a 503 "Database unavailable" response for the boundary,
 * and a constraint the verb did not turn into a refusal a 409 {error, code: "conflict"} (the batch
 * rolled back, so nothing was written).
 */
export async function orOutage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    // A thrown Response works for pages (the boundary shows it) and API routes (sent as is).
    if (isDatabaseOutage(error)) {
      throw new Response(DATABASE_UNAVAILABLE, {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    if (isConstraintError(error)) throw jsonError(409, CHANGED_MEANWHILE, undefined, "conflict");
    throw error;
  }
}
