// The order page's "What arrived" section: each completed receipt against the order (when, who
// received it, its lines with lots, expiry dates and packages, and why more arrived than ordered),
// the receipts still open against it, and the way to receive against it. Rendered on the server from
// `shapeArrivals` (./arrivals.server); plain links and a plain form, so it works without JavaScript.
import { Form, Link } from "@remix-run/react";
import { Time } from "~/ui/dates";
import { Button, Card } from "~/ui/form";
import { CELL, DataRow, DataTable } from "~/ui/table";
import type { Arrivals } from "./arrivals.server";

export function WhatArrived({ arrivals }: { arrivals: Arrivals }) {
  const { completed, open } = arrivals;
  return (
    <Card title="What arrived">
      {open.length > 0 && (
        <ul className="mb-4 flex flex-col gap-1 text-sm">
          {open.map((r) => (
            <li key={r.receiptId}>
              <Link to={r.href} className="font-medium text-sky-800 hover:underline">
                Receipt started <Time at={r.started} />
              </Link>
              {r.openedBy ? ` by ${r.openedBy}` : ""}
              {r.reference ? ` (${r.reference})` : ""}: being received, not in stock yet.
            </li>
          ))}
        </ul>
      )}
      {completed.length === 0 ? (
        <p className="text-slate-600 text-sm">Nothing has arrived against this order yet.</p>
      ) : (
        <ol className="flex flex-col gap-5">
          {completed.map((r) => (
            <li key={r.receiptId} className="flex flex-col gap-2">
              <p className="text-sm">
                <Link to={r.href} className="font-medium text-sky-800 hover:underline">
                  Received <Time at={r.received} />
                </Link>
                {r.receivedBy ? ` by ${r.receivedBy}` : ""}
                {r.reference ? ` · ${r.reference}` : ""} · {r.packages} {r.packages === 1 ? "package" : "packages"}
              </p>
              {r.overReceiptReason && (
                <p className="rounded-md bg-amber-50 px-3 py-2 text-amber-900 text-sm">
                  More than ordered: {r.overReceiptReason}
                </p>
              )}
              <DataTable
                caption={`Received ${r.received?.text ?? ""}`}
                columns={["Product variation", "Packages", "Lot", "Expires"]}
                rowCount={r.lines.length}
                empty="No lines."
              >
                {r.lines.map((l) => (
                  <DataRow key={l.id}>
                    <td className={`${CELL} font-medium`}>{l.label}</td>
                    <td className={`${CELL} text-slate-700`}>
                      {l.packages} <span className="text-slate-500">({l.units})</span>
                    </td>
                    <td className={`${CELL} font-mono text-slate-700`}>
                      {l.lot ?? "—"}
                      {l.serial && <span className="block text-slate-500 text-xs">Serial {l.serial}</span>}
                    </td>
                    <td className={`${CELL} text-slate-700`}>{l.expires ?? "—"}</td>
                  </DataRow>
                ))}
              </DataTable>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

/**
 * "Receive against this order": opens a receipt for it (POST /receiving, `purchaseOrderId`) and goes
 * to its lines. Offered for a submitted or partially received order to whoever may write inventory
 * at its location; otherwise it says why, where the button would have been.
 */
export function ReceiveAgainstOrder({
  orderId,
  status,
  canReceive,
}: {
  orderId: string;
  status: string;
  /** WRITE_INVENTORY at the order's location, where the viewer stands. */
  canReceive: boolean;
}) {
  const why: Record<string, string> = {
    draft: "Submit the order before receiving against it.",
    received: "Everything on this order has arrived.",
    closed: "This order is closed: nothing more is received against it.",
    cancelled: "This order was cancelled: nothing is received against it.",
  };
  const notNow = why[status];
  if (notNow) return <p className="text-slate-600 text-sm">{notNow}</p>;
  if (!canReceive) {
    return <p className="text-slate-600 text-sm">Receiving needs permission to change inventory at this location.</p>;
  }
  return (
    <Form method="post" action="/receiving">
      <input type="hidden" name="purchaseOrderId" value={orderId} />
      <Button>Receive against this order</Button>
    </Form>
  );
}
