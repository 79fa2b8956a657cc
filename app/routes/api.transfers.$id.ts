// GET /api/transfers/{id}?locationId=: one transfer with its status and lines, if it leaves from or
// comes to a location the reader reaches (READ_TRANSFERS); else 404.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { transferAnswer } from "~/transfers/api.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_TRANSFERS");
  return transferAnswer(args.context.db, actor, args.params.id ?? "");
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
