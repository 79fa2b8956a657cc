// GET /api/barcodes/:code?locationId=: what a scanned or typed code identifies, for scanning and
// receiving. The code is checked and normalised by the spec's rules (section 5) first; a catalogue
// barcode wins, else a variation whose GTIN it is. 400 with the rules' messages, 404 if unknown.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { API_HEADERS } from "~/access/api-reader.server";
import { orOutage } from "~/db/outage.server";
import { jsonError } from "~/http/json.server";
import { requireCatalogReader } from "~/products/api.server";
import { findByCode } from "~/products/barcodes.server";

export async function loader(args: LoaderFunctionArgs) {
  const { actor } = await requireCatalogReader(args);
  const found = await orOutage(findByCode(args.context.db, actor, args.params.code ?? ""));
  if (found && "invalid" in found) return jsonError(400, found.invalid.join(" "), API_HEADERS, "invalid_barcode");
  if (!found) return jsonError(404, "No product in the catalogue has this barcode.", API_HEADERS);
  return Response.json(found, { headers: API_HEADERS });
}
