// GET /api/reorder-suggestions?locationId=&vendorId= (issue 23.7): the reorder suggestions of one
// location (the one asked for, else the one in scope), optionally only of products whose default
// vendor is `vendorId`, {items: [{variationId, vendorId, onHand, onOrder, inTransit, reorderPoint,
// max (base units), dailyUsage (base units a day), packages, why, ...}]} (app/purchasing/
// suggestions.server.ts, ADR 0032). READ_PURCHASING at the location (else 403); an id over 100
// characters is a 400, a vendor not of the organization a 404; organization mode names a location.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { ORGANIZATION } from "~/access/permissions";
import { organizationOf } from "~/db/sql.server";
import { invalidFilter } from "~/http/filters.server";
import { API_HEADERS, jsonError } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { reorderSuggestions } from "~/purchasing/suggestions.server";

const ID_MAX = 100;

export async function loader(args: LoaderFunctionArgs) {
  const params = new URL(args.request.url).searchParams;
  const problems: Record<string, string> = {};
  for (const name of ["locationId", "vendorId"])
    if ((params.get(name) ?? "").length > ID_MAX) problems[name] = `${name} is an id of at most ${ID_MAX} characters.`;
  if (Object.keys(problems).length > 0) throw invalidFilter(problems);
  const { actor, searchParams } = await apiActor(args, "READ_PURCHASING");
  const locationId = actor.locationId;
  if (!locationId || locationId === ORGANIZATION)
    throw invalidFilter({
      locationId: "Name the location the suggestions are for: locationId is required in organization mode.",
    });
  const vendorId = searchParams.get("vendorId") || null;
  const items = await orOutage(reorderSuggestions(args.context.db, organizationOf(actor), locationId, vendorId));
  if (!items) throw jsonError(404, "No such vendor in your organization: choose one from /vendors.", API_HEADERS);
  return Response.json({ items }, { headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
