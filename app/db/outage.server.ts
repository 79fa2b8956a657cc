// Telling "the database is unreachable" apart from "this SQL was refused": the first gets the
// spec's database screens (and a 503 the client may retry), the second is an ordinary error.
import { DATABASE_UNAVAILABLE } from "./outage";

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

/** Runs a database call; an outage becomes a 503 "Database unavailable" response for the boundary. */
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
    throw error;
  }
}
