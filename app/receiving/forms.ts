// The receiving forms' rules, one zod schema each, shared by the route actions and the tests; the
// "Add line" form also checks ReceiptLineForm in the browser before it sends (ADR 0023), so this
// module stays browser-safe and builds with ~/forms/zod. The line rules are also checked by the
// verb itself (`lineProblems`), so a caller without the form gets the same messages.

import { parseScaled } from "~/catalog/format";
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { line, optionalLine, optionalLines, pageNumber } from "~/forms/text";
import { z } from "~/forms/zod";
import { isCalendarDate } from "~/stock/expiry";
import { lotOrSerialProblem } from "~/stock/gs1";
import { formatDate, utcDay } from "~/ui/dates";
import {
  EXPIRY_REASON_MAX,
  EXPIRY_YEARS_MAX,
  type ExpiryCheck,
  type ExpiryNotice,
  expiryWarning,
  LINE_MESSAGES,
  LINE_QUANTITY_MAX,
  NOTES_MAX,
  OPEN_MESSAGES,
  OVER_RECEIPT_MESSAGES,
  OVER_RECEIPT_REASON_MAX,
  OVER_RECEIPT_REASON_MIN,
  RECEIPT_STATUS_FILTERS,
  REFERENCE_MAX,
} from "./constants";

