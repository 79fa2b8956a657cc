// GET /api/purchase-orders/{id}?locationId=: one order with its lines (packages ordered, received
// and outstanding, unit cost and line total in cents, the vendor's SKU) and its revisions, if its
// location is one the reader reaches (READ_PURCHASING); else 404.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { orderAnswer } from "~/purchasing/api.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_PURCHASING");
  return orderAnswer(args.context.db, actor, args.params.id ?? "");
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
