// The dashboard APIs' answer when a read failed with the database there (a statement refused: a
// broken table, a migration not applied): the API's one error shape, a 503 a client may retry,
// never a 500. The error itself went to the error report.
import { jsonError } from "~/http/json.server";

export const DASHBOARD_UNREADABLE = "These figures could not be read just now. Try again in a moment.";

export function dashboardUnreadable(): Response {
  return jsonError(503, DASHBOARD_UNREADABLE, undefined, "figures_unavailable");
}
