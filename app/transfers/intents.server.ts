// A transfer's page actions (/transfers/:id), one small handler per intent: parse its form
// (./forms), call one transfers verb, answer with the shared glue (app/http/outcome.server.ts): a
// success goes on with a toast, a refusal stays on the page with its message where the form is.
// Receiving a line as missing, damaged or short asks first, naming what will be booked as lost.
import { data } from "@remix-run/cloudflare";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { fieldErrorsOf } from "~/forms/field-errors";
import { orOutage } from "~/http/outage.server";
import { done, type FormAnswer } from "~/http/outcome.server";
import { FORBIDDEN } from "~/outcome";
import { addTransferLine } from "./add-line.server";
import { cancelTransfer } from "./cancel.server";
import { RECEIVE_STATUSES, type ReceiveStatus, transferPath } from "./constants";
import { AddBulkForm, AddVialForm, CancelBody, LineRef, ReceiveLine, ResolveForm } from "./forms";
import type { TransferRefused } from "./outcome";
import { readTransfer } from "./read.server";
import { recallTransfer } from "./recall.server";
import { receiveTransfer } from "./receive.server";
import { removeTransferLine } from "./remove-line.server";
import { resolveDiscrepancy } from "./resolve.server";
import { sendTransfer } from "./send.server";

export const TRANSFER_INTENTS = [
  "add-vial",
  "add-bulk",
  "remove-line",
  "send",
  "receive",
  "receive-scan",
  "resolve",
  "cancel",
  "recall",
] as const;
export type TransferIntent = (typeof TRANSFER_INTENTS)[number];

export interface TransferIntentArgs {
  db: Database;
  actor: ScopedActor;
  transferId: string;
  form: Record<string, FormDataEntryValue>;
}

/** What the action answers when the page stays: which form, its message, what was typed, a question. */
export interface TransferAnswer {
  intent: TransferIntent;
  formError: string | null;
  fieldErrors: Record<string, string>;
  /** The line a per-line form was about (resolve). */
  lineId: string | null;
  typed: Record<string, string>;
  /** Receiving with losses: the question asked before booking them. */
  ask: string | null;
}

const text = (v: FormDataEntryValue | undefined) => (typeof v === "string" ? v : "");

function answer(intent: TransferIntent, status: number, parts: Partial<Omit<TransferAnswer, "intent">>) {
  return data<TransferAnswer>(
    { intent, formError: null, fieldErrors: {}, lineId: null, typed: {}, ask: null, ...parts },
    { status },
  );
}

function refused(intent: TransferIntent, result: TransferRefused, parts: Partial<TransferAnswer> = {}) {
  if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
  if (result.refusal === "not_found") throw data(result.message, { status: 404 });
  return answer(intent, 409, { ...parts, formError: result.message });
}

function typedOf(form: TransferIntentArgs["form"]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => k !== "intent")
      .map(([k, v]) => [k, text(v)]),
  );
}

const here = (transferId: string) => transferPath(transferId);

async function addVial({ db, actor, transferId, form }: TransferIntentArgs) {
  const parsed = AddVialForm.safeParse(form);
  if (!parsed.success)
    return answer("add-vial", 400, { fieldErrors: fieldErrorsOf(parsed.error), typed: typedOf(form) });
  const result = await orOutage(addTransferLine(db, actor, { transferId, line: { labelCode: parsed.data.labelCode } }));
  if (!result.ok) return refused("add-vial", result, { typed: typedOf(form) });
  return done(here(transferId), "Vial added", `${result.label}.`);
}

async function addBulk({ db, actor, transferId, form }: TransferIntentArgs) {
  const parsed = AddBulkForm.safeParse(form);
  const typed = typedOf(form);
  if (!parsed.success)
    return answer("add-bulk", 400, { fieldErrors: fieldErrorsOf(parsed.error), typed, lineId: text(form.variationId) });
  const result = await orOutage(addTransferLine(db, actor, { transferId, line: parsed.data }));
  if (!result.ok) return refused("add-bulk", result, { typed, lineId: parsed.data.variationId });
  return done(here(transferId), "Added", `${result.label}.`);
}

