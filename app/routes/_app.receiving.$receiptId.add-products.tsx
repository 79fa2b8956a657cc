// /receiving/:receiptId/add-products: one receipt of the location in scope. While it is open, people
// with WRITE_INVENTORY there scan packages (GS1: product, lot, expiry, serial fill "Add line"), add
// and remove lines, and complete it (stock in, then its labels) or cancel it. Completed and
// cancelled receipts are read-only; a receipt of another location or organization is not found.

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { ScopedActor } from "~/access/actor";
import { requirePermission } from "~/access/guard.server";
import { can } from "~/access/permissions";
import { refreshingClientAction } from "~/browser/refresh-after-action";
import { formatMoney, formatQuantity } from "~/catalog/format";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { done, intentOf, refused as refusedForm } from "~/http/outcome.server";
import { FORBIDDEN } from "~/outcome";
import { addReceiptLine } from "~/receiving/add-line.server";
import { attachGtin } from "~/receiving/attach-gtin.server";
import { cancelReceipt } from "~/receiving/cancel.server";
import { completeReceipt } from "~/receiving/complete.server";
import {
  addProductsPath,
  EMPTY_LINE,
  type ExpiryNotice,
  type LineFormValues,
  printLabelsPath,
  RECEIPT_INTENTS,
  type ReceiptIntent,
  type ScanReading,
} from "~/receiving/constants";
import {
  AttachGtinForm as AttachGtinFields,
  expiryNoticeOf,
  LineRef,
  ReceiptLineForm,
  ScanForm,
} from "~/receiving/forms";
import { AddLineForm, ScanSection } from "~/receiving/line-forms";
import { receiptDetail } from "~/receiving/list.server";
import type { ReceivingRefused } from "~/receiving/outcome";
import { ReceiptStatusBadge } from "~/receiving/receipt-status";
import { removeReceiptLine } from "~/receiving/remove-line.server";
import { prefillOf, readScan } from "~/receiving/scan.server";
import { area } from "~/shell/areas";
import { ScreenErrorBoundary } from "~/shell/screen-error-boundary";
import { formatDate, showInstant, Time } from "~/ui/dates";
import { fieldErrorsOf } from "~/ui/field-errors";
import { Card, Facts, FormAlert, LINK_BUTTON } from "~/ui/form";
import { CELL, DataRow, DataTable } from "~/ui/table";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.receipt.started ? `Receipt ${data.receipt.started.text}` : "Receipt"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const viewer = await requirePermission(args, area("/receiving/{receiptId}/add-products").permission);
  const { user, scope } = viewer;
  const actor: ScopedActor = { ...user, locationId: scope.locationId };
  const found = await orOutage(receiptDetail(args.context.db, actor, args.params.receiptId ?? ""));
  if (!found) throw data("This receipt was not found.", { status: 404 });
  const { receipt, lines, items, choices } = found;
  // Reached only at its own location, so this is the permission there (never just the selected one).
  if (!can(user, "READ_INVENTORY", receipt.locationId)) throw data(FORBIDDEN, { status: 403 });
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
    choices: choices.map(({ gtin: _gtin, ...c }) => c),
    // Unknown GTINs may be attached to variations that have none (WRITE_PRODUCTS where the viewer stands).
    attachChoices: choices.filter((c) => c.gtin === null).map(({ gtin: _gtin, ...c }) => c),
    canWrite: receipt.status === "open" && can(user, "WRITE_INVENTORY", receipt.locationId),
    canAttach: can(user, "WRITE_PRODUCTS", scope.locationId),
    /** The "Add line" form's idempotency key: fresh with every page, so a double submit adds one line. */
    lineKey: newIdempotencyKey(),
  };
}

