// The lower half of an open or closed receipt's page (/receiving/:receiptId/add-products): its
// lines, each removable while the receipt is open, and the card that completes or cancels it.
// Plain forms: both work before JavaScript loads (then the confirmation question is skipped).
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Card, Field, FormAlert } from "~/ui/form";
import { CELL, DataRow, DataTable } from "~/ui/table";
import { OVER_RECEIPT_MESSAGES, OVER_RECEIPT_REASON_MAX, type ReceiptIntent } from "./constants";

/** One line as the page shows it (the loader formats quantities, dates and money). */
export interface ReceiptLineRow {
  id: string;
  /** "Product · Variation". */
  label: string;
  productId: string;
  tracking: string;
  quantity: number;
  /** The quantity in the product's units: "(300 U)". */
  units: string;
  lot: string | null;
  serial: string | null;
  expirationDate: string | null;
  expiryReason: string | null;
  unitCost: string | null;
}

export function ReceiptLines({
  lines,
  canWrite,
  formError,
  busy,
}: {
  lines: readonly ReceiptLineRow[];
  canWrite: boolean;
  /** A refused removal. */
  formError?: string | null;
  busy: boolean;
}) {
  return (
    <Card title="Lines">
      <FormAlert message={formError} />
      <DataTable
        caption="Receipt lines"
        columns={[
          "Product variation",
          "Quantity",
          "Lot",
          "Expiration date",
          "Serial",
          "Unit cost",
          ...(canWrite ? [""] : []),
        ]}
        rowCount={lines.length}
        empty={canWrite ? "No lines yet: scan a package or add a line above." : "This receipt has no lines."}
      >
        {lines.map((l) => (
          <DataRow key={l.id}>
            <td className={CELL}>
              <Link to={`/products/${l.productId}`} className="font-medium text-sky-800 hover:underline">
                {l.label}
              </Link>
              <span className="ml-2 text-slate-500 text-xs">{l.tracking === "serialized" ? "labelled" : "bulk"}</span>
            </td>
            <td className={`${CELL} text-slate-700`}>
              {l.quantity} <span className="text-slate-500">({l.units})</span>
            </td>
            <td className={`${CELL} font-mono text-slate-700`}>{l.lot ?? "—"}</td>
            <td className={`${CELL} text-slate-700`}>
              {l.expirationDate ?? "—"}
              {l.expiryReason && <span className="block text-amber-800 text-xs">Confirmed: {l.expiryReason}</span>}
            </td>
            <td className={`${CELL} font-mono text-slate-700`}>{l.serial ?? "—"}</td>
            <td className={`${CELL} text-slate-700`}>{l.unitCost ?? "—"}</td>
            {canWrite && (
              <td className={CELL}>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-line" />
                  <input type="hidden" name="lineId" value={l.id} />
                  <button
                    type="submit"
                    disabled={busy}
                    aria-label={`Remove ${l.label}`}
                    className="text-red-700 text-sm hover:underline disabled:opacity-60"
                  >
                    Remove
                  </button>
                </Form>
              </td>
            )}
          </DataRow>
        ))}
      </DataTable>
    </Card>
  );
}

/** One line of the receipt's purchase order as its page shows it (the loader formats it). */
export interface ExpectedRow {
  variationId: string;
  label: string;
  vendorSku: string | null;
  ordered: number;
  received: number;
  /** Packages still expected, less what is already on this receipt. */
  toReceive: number;
  onReceipt: number;
  unitCost: string;
  /** The receipt page's address that fills "Add line" with this line. */
  fillHref: string;
}

/**
 * What the receipt's order still expects: one row per order line, each a link that fills "Add line"
 * with its packages and the order's unit cost (a GS1 scan of it does the same and adds its lot and
 * expiry). Shown while the receipt is open.
 */