async function removeLine({ db, actor, transferId, form }: TransferIntentArgs) {
  const parsed = LineRef.safeParse(form);
  if (!parsed.success) throw data("Choose a line.", { status: 400 });
  const result = await orOutage(removeTransferLine(db, actor, { transferId, lineId: parsed.data.lineId }));
  if (!result.ok) return refused("remove-line", result);
  return done(here(transferId), "Line removed", `${result.label} is no longer on this transfer.`);
}

async function send({ db, actor, transferId, form }: TransferIntentArgs) {
  const result = await orOutage(
    sendTransfer(db, actor, { transferId, idempotencyKey: text(form.idempotencyKey) || null }),
  );
  if (!result.ok) return refused("send", result);
  return done(here(transferId), "Transfer sent", "It is on the way; the destination receives it when it arrives.");
}

/** The receive form's lines: `status:<lineId>`, `quantity:<lineId>`, `reason:<lineId>`; "" is not yet. */
function marksOf(form: TransferIntentArgs["form"]) {
  const marks: Record<string, unknown>[] = [];
  for (const [name, value] of Object.entries(form)) {
    if (!name.startsWith("status:")) continue;
    const lineId = name.slice("status:".length);
    const status = text(value);
    if (!status) continue;
    marks.push({ lineId, status, quantity: text(form[`quantity:${lineId}`]), reason: text(form[`reason:${lineId}`]) });
  }
  return marks;
}

const LOSS_WORDS: Record<Exclude<ReceiveStatus, "received">, string> = {
  missing: "missing (booked as lost in transit)",
  damaged: "damaged (discarded)",
  short: "short (what did not arrive booked as lost in transit)",
};

async function receive({ db, actor, transferId, form }: TransferIntentArgs) {
  const typed = typedOf(form);
  const marks = marksOf(form);
  if (marks.length === 0) return answer("receive", 400, { formError: "Mark at least one line as it arrived.", typed });
  const fieldErrors: Record<string, string> = {};
  const parsedMarks = [];
  for (const mark of marks) {
    const parsed = ReceiveLine.safeParse(mark);
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrorsOf(parsed.error)))
        fieldErrors[`${field}:${mark.lineId}`] = message;
    } else parsedMarks.push(parsed.data);
  }
  if (Object.keys(fieldErrors).length > 0) return answer("receive", 400, { fieldErrors, typed });
  // A loss is booked only once the person has seen what it is and confirmed it.
  const losses = parsedMarks.filter((m) => m.status !== "received");
  if (losses.length > 0 && text(form.confirm) !== "yes") {
    const transfer = await orOutage(readTransfer(db, actor, transferId));
    if (!transfer) throw data("That transfer does not exist at this location.", { status: 404 });
    const said = losses.map((m) => {
      const line = transfer.lines.find((l) => l.id === m.lineId);
      const what = line?.labelCode
        ? `Vial ${line.labelCode} (${line.product})`
        : `${line?.quantity ?? ""} ${line?.baseUnit ?? ""} of ${line?.product ?? "this line"}`;
      const status = m.status as Exclude<ReceiveStatus, "received">;
      const lost = status === "short" && line ? ` ${line.quantity - (m.quantity ?? 0)} ${line.baseUnit} lost.` : "";
      return `${what}: ${LOSS_WORDS[status]}.${lost}`;
    });
    const ask = `Book these at ${transfer.toName}? ${said.join(" ")} This cannot be undone; the discrepancy stays open until resolved.`;
    return answer("receive", 200, { ask, typed });
  }
  const result = await orOutage(
    receiveTransfer(db, actor, { transferId, lines: parsedMarks, idempotencyKey: text(form.idempotencyKey) || null }),
  );
  if (!result.ok) return refused("receive", result, { typed });
  const words =
    result.status === "received"
      ? "Nothing is left to receive."
      : "Lines still on the way can be received when they arrive.";
  return done(here(transferId), "Received", `${result.received} received, ${result.discrepancies} marked. ${words}`);
}

