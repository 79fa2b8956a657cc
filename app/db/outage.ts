// Shared by the server (which answers an outage with a 503) and the boundaries (which show it).
import { isRouteErrorResponse } from "@remix-run/react";

/** The body text the client's error catalogue recognises as a database outage (spec section 8). */
export const DATABASE_UNAVAILABLE = "Database unavailable";

/**
 * What a write answers (409) when the database refused it on a rule the verb's own guards did not
 * catch first: the state changed between the page and the save, or the write would break a rule
 * such as stock never below zero. Nothing was written; reading the page again shows what is there now.
 */
export const CHANGED_MEANWHILE =
  "Someone changed this meanwhile, or it would take stock below zero: reload and try again.";

/** A write the database refused on a constraint (orOutage's 409): its message, else null. */
export function conflictMessageOf(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || error.status !== 409) return null;
  const message = (error.data as { error?: unknown } | null)?.error;
  return typeof message === "string" ? message : null;
}

export function isDatabaseOutageResponse(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 503 && String(error.data).includes(DATABASE_UNAVAILABLE);
}
