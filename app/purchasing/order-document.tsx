// An order as the vendor reads it (its page, and alone on paper: the browser prints it as a clean
// document with the clinic's ship-to, the vendor, the number, the lines with the vendor's SKUs and
// the total), and its revision history. The shapes are what the order's loader sends
// (./order-view.server.ts). Browser-safe: no server code.
import type { ShownInstant } from "~/ui/dates";
import { Time } from "~/ui/dates";
import { Card } from "~/ui/form";
import type { PurchaseOrderStatus } from "./constants";
import { OrderStatusBadge } from "./status-badge";

export interface OrderHead {
  id: string;
  number: string;
  status: PurchaseOrderStatus;
  revision: number;
  version: number;
  location: string;
  locationCode: string;
  address: string | null;
  vendor: string;
  vendorAccount: string | null;
  vendorContact: string | null;
  vendorEmail: string | null;
  vendorPhone: string | null;
  note: string | null;
  createdBy: string | null;
  created: ShownInstant | null;
  createdDay: string;
  submittedBy: string | null;
  submitted: ShownInstant | null;
  closedBy: string | null;
  closed: ShownInstant | null;
  closeReason: string | null;
  cancelledBy: string | null;
  cancelled: ShownInstant | null;
  cancelReason: string | null;
  total: string;
}

export interface OrderLineView {
  id: string;
  product: string;
  variation: string;
  vendorSku: string | null;
  packages: number;
  received: number;
  outstanding: number;
  perPackage: string;
  unitCost: string;
  unitCostInput: string;
  total: string;
  expectedOn: string | null;
  expected: string | null;
}

export interface RevisionView {
  revision: number;
  reason: string;
  by: string | null;
  at: ShownInstant | null;
  changes: { what: "changed" | "added" | "removed"; product: string; before: string | null; after: string | null }[];
}