/** A vial scanned as it comes out of the box: that line is received. */
async function receiveScan({ db, actor, transferId, form }: TransferIntentArgs) {
  const parsed = AddVialForm.safeParse(form);
  if (!parsed.success) return answer("receive-scan", 400, { fieldErrors: fieldErrorsOf(parsed.error) });
  const transfer = await orOutage(readTransfer(db, actor, transferId));
  if (!transfer) throw data("That transfer does not exist at this location.", { status: 404 });
  const code = parsed.data.labelCode.toUpperCase();
  const line = transfer.lines.find((l) => l.labelCode === code);
  if (!line) {
    return answer("receive-scan", 409, {
      fieldErrors: {
        labelCode: `Vial ${code} is not on this transfer. Check the label, or receive it on its own transfer.`,
      },
    });
  }
  const result = await orOutage(
    receiveTransfer(db, actor, { transferId, lines: [{ lineId: line.id, status: "received" }] }),
  );
  if (!result.ok) return refused("receive-scan", result);
  return done(here(transferId), "Vial received", `${line.product}, vial ${code}, is on ${transfer.toName}'s shelf.`);
}

async function resolve({ db, actor, transferId, form }: TransferIntentArgs) {
  const parsed = ResolveForm.safeParse(form);
  const lineId = text(form.lineId);
  if (!parsed.success)
    return answer("resolve", 400, { fieldErrors: fieldErrorsOf(parsed.error), lineId, typed: typedOf(form) });
  const result = await orOutage(resolveDiscrepancy(db, actor, { transferId, ...parsed.data }));
  if (!result.ok) return refused("resolve", result, { lineId });
  return done(here(transferId), "Discrepancy resolved", `The note is kept on the line for ${result.label}.`);
}

async function cancel({ db, actor, transferId, form }: TransferIntentArgs) {
  const parsed = CancelBody.safeParse({ reason: text(form.reason) });
  if (!parsed.success) return answer("cancel", 400, { fieldErrors: fieldErrorsOf(parsed.error), typed: typedOf(form) });
  const result = await orOutage(cancelTransfer(db, actor, { transferId, reason: parsed.data.reason }));
  if (!result.ok) return refused("cancel", result);
  return done(here(transferId), "Transfer cancelled", "Nothing moved. It is kept as history.");
}

async function recall({ db, actor, transferId, form }: TransferIntentArgs) {
  const parsed = CancelBody.safeParse({ reason: text(form.reason) });
  if (!parsed.success) return answer("recall", 400, { fieldErrors: fieldErrorsOf(parsed.error), typed: typedOf(form) });
  const result = await orOutage(recallTransfer(db, actor, { transferId, reason: parsed.data.reason }));
  if (!result.ok) return refused("recall", result);
  return done(here(transferId), "Transfer recalled", "Everything on it is back on the sender's stock.");
}

export const TRANSFER_INTENT_HANDLERS: Record<
  TransferIntent,
  (args: TransferIntentArgs) => FormAnswer<TransferAnswer>
> = {
  "add-vial": addVial,
  "add-bulk": addBulk,
  "remove-line": removeLine,
  send,
  receive,
  "receive-scan": receiveScan,
  resolve,
  cancel,
  recall,
};

/** The permission an intent needs where the actor stands (the verb then checks the transfer's own location). */
export function permissionOf(intent: TransferIntent) {
  return intent === "receive" || intent === "receive-scan"
    ? ("WRITE_INVENTORY" as const)
    : ("WRITE_TRANSFERS" as const);
}

export { RECEIVE_STATUSES };
