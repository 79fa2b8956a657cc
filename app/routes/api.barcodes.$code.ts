// GET /api/barcodes/:code?locationId=: what a scanned or typed code identifies, for scanning and
// receiving (app/scan/lookup.server): `"kind": "item"` with the vial (its label code, or a GS1
// payload whose GTIN, lot and serial match it, at a location the reader reaches), else
// `"kind": "variation"` with the variation and product. 400 with the spec's barcode messages
// (section 5), 404 if nothing the reader may see has it.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiActor } from "~/access/door.server";
import { API_HEADERS } from "~/http/json.server";
import { orOutage } from "~/http/outage.server";
import { lookUpCode, scanAnswer } from "~/scan/lookup.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await apiActor(args, "READ_PRODUCTS");
  const { status, body } = scanAnswer(await orOutage(lookUpCode(args.context.db, actor, args.params.code ?? "")));
  return Response.json(body, { status, headers: API_HEADERS });
}

// A write here answers 405 in the API's one error shape.
export { getOnly as action } from "~/http/api.server";
