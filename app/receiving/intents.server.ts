// The open receipt's actions (/receiving/:receiptId/add-products), one small handler per intent:
// parse its form (./forms), call one receiving verb, answer with the shared glue
// (app/http/outcome.server.ts). The page stays after a scan or a refusal, with what the scan read
// and what was typed; a success goes on with a toast. The route only reads the intent, checks the
// permission and looks the handler up in RECEIPT_INTENT_HANDLERS.
import { data } from "@remix-run/cloudflare";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { fieldErrorsOf } from "~/forms/field-errors";
import { orOutage } from "~/http/outage.server";
import { done, type FormAnswer, refused as refusedForm } from "~/http/outcome.server";
import { formatDate } from "~/ui/dates";
import { addReceiptLine } from "./add-line.server";
import { attachGtin } from "./attach-gtin.server";
import { cancelReceipt } from "./cancel.server";
import { completeReceipt } from "./complete.server";
import {
  addProductsPath,
  type ExpiryNotice,
  type LineFormValues,
  printLabelsPath,
  type ReceiptIntent,
  type ScanReading,
} from "./constants";
import { AttachGtinForm, CompleteReceiptForm, expiryNoticeOf, LineRef, ReceiptLineForm, ScanForm } from "./forms";
import type { ReceivingRefused } from "./outcome";
import { removeReceiptLine } from "./remove-line.server";
import { prefillOf, readScan } from "./scan.server";

export interface ReceiptIntentArgs {
  db: Database;
  actor: ScopedActor;
  receiptId: string;
  form: Record<string, FormDataEntryValue>;
}