/** What the action answers when the page stays: a scan's reading, or a refusal next to its form. */
interface Answer {
  intent: ReceiptIntent;
  fieldErrors: Record<string, string>;
  formError: string | null;
  /** The "Add line" form's values: a scan's prefill, or what was typed before a refusal. */
  line: LineFormValues | null;
  reading: ScanReading | null;
  /** Said above the form after a successful attach: which variation the GTIN now names. */
  note: string | null;
  /** The line's lot is expired or dated far ahead: the form asks for a confirmation and a reason. */
  expiry: ExpiryNotice | null;
  /** The line's expiration date as the page writes it ('MMM d, yyyy'), for the scan's message. */
  expires: string | null;
}

function answer(intent: ReceiptIntent, status: number, parts: Partial<Omit<Answer, "intent">>) {
  const expirationDate = parts.line?.expirationDate || null;
  return data<Answer>(
    {
      intent,
      fieldErrors: {},
      formError: null,
      line: null,
      reading: null,
      note: null,
      expiry: expiryNoticeOf(expirationDate, new Date()),
      expires: expirationDate ? formatDate(expirationDate) : null,
      ...parts,
    },
    { status },
  );
}

/** The field of the "Add line" form a refusal is shown under; null: above the form. */
const REFUSAL_FIELDS: Partial<Record<ReceivingRefused["refusal"], string>> = {
  variation_unavailable: "variationId",
  untraced: "lot",
  expiry_unconfirmed: "expirationDate",
  expiry_reason: "expiryReason",
  serial_taken: "serial",
};

/** A refusal as the page shows it (the shared glue: 403/404 screens, else its field), with the forms' state. */
function refused(intent: ReceiptIntent, result: ReceivingRefused, parts: Partial<Answer> = {}) {
  const problem = refusedForm(result, {}, { fields: REFUSAL_FIELDS }).data;
  return answer(intent, 409, { ...parts, ...problem });
}

const text = (v: FormDataEntryValue | undefined) => (typeof v === "string" ? v : "");

/** After completing, the spec's refresh set for receive_vials; after attaching a GTIN, update_variation's. */
export const clientAction = refreshingClientAction({ complete: "receive_vials", "attach-gtin": "update_variation" });

