// GET /api/imports/{id}?locationId=: one import, {id, kind, status, fileName, rowsDone, rowsTotal,
// counts: {imported, duplicates, skipped, unmapped, errors}, errors: the first 20 {row, column,
// value, message}}, if the reader reaches it (READ_IMPORTS); else 404.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { importAnswer } from "~/imports/api.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_IMPORTS");
  return orOutage(importAnswer(args.context.db, actor, args.params.id ?? ""));
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
