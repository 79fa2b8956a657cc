// /receiving/:receiptId/add-products: one receipt of the location in scope. While it is open, people
// with WRITE_INVENTORY there scan packages (GS1: product, lot, expiry, serial fill "Add line"), add
// and remove lines, and complete it (stock in, then its labels) or cancel it. Completed and
// cancelled receipts are read-only; a receipt of another location or organization is not found.
// A receipt against a purchase order lists what the order still expects; `?fill=<variationId>` fills
// "Add line" with one of its lines, and completing asks why when it brings more than expected. The
// order itself is shown to those who read purchasing at the receipt's location (staff do not).

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { refreshingClientAction } from "~/browser/refresh-after-action";
import { formatMoney, formatQuantity } from "~/catalog/format";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { FORBIDDEN } from "~/outcome";
import {
  addProductsPath,
  EMPTY_LINE,
  type LineFormValues,
  printLabelsPath,
  RECEIPT_INTENTS,
  type ReceiptIntent,
} from "~/receiving/constants";
import { RECEIPT_INTENT_HANDLERS } from "~/receiving/intents.server";
import { AddLineForm, ScanSection } from "~/receiving/line-forms";
import { receiptDetail } from "~/receiving/list.server";
import { FinishReceipt, OrderExpected, ReceiptLines } from "~/receiving/receipt-sections";
import { ReceiptStatusBadge } from "~/receiving/receipt-status";
import { expectedOf, prefillOf } from "~/receiving/scan.server";
import { area } from "~/shell/areas";
import { ScreenErrorBoundary } from "~/shell/screen-error-boundary";
import type { ExpectedLine } from "~/stock/order-receiving.server";
import { formatDate, showInstant, Time } from "~/ui/dates";
import { Card, Facts, LINK_BUTTON } from "~/ui/form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.receipt.started ? `Receipt ${data.receipt.started.text}` : "Receipt"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/receiving/{receiptId}/add-products").permission);
  const found = await orOutage(receiptDetail(args.context.db, actor, args.params.receiptId ?? ""));
  if (!found) throw data("This receipt was not found.", { status: 404 });
  const { receipt, lines, items, choices } = found;
  // The order and what it expects are purchasing's: shown to those who read orders there (not staff).
  const readsOrders = can(actor, "READ_PURCHASING", receipt.locationId);
  const order = readsOrders ? found.order : null;
  const expected = readsOrders ? found.expected : [];
  // Reached only at its own location, so this is the permission there (never just the selected one).
  if (!can(actor, "READ_INVENTORY", receipt.locationId)) throw data(FORBIDDEN, { status: 403 });
  return {
    receipt: {
      id: receipt.id,
      status: receipt.status,
      location: `${receipt.location} (${receipt.locationCode})`,
      vendor: receipt.vendor,
      reference: receipt.reference,
      notes: receipt.notes,
      started: showInstant(receipt.createdAt, receipt.timezone),
      openedBy: receipt.openedBy,
      completed: showInstant(receipt.completedAt, receipt.timezone),
      completedBy: receipt.completedBy,
    },
    lines: lines.map((l) => ({
      id: l.id,
      label: `${l.product} · ${l.variation}`,
      productId: l.productId,
      tracking: l.tracking,
      quantity: Number(l.quantity),
      units: formatQuantity(Number(l.quantity) * Number(l.unitsPerPackage), l.unitScale, l.baseUnit),
      lot: l.lot,
      serial: l.serial,
      expirationDate: l.expirationDate ? formatDate(l.expirationDate) : null,
      expiryReason: l.expiryReason,
      unitCost: l.unitCostCents === null ? null : formatMoney(l.unitCostCents),
    })),
    items,
    order,
    expected: expected.map((e) => ({
      variationId: e.variationId,
      label: `${e.product} · ${e.variation}`,
      vendorSku: e.vendorSku,
      ordered: Number(e.packagesOrdered),
      received: Number(e.packagesReceived),
      onReceipt: Number(e.onReceipt),
      toReceive: Math.max(Number(e.outstanding) - Number(e.onReceipt), 0),
      unitCost: formatMoney(Number(e.unitCostCents)),
      fillHref: `${addProductsPath(receipt.id)}?${new URLSearchParams({ fill: e.variationId })}`,
    })),
    /** "Receive" on an expected line: Add line filled with it. */
    fill: fillOf(expected, new URL(args.request.url).searchParams.get("fill")),
    overReceipt: receipt.status === "open" && Boolean(receipt.over),
    overReceiptReason: receipt.overReceiptReason,
    choices: choices.map(({ gtin: _gtin, ...c }) => c),
    // Unknown GTINs may be attached to variations that have none (WRITE_PRODUCTS where the viewer stands).
    attachChoices: choices.filter((c) => c.gtin === null).map(({ gtin: _gtin, ...c }) => c),
    canWrite: receipt.status === "open" && can(actor, "WRITE_INVENTORY", receipt.locationId),
    canAttach: can(actor, "WRITE_PRODUCTS", actor.locationId),
    /** The "Add line" form's idempotency key: fresh with every page, so a double submit adds one line. */
    lineKey: newIdempotencyKey(),
  };
}

/** Add line's values for the order line of `variationId` (packages still expected, the order's cost); null if none. */
function fillOf(expected: readonly ExpectedLine[], variationId: string | null): LineFormValues | null {
  const line = expected.find((e) => e.variationId === variationId);
  if (!line) return null;
  return prefillOf(line.variationId, {}, expectedOf([line]));
}

