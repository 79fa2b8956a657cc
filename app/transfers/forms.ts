// The transfers' input rules, one zod schema each, shared by the HTML forms (every value a string)
// and the JSON API (numbers may be numbers). Browser-safe: no server code. The verbs check what
// only the database knows (the vial's state and place, the stock on hand, the transfer's status).
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { line, lines } from "~/forms/text";
import { z } from "~/forms/zod";
import {
  NOTE_MAX,
  QUANTITY_MAX,
  REASON_MAX,
  RECEIVE_STATUSES,
  TRANSFER_LINES_MAX,
  TRANSFER_MESSAGES,
} from "./constants";

const id = (message: string) => line({ error: message }).trim().min(1, message).max(100, message);

/** A note that may be left out, sent empty or null: trimmed, "" is none. */
const optionalNote = (max: number, tooLong: string) =>
  lines({ error: tooLong })
    .nullish()
    .transform((v) => v?.trim() || null)
    .refine((v) => v === null || v.length <= max, tooLong);

/** A text the verb needs (a reason, a resolution), trimmed, 1 to `max` characters. */
const neededText = (max: number, message: string) => lines({ error: message }).trim().min(1, message).max(max, message);

/** A whole number of base units, 1 or more: a form's text or the API's number ("1.5", -3, "abc" refused). */
export const quantity = z.preprocess(
  (v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: TRANSFER_MESSAGES.quantity })
    .int(TRANSFER_MESSAGES.quantity)
    .min(1, TRANSFER_MESSAGES.quantity)
    .max(QUANTITY_MAX, TRANSFER_MESSAGES.quantity),
);

const idempotencyKey = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES.invalid)
  .nullish()
  .transform((v) => v ?? null);

/** A line to put on a transfer: a vial (by its id, or its label code) or a bulk quantity of a variation. */
export const LineInput = z.union([
  z.object({ itemId: id(TRANSFER_MESSAGES.labelCode) }).strict(),
  z.object({ labelCode: id(TRANSFER_MESSAGES.labelCode) }).strict(),
  z.object({ variationId: id(TRANSFER_MESSAGES.variation), quantity }).strict(),
]);
export type LineInput = z.output<typeof LineInput>;

/** A new transfer: from where to where, optionally with its lines (the API, a suggestion) and a note. */
export const CreateTransferInput = z.object({
  fromLocationId: id(TRANSFER_MESSAGES.location),
  toLocationId: id(TRANSFER_MESSAGES.location),
  note: optionalNote(NOTE_MAX, TRANSFER_MESSAGES.note),
  lines: z.array(LineInput).max(TRANSFER_LINES_MAX, TRANSFER_MESSAGES.tooManyLines).default([]),
  idempotencyKey,
});
export type CreateTransferInput = z.input<typeof CreateTransferInput>;

/** POST /api/transfers: as above, with at least one line. */
export const TransferBody = CreateTransferInput.omit({ idempotencyKey: true }).extend({
  lines: z
    .array(LineInput, { error: TRANSFER_MESSAGES.lines })
    .min(1, TRANSFER_MESSAGES.lines)
    .max(TRANSFER_LINES_MAX, TRANSFER_MESSAGES.tooManyLines),
});

/** A request for stock, made at the receiving location: from whom, and what is needed (the note). */
export const RequestTransferInput = z.object({
  fromLocationId: id(TRANSFER_MESSAGES.location),
  toLocationId: id(TRANSFER_MESSAGES.location),
  note: neededText(NOTE_MAX, TRANSFER_MESSAGES.requestNote),
});
export type RequestTransferInput = z.input<typeof RequestTransferInput>;

/** The "New transfer" form (from the location in scope) and the "Request stock" form (to it). */
export const NewTransferForm = z.object({
  toLocationId: id(TRANSFER_MESSAGES.location),
  note: optionalNote(NOTE_MAX, TRANSFER_MESSAGES.note),
});
export const RequestStockForm = z.object({
  fromLocationId: id(TRANSFER_MESSAGES.location),
  note: neededText(NOTE_MAX, TRANSFER_MESSAGES.requestNote),
});

/** The "draft from a suggestion" post: `lines` is JSON text of SuggestedLine[] (app/transfers/balance.ts). */
export const DraftFromSuggestionForm = z.object({
  fromLocationId: id(TRANSFER_MESSAGES.location),
  toLocationId: id(TRANSFER_MESSAGES.location),
  lines: z
    .string({ error: TRANSFER_MESSAGES.lines })
    .max(64 * 1024, TRANSFER_MESSAGES.tooManyLines)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: TRANSFER_MESSAGES.lines });
        return z.NEVER;
      }
    })
    .pipe(z.array(LineInput).min(1, TRANSFER_MESSAGES.lines).max(TRANSFER_LINES_MAX, TRANSFER_MESSAGES.tooManyLines)),
});

/** Adding a line to a draft: a vial by its label code, or a bulk quantity. */
export const AddLineInput = z.object({ transferId: id("Choose a transfer."), line: LineInput });
export type AddLineInput = z.input<typeof AddLineInput>;
export const AddVialForm = z.object({ labelCode: id(TRANSFER_MESSAGES.labelCode) });
export const AddBulkForm = z.object({ variationId: id(TRANSFER_MESSAGES.variation), quantity });

export const LineRef = z.object({ lineId: id("Choose a line.") });

/** One line's arrival: received (all of it), missing, damaged, or short (bulk: what arrived) with a reason. */
export const ReceiveLine = z
  .object({
    lineId: id("Choose a line."),
    status: z.enum(RECEIVE_STATUSES, { error: TRANSFER_MESSAGES.lineStatus }),
    quantity: z.preprocess(
      (v) =>
        v === "" || v === null ? undefined : typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v,
      z
        .number({ error: "Enter the quantity that arrived as a whole number, 0 or more." })
        .int("Enter the quantity that arrived as a whole number, 0 or more.")
        .min(0, "Enter the quantity that arrived as a whole number, 0 or more.")
        .max(QUANTITY_MAX, "Enter the quantity that arrived as a whole number, 0 or more.")
        .optional(),
    ),
    reason: optionalNote(REASON_MAX, TRANSFER_MESSAGES.reason),
  })
  .superRefine((l, ctx) => {
    if (l.status !== "received" && !l.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: TRANSFER_MESSAGES.reasonNeeded });
    if (l.status === "short" && l.quantity === undefined)
      ctx.addIssue({ code: "custom", path: ["quantity"], message: "Enter the quantity that arrived." });
  });
export type ReceiveLine = z.output<typeof ReceiveLine>;

export const ReceiveBody = z.object({
  lines: z
    .array(ReceiveLine, { error: "Name the lines that arrived." })
    .min(1, "Name the lines that arrived.")
    .max(TRANSFER_LINES_MAX),
});
export type ReceiveInput = z.input<typeof ReceiveBody> & { transferId: string; idempotencyKey?: string | null };

export const ResolveForm = z.object({
  lineId: id("Choose a line."),
  note: neededText(REASON_MAX, TRANSFER_MESSAGES.resolution),
});

export const CancelBody = z.object({ reason: optionalNote(REASON_MAX, TRANSFER_MESSAGES.reason) });

/** GET /api/transfers and /transfers: which status (any by default). */
export const TransferStatusFilter = z.enum(["requested", "draft", "in_transit", "received", "cancelled"]);
