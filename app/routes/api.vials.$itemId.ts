// GET /api/vials/{id}?locationId=: one vial as GET /api/vials shows it, with its history (movements
// and usage entries, newest first), if it is at a location the reader reaches; else 404.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { API_HEADERS, jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { readVialHistory } from "~/vials/history.server";
import { VIAL_REFUSALS } from "~/vials/outcome";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_INVENTORY");
  const found = await orOutage(readVialHistory(args.context.db, actor, args.params.itemId ?? ""));
  if (!found) return jsonError(404, VIAL_REFUSALS.not_found, API_HEADERS);
  return Response.json(found, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