export function OrderDocument({
  order,
  lines,
  may,
}: {
  order: OrderHead;
  lines: readonly OrderLineView[];
  may: boolean;
}) {
  const isDraft = order.status === "draft";
  const isOpen = order.status === "submitted" || order.status === "partially_received";
  const showReceived = !isDraft && order.status !== "cancelled";
  return (
    <article
      aria-labelledby="order-title"
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm print:border-0 print:p-0 print:shadow-none"
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-slate-200 border-b pb-3">
        <div>
          <p className="text-slate-600 text-sm">Purchase order</p>
          <h1 id="order-title" className="font-semibold text-2xl">
            {order.number}
          </h1>
          {order.revision > 0 && <p className="text-slate-600 text-sm">Revision {order.revision}</p>}
        </div>
        <div className="flex flex-col items-start gap-1 text-sm sm:items-end">
          <OrderStatusBadge status={order.status} />
          <span className="text-slate-600">Dated {order.createdDay}</span>
        </div>
      </header>

      <div className="grid gap-4 py-3 text-sm sm:grid-cols-2 print:grid-cols-2">
        <section aria-label="Vendor">
          <h2 className="font-medium text-slate-600">Vendor</h2>
          <p className="font-medium">{order.vendor}</p>
          {order.vendorAccount && <p>Account {order.vendorAccount}</p>}
          {order.vendorContact && <p>{order.vendorContact}</p>}
          {order.vendorEmail && <p>{order.vendorEmail}</p>}
          {order.vendorPhone && <p>{order.vendorPhone}</p>}
        </section>
        <section aria-label="Ship to">
          <h2 className="font-medium text-slate-600">Ship to</h2>
          <p className="font-medium">
            {order.location} ({order.locationCode})
          </p>
          {order.address && <p>{order.address}</p>}
        </section>
      </div>
      {order.note && (
        <p className="pb-3 text-sm">
          <span className="font-medium text-slate-600">Note: </span>
          {order.note}
        </p>
      )}

      {/* On a phone, each line reads as a short block; from a tablet up, and on paper, as a table. */}
      <ul className="flex flex-col divide-y divide-slate-100 sm:hidden print:hidden" data-testid="order-lines-phone">
        {lines.map((l) => (
          <li key={l.id} className="py-2 text-sm">
            <p className="font-medium">
              {l.product} · {l.variation}
            </p>
            <p className="text-slate-600 text-xs">
              {l.perPackage} a package{l.vendorSku ? ` · SKU ${l.vendorSku}` : ""}
              {l.expected ? ` · expected ${l.expected}` : ""}
            </p>
            <p className="mt-1 flex justify-between gap-3">
              <span className="tabular-nums">
                {l.packages} × {l.unitCost}
              </span>
              <span className="font-medium tabular-nums">{l.total}</span>
            </p>
            {showReceived && (
              <p className="text-slate-600 text-xs">
                {l.received} of {l.packages} arrived
                {l.outstanding > 0 && isOpen ? ` · ${l.outstanding} to come` : ""}
              </p>
            )}
          </li>
        ))}
        {lines.length === 0 && (
          <li className="py-6 text-center text-slate-600 text-sm">
            No lines yet.{isDraft && may ? " Add the items to order." : ""}
          </li>
        )}
        <li className="flex justify-between py-2 font-semibold text-sm">
          <span>Total</span>
          <span className="tabular-nums">{order.total}</span>
        </li>
      </ul>
      <div className="hidden overflow-x-auto sm:block print:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Lines of {order.number}</caption>
          <thead className="border-slate-200 border-b text-slate-600">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">
                Vendor SKU
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Product
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Packages
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Unit cost
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Line total
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Expected
              </th>
              {showReceived && (
                <th scope="col" className="py-2 font-medium print:hidden">
                  Arrived
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.id} className="border-slate-100 border-b align-top">
                <td className="py-2 pr-3 font-mono text-xs">{l.vendorSku ?? "—"}</td>
                <td className="py-2 pr-3">
                  {l.product} · {l.variation}
                  <span className="block text-slate-500 text-xs">{l.perPackage} a package</span>
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{l.packages}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{l.unitCost}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{l.total}</td>
                <td className="py-2 pr-3 whitespace-nowrap">{l.expected ?? "—"}</td>
                {showReceived && (
                  <td className="py-2 whitespace-nowrap print:hidden">
                    {l.received} of {l.packages}
                    {l.outstanding > 0 && isOpen ? ` · ${l.outstanding} to come` : ""}
                  </td>
                )}
              </tr>
            ))}
            {lines.length === 0 && (
              <tr>
                <td colSpan={7} className="py-6 text-center text-slate-600">
                  No lines yet.{isDraft && may ? " Add the items to order." : ""}
                </td>
              </tr>
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={4} className="py-2 pr-3 text-right font-medium">
                Total
              </th>
              <td className="py-2 pr-3 text-right font-semibold tabular-nums">{order.total}</td>
              <td colSpan={2} />
            </tr>
          </tfoot>
        </table>
      </div>

      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-600 text-xs print:hidden">
        <dt>Created</dt>
        <dd>
          {order.createdBy ?? "—"}, <Time at={order.created} />
        </dd>
        <dt>Submitted</dt>
        <dd>
          {order.submitted ? (
            <>
              {order.submittedBy ?? "—"}, <Time at={order.submitted} />
            </>
          ) : (
            "Not yet"
          )}
        </dd>
        {order.closed && (
          <>
            <dt>Closed</dt>
            <dd>
              {order.closedBy ?? "—"}, <Time at={order.closed} />
              {order.closeReason ? ` · ${order.closeReason}` : ""}
            </dd>
          </>
        )}
        {order.cancelled && (
          <>
            <dt>Cancelled</dt>
            <dd>
              {order.cancelledBy ?? "—"}, <Time at={order.cancelled} />
              {order.cancelReason ? ` · ${order.cancelReason}` : ""}
            </dd>
          </>
        )}
      </dl>
    </article>
  );
}

export function RevisionHistory({ revisions, isDraft }: { revisions: readonly RevisionView[]; isDraft: boolean }) {
  return (
    <Card title="Revisions">
      {revisions.length === 0 ? (
        <p className="text-slate-600 text-sm">
          {isDraft ? "A draft is edited freely: revisions start once it is submitted." : "Not revised."}
        </p>
      ) : (
        <ol className="flex flex-col gap-3">
          {revisions.map((r) => (
            <li key={r.revision} className="text-sm">
              <p className="font-medium">
                Revision {r.revision}: {r.reason}
              </p>
              <p className="text-slate-600 text-xs">
                {r.by ?? "—"}, <Time at={r.at} />
              </p>
              <ul className="mt-1 list-disc pl-5 text-slate-700">
                {r.changes.map((c) => (
                  <li key={`${c.what}-${c.product}`}>
                    {c.what === "added"
                      ? `Added ${c.product}: ${c.after}`
                      : c.what === "removed"
                        ? `Removed ${c.product} (was ${c.before})`
                        : `${c.product}: ${c.before} → ${c.after}`}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
