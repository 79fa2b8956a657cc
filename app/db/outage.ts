// Shared by the server (which answers an outage with a 503) and the boundaries (which show it).
import { isRouteErrorResponse } from "@remix-run/react";

/** The body text the client's error catalogue recognises as a database outage (spec section 8). */
export const DATABASE_UNAVAILABLE = "Database unavailable";

export function isDatabaseOutageResponse(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 503 && String(error.data).includes(DATABASE_UNAVAILABLE);
}
