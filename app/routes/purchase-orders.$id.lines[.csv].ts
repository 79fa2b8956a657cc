// /purchase-orders/{id}/lines.csv: an order's lines for the vendor as a CSV file (no app shell):
// the vendor's SKU, product, variation, packages, unit cost and line total (dollars, a plain
// decimal a spreadsheet sums), quoted as RFC 4180 says and safe against formula injection. Read as
// the order's page is: READ_PURCHASING at its location from where the reader stands, else 404.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { actorHere } from "~/access/door.server";
import { formatScaled } from "~/catalog/format";
import { csvResponse } from "~/http/csv.server";
import { orOutage } from "~/http/outage.server";
import { PURCHASING_REFUSALS } from "~/purchasing/outcome";
import { lineTotal, readOrder } from "~/purchasing/read.server";
import { area } from "~/shell/areas";

export const CSV_HEADER = ["Vendor SKU", "Product", "Variation", "Packages", "Unit cost", "Line total"] as const;

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/purchase-orders/{id}").permission);
  const order = await orOutage(readOrder(args.context.db, actor, args.params.id ?? ""));
  if (!order) throw data(PURCHASING_REFUSALS.not_found, { status: 404 });
  const rows = order.lines.map((l) => [
    l.vendorSku,
    l.product,
    l.variation,
    l.packagesOrdered,
    formatScaled(l.unitCostCents, 100),
    formatScaled(lineTotal(l), 100),
  ]);
  async function* pages() {
    yield rows;
  }
  return csvResponse(`${order.number}-lines`, CSV_HEADER, pages());
}