/** A lot or serial as typed (or filled from a scan), checked by the GS1 rule; empty is none. */
const lotOrSerial = (kind: "lot" | "serial") =>
  line()
    .trim()
    .default("")
    .transform((v) => v || null)
    .superRefine((v, ctx) => {
      const problem = v === null ? null : lotOrSerialProblem(kind, v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

/** An id chosen from a select; empty is none. */
const optionalId = line()
  .trim()
  .max(100)
  .default("")
  .transform((v) => v || null);

export const OpenReceiptForm = z.object({
  /** Organization mode asks for it; at a location the route uses the location in scope. */
  locationId: optionalId,
  vendorId: optionalId,
  /** Receiving against a purchase order: its location and vendor are the receipt's. */
  purchaseOrderId: optionalId,
  reference: optionalLine(REFERENCE_MAX, OPEN_MESSAGES.reference),
  notes: optionalLines(NOTES_MAX, OPEN_MESSAGES.notes),
});

/** Opening a receipt against a purchase order (from the order's page or the Start receiving form). */
export interface OpenFromOrderInput {
  purchaseOrderId: string;
  reference: string | null;
  notes: string | null;
}

/** Completing a receipt: the reason is asked when it brings more than its order still expects. */
export const CompleteReceiptForm = z.object({
  overReceiptReason: line()
    .trim()
    .max(OVER_RECEIPT_REASON_MAX, OVER_RECEIPT_MESSAGES.reason)
    .default("")
    .refine((v) => v === "" || v.length >= OVER_RECEIPT_REASON_MIN, OVER_RECEIPT_MESSAGES.reason)
    .transform((v) => v || null),
});

export interface CompleteReceiptInput {
  receiptId: string;
  /** Why more arrived than the order expected; needed only then. */
  overReceiptReason?: string | null;
}

export interface OpenReceiptInput {
  locationId: string;
  vendorId: string | null;
  reference: string | null;
  notes: string | null;
}

export interface ReceiptLineInput {
  variationId: string;
  /** Packages (vials, boxes), 1 to 1000. */
  quantity: number;
  lot: string | null;
  /** GS1 AI 21: one package only. */
  serial: string | null;
  /** YYYY-MM-DD. */
  expirationDate: string | null;
  /** Null takes the variation's cost. */
  unitCostCents: number | null;
  /** Ticked on the form's "receive it anyway" box, shown for an expired or far-future lot. */
  expiryConfirmed?: boolean;
  /** Why such a lot is received anyway; kept on the line and in its activity row. */
  expiryReason?: string | null;
}

/**
 * Whether a lot's expiration date needs a confirmed reason on `today` (UTC): already expired
 * (before today), or more than EXPIRY_YEARS_MAX years ahead. The receipt_lines CHECK says the same
 * against the line's created_at.
 */
export function expiryCheckOf(expirationDate: string | null, today: Date): ExpiryCheck | null {
  if (expirationDate === null || !isCalendarDate(expirationDate)) return null;
  if (expirationDate < utcDay(today)) return "expired";
  const limit = new Date(Date.UTC(today.getUTCFullYear() + EXPIRY_YEARS_MAX, today.getUTCMonth(), today.getUTCDate()));
  return expirationDate > utcDay(limit) ? "far_future" : null;
}

/** The Add line form's notice for such a lot, or null when the lot needs no confirmation. */
export function expiryNoticeOf(expirationDate: string | null, today: Date): ExpiryNotice | null {
  const check = expiryCheckOf(expirationDate, today);
  if (!check || !expirationDate) return null;
  return { check, warning: expiryWarning(check, formatDate(expirationDate)) };
}

/** Each field of a line that breaks a rule, with the message shown under it. */
export function lineProblems(line: ReceiptLineInput): Partial<Record<keyof ReceiptLineInput, string>> {
  const problems: Partial<Record<keyof ReceiptLineInput, string>> = {};
  if (!line.variationId) problems.variationId = LINE_MESSAGES.variation;
  if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > LINE_QUANTITY_MAX) {
    problems.quantity = LINE_MESSAGES.quantity;
  }
  const lot = line.lot === null ? null : lotOrSerialProblem("lot", line.lot);
  if (lot) problems.lot = lot;
  const serial = line.serial === null ? null : lotOrSerialProblem("serial", line.serial);
  if (serial) problems.serial = serial;
  else if (line.serial !== null && line.quantity !== 1 && !problems.quantity) problems.serial = LINE_MESSAGES.serialOne;
  if (line.expirationDate !== null && !isCalendarDate(line.expirationDate)) {
    problems.expirationDate = LINE_MESSAGES.expirationDate;
  }
  if (line.unitCostCents !== null && !(Number.isSafeInteger(line.unitCostCents) && line.unitCostCents >= 0)) {
    problems.unitCostCents = LINE_MESSAGES.unitCost;
  }
  return problems;
}

/** The "Add line" form as typed: quantity in packages, unit cost in dollars ("12.50"). */
export const ReceiptLineForm = z
  .object({
    variationId: line({ error: LINE_MESSAGES.variation }).trim().min(1, LINE_MESSAGES.variation).max(100),
    quantity: z
      .string({ error: LINE_MESSAGES.quantity })
      .trim()
      .transform((text, ctx) => {
        const n = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
        if (!(n >= 1 && n <= LINE_QUANTITY_MAX)) {
          ctx.addIssue({ code: "custom", message: LINE_MESSAGES.quantity });
          return z.NEVER;
        }
        return n;
      }),
    lot: lotOrSerial("lot"),
    serial: lotOrSerial("serial"),
    expirationDate: z
      .string()
      .trim()
      .default("")
      .refine((v) => v === "" || isCalendarDate(v), LINE_MESSAGES.expirationDate)
      .transform((v) => v || null),
    unitCost: z
      .string()
      .trim()
      .default("")
      .transform((text, ctx) => {
        if (text === "") return null;
        const cents = parseScaled(text, 100);
        if (cents === null) {
          ctx.addIssue({ code: "custom", message: LINE_MESSAGES.unitCost });
          return z.NEVER;
        }
        return cents;
      }),
    /** The "receive it anyway" checkbox ("on" when ticked) and its reason; the verb decides if they are needed. */
    expiryConfirmed: z
      .string()
      .optional()
      .transform((v) => v === "on" || v === "true"),
    expiryReason: optionalLine(EXPIRY_REASON_MAX, LINE_MESSAGES.expiryReason),
    /** The form's idempotency key (hidden field): a double submit adds the line once. */
    idempotencyKey: z
      .string()
      .trim()
      .default("")
      .refine((v) => v === "" || IDEMPOTENCY_KEY_PATTERN.test(v), IDEMPOTENCY_MESSAGES.invalid)
      .transform((v) => v || null),
  })
  .superRefine((line, ctx) => {
    if (line.serial !== null && line.quantity !== 1) {
      ctx.addIssue({ code: "custom", path: ["serial"], message: LINE_MESSAGES.serialOne });
    }
  })
  .transform(({ unitCost, idempotencyKey, ...line }): ReceiptLineInput & { idempotencyKey: string | null } => ({
    ...line,
    unitCostCents: unitCost,
    idempotencyKey,
  }));

export const LineRef = z.object({ lineId: line().trim().min(1).max(100) });

/**
 * What a scanner (or a person) typed into the scan box; the GS1 parser reads it, group separators
 * (ASCII 29) and all, and refuses there any other control or invisible character in a value.
 */
export const ScanForm = z.object({ scan: z.string().max(500).default("") });

/** Attaching a scanned GTIN to a variation, carrying the rest of the scan to fill the line form. */
export const AttachGtinForm = z.object({
  gtin: line().trim().max(20),
  variationId: line({ error: "Choose the variation this GTIN belongs to." }).trim().min(1).max(100),
  lot: lotOrSerial("lot"),
  serial: lotOrSerial("serial"),
  expirationDate: z
    .string()
    .trim()
    .default("")
    .transform((v) => (v && isCalendarDate(v) ? v : null)),
});

/** `?status=&page=` of the receipts list, forgiving of anything odd in the address bar. */
export const ReceiptListQuery = z.object({
  status: z.enum(RECEIPT_STATUS_FILTERS).catch("all"),
  page: pageNumber(),
});
export type ReceiptListQueryInput = z.output<typeof ReceiptListQuery>;