export function OrderExpected({
  order,
  rows,
  canWrite,
}: {
  order: { id: string; number: string; status: string; vendor: string };
  rows: readonly ExpectedRow[];
  canWrite: boolean;
}) {
  // Closed or cancelled while this receipt was open: completion is refused (RECEIVING_REFUSALS.order_closed).
  const finished = order.status === "closed" || order.status === "cancelled";
  const receiving = canWrite && !finished;
  return (
    <Card title={`Ordered on ${order.number}`}>
      {finished && (
        <p className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-amber-900 text-sm">
          This order was {order.status === "closed" ? "closed" : "cancelled"} while this receipt was open: nothing more
          is received against it. Cancel this receipt, and receive what arrived on a receipt without the order.
        </p>
      )}
      <p className="mb-3 text-slate-600 text-sm">
        From {order.vendor}.{" "}
        {receiving
          ? "Scan each package (its lot and expiry fill in), or pick a line to fill Add line with what is still expected; change the packages to what arrived."
          : "What the order still expects, and what is on this receipt so far."}{" "}
        <Link to={`/purchase-orders/${order.id}`} className="text-sky-800 hover:underline">
          Open the order
        </Link>
      </p>
      <DataTable
        caption={`Lines of ${order.number}`}
        columns={[
          "Product variation",
          "Ordered",
          "Arrived before",
          "On this receipt",
          "Still expected",
          "Unit cost",
          ...(receiving ? [""] : []),
        ]}
        rowCount={rows.length}
        empty="This order has no lines."
      >
        {rows.map((r) => (
          <DataRow key={r.variationId}>
            <td className={CELL}>
              <span className="font-medium">{r.label}</span>
              {r.vendorSku && <span className="block font-mono text-slate-500 text-xs">SKU {r.vendorSku}</span>}
            </td>
            <td className={`${CELL} text-slate-700`}>{r.ordered}</td>
            <td className={`${CELL} text-slate-700`}>{r.received}</td>
            <td className={`${CELL} text-slate-700`}>{r.onReceipt}</td>
            <td className={`${CELL} font-medium`}>{r.toReceive}</td>
            <td className={`${CELL} text-slate-700`}>{r.unitCost}</td>
            {receiving && (
              <td className={CELL}>
                {r.toReceive > 0 ? (
                  <Link to={r.fillHref} className="text-sky-800 hover:underline" aria-label={`Receive ${r.label}`}>
                    Receive
                  </Link>
                ) : (
                  <span className="text-slate-500 text-xs">All here</span>
                )}
              </td>
            )}
          </DataRow>
        ))}
      </DataTable>
    </Card>
  );
}

/** Complete (every line into stock, then its labels) or cancel an open receipt, each asked first. */
export function FinishReceipt({
  location,
  lineCount,
  formError,
  busy,
  overReceipt,
}: {
  /** "Downtown (DT)". */
  location: string;
  lineCount: number;
  /** A refused completion or cancellation. */
  formError?: string | null;
  busy: boolean;
  /** Against an order: whether the receipt brings more than it still expects (a reason is asked), and its error. */
  overReceipt?: { needed: boolean; error?: string | null };
}) {
  return (
    <Card title="Finish">
      <FormAlert message={formError} />
      <p className="mb-3 text-slate-600 text-sm">
        Completing puts every line in stock at {location} and cannot be undone; then print the labels. Cancelling keeps
        the receipt as history and receives nothing.
      </p>
      <Form method="post" className="flex flex-wrap items-end gap-3">
        {(overReceipt?.needed || overReceipt?.error) && (
          <div className="w-full">
            <Field
              label={OVER_RECEIPT_MESSAGES.label}
              name="overReceiptReason"
              maxLength={OVER_RECEIPT_REASON_MAX}
              autoComplete="off"
              hint="This receipt brings more than the order still expects, or something not on it."
              error={overReceipt?.error}
            />
          </div>
        )}
        <ConfirmButton
          intent="complete"
          question={`Complete this receipt? ${lineCount} ${lineCount === 1 ? "line goes" : "lines go"} into stock at ${location}, and the receipt can no longer change.`}
          disabled={busy || lineCount === 0}
          className="bg-sky-700 text-white hover:bg-sky-800"
        >
          Complete receipt
        </ConfirmButton>
        <ConfirmButton
          intent="cancel"
          question="Cancel this receipt? Nothing on it will be received."
          disabled={busy}
          className="border border-red-300 bg-white text-red-700 hover:bg-red-50"
        >
          Cancel receipt
        </ConfirmButton>
      </Form>
    </Card>
  );
}

/** A submit button that asks first once JavaScript runs (before that, the click submits). */
function ConfirmButton({
  intent,
  question,
  disabled,
  className,
  children,
}: {
  intent: ReceiptIntent;
  question: string;
  disabled: boolean;
  className: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      disabled={disabled}
      onClick={(event) => {
        if (!window.confirm(question)) event.preventDefault();
      }}
      className={`inline-flex items-center justify-center rounded-md px-3 py-2 font-medium text-sm disabled:opacity-60 ${className}`}
    >
      {children}
    </button>
  );
}
