// A catalogue code scanned: the variation it names and its items at the location in scope (every
// location in organization mode), the one to use first on top (first to expire, first out), each
// a link that opens it as if its label had been scanned, and a link to receive more.
import { Link } from "@remix-run/react";
import { formatQuantity } from "~/catalog/format";
import type { ScannedVariation } from "~/products/barcodes.server";
import { ExpiryBadge } from "~/stock/expiry-badge";
import { StateBadge } from "~/stock/state-badge";
import type { readVials } from "~/stock/vials.server";
import { countText } from "~/ui/table";
import type { Json } from "./queries";

export type VariationFound = Json<ScannedVariation> & { kind: "variation" };
export type ItemsPage = Json<Awaited<ReturnType<typeof readVials>>>;

export function VariationItems({
  found,
  page,
  now,
}: {
  found: VariationFound;
  /** Its items here; undefined while they are read. */
  page: ItemsPage | undefined;
  now: string;
}) {
  const items = page?.items ?? [];
  return (
    <section
      aria-labelledby="variation-title"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="variation-title" className="font-semibold text-lg">
        {found.product.name} <span className="font-normal text-slate-600">· {found.variation.name}</span>
      </h2>
      <p className="text-slate-600 text-sm">
        Catalogue code <span className="font-mono">{found.code}</span>.{" "}
        {page
          ? `${countText(page.total, page.totalExact, "here")}, the one to use first on top.`
          : "Reading the items here…"}
      </p>
      {page && items.length === 0 && <p className="text-sm">None of these at this location.</p>}
      {items.length > 0 && (
        <ol className="flex flex-col divide-y divide-slate-200">
          {items.map((item, index) => (
            <li key={item.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
              <Link
                to={`/scan?code=${encodeURIComponent(item.labelCode)}`}
                className="font-mono text-sky-700 underline"
              >
                {item.labelCode}
              </Link>
              {index === 0 && <span className="font-semibold text-emerald-800">Use first</span>}
              <span>Lot {item.lot ?? "—"}</span>
              <StateBadge state={item.state} />
              <span>{formatQuantity(item.unitsRemaining, item.unitScale, item.baseUnit)}</span>
              <ExpiryBadge item={item} now={now} />
            </li>
          ))}
        </ol>
      )}
      <Link to="/receiving" className="text-sky-700 underline">
        Receive {found.product.name}
      </Link>
    </section>
  );
}