/** After completing, the spec's refresh set for receive_vials; after attaching a GTIN, update_variation's. */
export const clientAction = refreshingClientAction({ complete: "receive_vials", "attach-gtin": "update_variation" });

export async function action(args: ActionFunctionArgs) {
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, RECEIPT_INTENTS);
  // Attaching a GTIN changes the catalogue; everything else is stock at the receipt's location,
  // which the verbs only reach at the location in scope.
  const actor = await actorHere(args, intent === "attach-gtin" ? "WRITE_PRODUCTS" : "WRITE_INVENTORY");
  const receiptId = args.params.receiptId ?? "";
  return RECEIPT_INTENT_HANDLERS[intent]({ db: args.context.db, actor, receiptId, form });
}

export default function AddProductsScreen() {
  const {
    receipt,
    lines,
    items,
    choices,
    attachChoices,
    canWrite,
    canAttach,
    lineKey,
    order,
    expected,
    fill,
    overReceipt,
    overReceiptReason,
  } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() ?? null;
  const busy = useNavigation().state === "submitting";
  // Every page load (and every answer) remounts the scan box, so it is empty and focused again.
  const { key } = useLocation();
  const reading = result?.reading ?? null;
  const lineValues = result?.line ?? fill ?? EMPTY_LINE;
  const failed = (intent: ReceiptIntent) => (result?.intent === intent ? result : null);

  return (
    <div className="flex max-w-5xl flex-col gap-4">
      <div>
        <Link to="/receiving" className="text-sky-800 text-sm hover:underline">
          ← Receiving
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="font-semibold text-2xl">Receipt at {receipt.location}</h1>
          <ReceiptStatusBadge status={receipt.status} />
        </div>
      </div>

      <Card title="Delivery">
        <Facts
          items={[
            ["Location", receipt.location],
            ["Vendor", receipt.vendor ?? "—"],
            ...(order
              ? ([
                  [
                    "Purchase order",
                    <Link key="order" to={`/purchase-orders/${order.id}`} className="text-sky-800 hover:underline">
                      {order.number}
                    </Link>,
                  ],
                ] as [string, ReactNode][])
              : []),
            ...(overReceiptReason
              ? ([["Received more than ordered", overReceiptReason]] as [string, ReactNode][])
              : []),
            ["Reference", receipt.reference ?? "—"],
            ["Status", <ReceiptStatusBadge key="status" status={receipt.status} />],
            [
              "Started",
              <>
                <Time at={receipt.started} />
                {receipt.openedBy ? ` by ${receipt.openedBy}` : ""}
              </>,
            ],
            ...(receipt.completed
              ? ([
                  [
                    "Completed",
                    <>
                      <Time at={receipt.completed} />
                      {receipt.completedBy ? ` by ${receipt.completedBy}` : ""}
                    </>,
                  ],
                ] as [string, ReactNode][])
              : []),
            ...(receipt.notes ? ([["Notes", receipt.notes]] as [string, ReactNode][]) : []),
          ]}
        />
        {receipt.status === "completed" && (
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <p className="text-slate-700 text-sm">
              Received: {items} labelled {items === 1 ? "item" : "items"}. A completed receipt cannot change; correct
              stock with an adjustment.
            </p>
            <Link to={printLabelsPath(receipt.id)} className={LINK_BUTTON}>
              Print labels
            </Link>
          </div>
        )}
        {receipt.status === "cancelled" && (
          <p className="mt-4 text-slate-700 text-sm">This receipt was cancelled: nothing was received.</p>
        )}
      </Card>

      {/* While it is open; a closed receipt's order is linked under Delivery (its own page says what arrived). */}
      {order && receipt.status === "open" && <OrderExpected order={order} rows={expected} canWrite={canWrite} />}

      {canWrite && (
        <>
          <Card title="Scan">
            <ScanSection
              key={key}
              reading={reading}
              note={result?.note ?? null}
              expires={result?.expires ?? null}
              formError={failed("scan")?.formError ?? null}
              attach={{ allowed: canAttach, choices: attachChoices, error: failed("attach-gtin")?.formError ?? null }}
              busy={busy}
            />
          </Card>
          <Card title="Add line">
            {/* New values (a scan, a refusal) remount the form so it shows them. */}
            <AddLineForm
              key={JSON.stringify(lineValues)}
              values={lineValues}
              choices={choices}
              fieldErrors={failed("add-line")?.fieldErrors ?? {}}
              formError={failed("add-line")?.formError}
              busy={busy}
              idempotencyKey={lineKey}
              expiry={result?.expiry ?? null}
            />
          </Card>
        </>
      )}

      <ReceiptLines lines={lines} canWrite={canWrite} formError={failed("remove-line")?.formError} busy={busy} />

      {canWrite && (
        <FinishReceipt
          location={receipt.location}
          lineCount={lines.length}
          formError={failed("complete")?.formError ?? failed("cancel")?.formError}
          busy={busy}
          overReceipt={{ needed: overReceipt, error: failed("complete")?.fieldErrors.overReceiptReason }}
        />
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <ScreenErrorBoundary
      notFound={{
        title: "Receipt not found",
        text: "This receipt does not exist at the location you are working at.",
        back: { to: "/receiving", label: "Back to Receiving" },
      }}
    />
  );
}