/** What the action answers when the page stays: a scan's reading, or a refusal next to its form. */
export interface ReceiptAnswer {
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

function answer(intent: ReceiptIntent, status: number, parts: Partial<Omit<ReceiptAnswer, "intent">>) {
  const expirationDate = parts.line?.expirationDate || null;
  return data<ReceiptAnswer>(
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
  over_receipt_reason: "overReceiptReason",
};

/** A refusal as the page shows it (the shared glue: 403/404 screens, else its field), with the forms' state. */
function refused(intent: ReceiptIntent, result: ReceivingRefused, parts: Partial<ReceiptAnswer> = {}) {
  const problem = refusedForm(result, {}, { fields: REFUSAL_FIELDS }).data;
  return answer(intent, 409, { ...parts, ...problem });
}

const text = (v: FormDataEntryValue | undefined) => (typeof v === "string" ? v : "");

/** "6 items and 2 bulk packages received at Downtown." */
function receivedText(r: { items: number; bulkPackages: number; location: string }) {
  const parts = [
    r.items > 0 ? `${r.items} ${r.items === 1 ? "item" : "items"}` : null,
    r.bulkPackages > 0 ? `${r.bulkPackages} bulk ${r.bulkPackages === 1 ? "package" : "packages"}` : null,
  ].filter(Boolean);
  return `${parts.join(" and ")} received at ${r.location}.`;
}

/** Read a scanned code: what it names fills the "Add line" form; an unknown GTIN offers the attach form. */
async function scan({ db, actor, receiptId, form }: ReceiptIntentArgs) {
  const scanned = ScanForm.safeParse(form);
  if (!scanned.success) {
    const message =
      "That scan is too long to be one package's barcode. Scan one label at a time, or choose the product below.";
    return answer("scan", 400, { reading: { kind: "unreadable", message } });
  }
  const result = await orOutage(readScan(db, actor, { receiptId, scan: scanned.data.scan }));
  if (!result.ok) return refused("scan", result);
  const { reading } = result;
  if (reading.kind === "unreadable") return answer("scan", 400, { reading });
  return answer("scan", 200, { reading, line: reading.prefill });
}

/** Attach a scanned unknown GTIN to a variation, then read the scan again as found. */
async function attach({ db, actor, form }: ReceiptIntentArgs) {
  const parsed = AttachGtinForm.safeParse(form);
  if (!parsed.success) {
    // Keep offering the attach form for the scanned GTIN, with what the scan said.
    const scanned = { lot: text(form.lot), expirationDate: text(form.expirationDate), serial: text(form.serial) };
    const unknown: ScanReading = { kind: "unknown", gtin: text(form.gtin), prefill: prefillOf(null, scanned) };
    return answer("attach-gtin", 400, {
      reading: unknown,
      line: unknown.prefill,
      formError: "Choose the variation this GTIN belongs to.",
    });
  }
  const { gtin, variationId, ...scanned } = parsed.data;
  const unknown: ScanReading = { kind: "unknown", gtin, prefill: prefillOf(null, scanned) };
  const result = await orOutage(attachGtin(db, actor, { gtin, variationId }));
  if (!result.ok) return refused("attach-gtin", result, { reading: unknown, line: unknown.prefill });
  // The scan again, now that the catalogue knows its GTIN.
  const prefill = prefillOf(variationId, scanned);
  return answer("attach-gtin", 200, {
    reading: { kind: "found", gtin, label: result.label, prefill },
    line: prefill,
    note: `GTIN ${gtin} now identifies ${result.label}.`,
  });
}

/** What the "Add line" form held, to show it again after a refusal. */
function typedLine(form: ReceiptIntentArgs["form"]): LineFormValues {
  return {
    variationId: text(form.variationId),
    quantity: text(form.quantity),
    lot: text(form.lot),
    expirationDate: text(form.expirationDate),
    unitCost: text(form.unitCost),
    serial: text(form.serial),
    expiryConfirmed: text(form.expiryConfirmed) === "on",
    expiryReason: text(form.expiryReason),
  };
}

async function addLine({ db, actor, receiptId, form }: ReceiptIntentArgs) {
  const typed = typedLine(form);
  const parsed = ReceiptLineForm.safeParse(form);
  if (!parsed.success) {
    // A bad idempotency key is the page's fault, not a field's: said above the form.
    const { idempotencyKey: badKey, ...fieldErrors } = fieldErrorsOf(parsed.error);
    return answer("add-line", 400, { fieldErrors, formError: badKey ?? null, line: typed });
  }
  const result = await orOutage(addReceiptLine(db, actor, { receiptId, ...parsed.data }));
  if (!result.ok) return refused("add-line", result, { line: typed });
  const { quantity, lot } = parsed.data;
  return done(addProductsPath(receiptId), "Line added", `${quantity} × ${result.label}${lot ? `, lot ${lot}` : ""}.`);
}

async function removeLine({ db, actor, receiptId, form }: ReceiptIntentArgs) {
  const parsed = LineRef.safeParse(form);
  if (!parsed.success) throw data("Choose a line.", { status: 400 });
  const result = await orOutage(removeReceiptLine(db, actor, { receiptId, lineId: parsed.data.lineId }));
  if (!result.ok) return refused("remove-line", result);
  return done(addProductsPath(receiptId), "Line removed", `${result.label} is no longer on this receipt.`);
}

/** Every line into stock (and, against an order, the order advanced); then on to printing the labels. */
async function complete({ db, actor, receiptId, form }: ReceiptIntentArgs) {
  const parsed = CompleteReceiptForm.safeParse(form);
  if (!parsed.success) return answer("complete", 400, { fieldErrors: fieldErrorsOf(parsed.error) });
  const result = await orOutage(completeReceipt(db, actor, { receiptId, ...parsed.data }));
  if (!result.ok) return refused("complete", result);
  return done(printLabelsPath(receiptId), "Receipt completed", receivedText(result));
}

async function cancel({ db, actor, receiptId }: ReceiptIntentArgs) {
  const result = await orOutage(cancelReceipt(db, actor, { receiptId }));
  if (!result.ok) return refused("cancel", result);
  return done("/receiving", "Receipt cancelled", "Nothing was received. The receipt is kept as history.");
}

export const RECEIPT_INTENT_HANDLERS: Record<ReceiptIntent, (args: ReceiptIntentArgs) => FormAnswer<ReceiptAnswer>> = {
  scan,
  "attach-gtin": attach,
  "add-line": addLine,
  "remove-line": removeLine,
  complete,
  cancel,
};