export async function action(args: ActionFunctionArgs) {
  const receiptId = args.params.receiptId ?? "";
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, RECEIPT_INTENTS);
  // Attaching a GTIN changes the catalogue; everything else is stock at the receipt's location,
  // which the verbs only reach at the location in scope.
  const viewer = await requirePermission(args, intent === "attach-gtin" ? "WRITE_PRODUCTS" : "WRITE_INVENTORY");
  const actor: ScopedActor = { ...viewer.user, locationId: viewer.scope.locationId };
  const { db } = args.context;
  const here = addProductsPath(receiptId);

  switch (intent) {
    case "scan": {
      const scanned = ScanForm.safeParse(form);
      if (!scanned.success) {
        const message =
          "That scan is too long to be one package's barcode. Scan one label at a time, or choose the product below.";
        return answer(intent, 400, { reading: { kind: "unreadable", message } });
      }
      const result = await orOutage(readScan(db, actor, { receiptId, scan: scanned.data.scan }));
      if (!result.ok) return refused(intent, result);
      const { reading } = result;
      if (reading.kind === "unreadable") return answer(intent, 400, { reading });
      return answer(intent, 200, { reading, line: reading.prefill });
    }
    case "attach-gtin": {
      const parsed = AttachGtinFields.safeParse(form);
      if (!parsed.success) {
        // Keep offering the attach form for the scanned GTIN, with what the scan said.
        const scanned = { lot: text(form.lot), expirationDate: text(form.expirationDate), serial: text(form.serial) };
        const unknown: ScanReading = { kind: "unknown", gtin: text(form.gtin), prefill: prefillOf(null, scanned) };
        return answer(intent, 400, {
          reading: unknown,
          line: unknown.prefill,
          formError: "Choose the variation this GTIN belongs to.",
        });
      }
      const { gtin, variationId, ...scanned } = parsed.data;
      const unknown: ScanReading = { kind: "unknown", gtin, prefill: prefillOf(null, scanned) };
      const result = await orOutage(attachGtin(db, actor, { gtin, variationId }));
      if (!result.ok) return refused(intent, result, { reading: unknown, line: unknown.prefill });
      // The scan again, now that the catalogue knows its GTIN.
      const prefill = prefillOf(variationId, scanned);
      return answer(intent, 200, {
        reading: { kind: "found", gtin, label: result.label, prefill },
        line: prefill,
        note: `GTIN ${gtin} now identifies ${result.label}.`,
      });
    }
    case "add-line": {
      const typed: LineFormValues = {
        variationId: text(form.variationId),
        quantity: text(form.quantity),
        lot: text(form.lot),
        expirationDate: text(form.expirationDate),
        unitCost: text(form.unitCost),
        serial: text(form.serial),
        expiryConfirmed: text(form.expiryConfirmed) === "on",
        expiryReason: text(form.expiryReason),
      };
      const parsed = ReceiptLineForm.safeParse(form);
      if (!parsed.success) {
        const { idempotencyKey: badKey, ...fieldErrors } = fieldErrorsOf(parsed.error);
        return answer(intent, 400, { fieldErrors, formError: badKey ?? null, line: typed });
      }
      const result = await orOutage(addReceiptLine(db, actor, { receiptId, ...parsed.data }));
      if (!result.ok) return refused(intent, result, { line: typed });
      const n = parsed.data.quantity;
      return done(here, "Line added", `${n} × ${result.label}${parsed.data.lot ? `, lot ${parsed.data.lot}` : ""}.`);
    }
    case "remove-line": {
      const parsed = LineRef.safeParse(form);
      if (!parsed.success) throw data("Choose a line.", { status: 400 });
      const result = await orOutage(removeReceiptLine(db, actor, { receiptId, lineId: parsed.data.lineId }));
      if (!result.ok) return refused(intent, result);
      return done(here, "Line removed", `${result.label} is no longer on this receipt.`);
    }
    case "complete": {
      const result = await orOutage(completeReceipt(db, actor, { receiptId }));
      if (!result.ok) return refused(intent, result);
      return done(printLabelsPath(receiptId), "Receipt completed", receivedText(result));
    }
    case "cancel": {
      const result = await orOutage(cancelReceipt(db, actor, { receiptId }));
      if (!result.ok) return refused(intent, result);
      return done("/receiving", "Receipt cancelled", "Nothing was received. The receipt is kept as history.");
    }
  }
}

/** "6 items and 2 bulk packages received at Downtown." */
function receivedText(r: { items: number; bulkPackages: number; location: string }) {
  const parts = [
    r.items > 0 ? `${r.items} ${r.items === 1 ? "item" : "items"}` : null,
    r.bulkPackages > 0 ? `${r.bulkPackages} bulk ${r.bulkPackages === 1 ? "package" : "packages"}` : null,
  ].filter(Boolean);
  return `${parts.join(" and ")} received at ${r.location}.`;
}

export default function AddProductsScreen() {
  const { receipt, lines, items, choices, attachChoices, canWrite, canAttach, lineKey } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() ?? null;
  const busy = useNavigation().state === "submitting";
  // Every page load (and every answer) remounts the scan box, so it is empty and focused again.
  const { key } = useLocation();
  const reading = result?.reading ?? null;
  const lineValues = result?.line ?? EMPTY_LINE;
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

      <Card title="Lines">
        <FormAlert message={failed("remove-line")?.formError} />
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

      {canWrite && (
        <Card title="Finish">
          <FormAlert message={failed("complete")?.formError ?? failed("cancel")?.formError} />
          <p className="mb-3 text-slate-600 text-sm">
            Completing puts every line in stock at {receipt.location} and cannot be undone; then print the labels.
            Cancelling keeps the receipt as history and receives nothing.
          </p>
          <Form method="post" className="flex flex-wrap items-center gap-3">
            <ConfirmButton
              intent="complete"
              question={`Complete this receipt? ${lines.length} ${lines.length === 1 ? "line goes" : "lines go"} into stock at ${receipt.location}, and the receipt can no longer change.`}
              disabled={busy || lines.length === 0}
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
      )}
    </div>
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
