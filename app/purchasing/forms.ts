// Purchasing's input rules, one zod schema per verb, shared by the HTML forms (every value a
// string) and the JSON API (numbers are numbers). Browser-safe: no server code. The verbs check
// what only the database knows (the order's status and version, the vendor's and the variation's
// organization, what already arrived).
//
// Money: a form's unit cost is typed in dollars and cents ("12.50"); the API sends
// `unitCostCents` as a whole number of cents (1250). Both arrive under `unitCostCents` and leave
// this module as integer cents from 0 to MAX_UNIT_COST_CENTS.
import { parseScaled } from "~/catalog/format";
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES } from "~/forms/idempotency-key";
import { line, lines as multiline } from "~/forms/text";
import { z } from "~/forms/zod";
import { isCalendarDate } from "~/stock/expiry";
import {
  PURCHASING_MESSAGES as M,
  MAX_PACKAGES_A_LINE,
  MAX_UNIT_COST_CENTS,
  NOTE_MAX,
  ORDER_LINES_MAX,
  PURCHASE_ORDER_STATUSES,
  REASON_MAX,
  VENDOR_SKU_MAX,
} from "./constants";

const id = (message: string) => line({ error: message }).trim().min(1, message).max(100, message);

/** A note or a reason that may be left out, sent empty or null: trimmed, "" is none. */
const optionalText = (max: number, tooLong: string) =>
  multiline({ error: tooLong })
    .nullish()
    .transform((v) => v?.trim() || null)
    .refine((v) => v === null || v.length <= max, tooLong);

/** A reason the verb needs: trimmed, 1 to REASON_MAX characters. */
const neededReason = multiline({ error: M.reasonNeeded }).trim().min(1, M.reasonNeeded).max(REASON_MAX, M.reason);

/** A whole number of packages, 1 to 10,000: a form's text or the API's number ("1.5", -3, 1e9 refused). */
export const packages = z.preprocess(
  (v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z.number({ error: M.packages }).int(M.packages).min(1, M.packages).max(MAX_PACKAGES_A_LINE, M.packages),
);

/** The cost of one package as integer cents: a form's dollars ("12.50") or the API's cents (1250). */
export const unitCostCents = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const cents = parseScaled(v, 100);
    return cents === null ? v : cents;
  },
  z.number({ error: M.unitCost }).int(M.unitCostCents).min(0, M.unitCost).max(MAX_UNIT_COST_CENTS, M.unitCost),
);

/** The vendor's SKU: trimmed, "" or null is none. */
const vendorSku = line({ error: M.vendorSku })
  .nullish()
  .transform((v) => v?.trim() || null)
  .refine((v) => v === null || v.length <= VENDOR_SKU_MAX, M.vendorSku);

/** A calendar date YYYY-MM-DD; "" or null is none. */
const expectedOn = z
  .string({ error: M.expectedOn })
  .nullish()
  .transform((v) => v?.trim() || null)
  .refine((v) => v === null || isCalendarDate(v), M.expectedOn);

/** The version of the order the form was read at (a write that names it cannot miss a change). */
const version = z.preprocess(
  (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ error: M.version }).int(M.version).min(1, M.version).optional(),
);

const idempotencyKey = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES.invalid)
  .nullish()
  .transform((v) => v ?? null);

/**
 * A line to put on an order: a variation and its packages; the unit cost defaults to the
 * variation's cost, the vendor's SKU to the variation's SKU, the expected date to today plus the
 * vendor's lead time (in the location's time zone).
 */
export const OrderLineInput = z
  .object({
    variationId: id(M.variation),
    packages,
    unitCostCents: unitCostCents.optional(),
    vendorSku: vendorSku.optional(),
    expectedOn: expectedOn.optional(),
  })
  .strict();
export type OrderLineInput = z.output<typeof OrderLineInput>;

const someLines = z.array(OrderLineInput, { error: M.lines }).max(ORDER_LINES_MAX, M.tooManyLines);

/** A new order: where, from whom, a note for the vendor, and optionally its first lines. */
export const CreateOrderInput = z.object({
  locationId: id(M.location),
  vendorId: id(M.vendor),
  note: optionalText(NOTE_MAX, M.note),
  lines: someLines.default([]),
  idempotencyKey,
});
export type CreateOrderInput = z.input<typeof CreateOrderInput>;

/** POST /api/purchase-orders: as above (the key travels in the Idempotency-Key header). */
export const CreateOrderBody = CreateOrderInput.omit({ idempotencyKey: true });

/** Adding lines to a draft (the add-items page, POST /api/purchase-orders/{id}/lines). */
export const AddLinesInput = z.object({
  orderId: id("Choose an order."),
  lines: someLines.min(1, M.lines),
  idempotencyKey,
});
export type AddLinesInput = z.input<typeof AddLinesInput>;
export const AddLinesBody = AddLinesInput.omit({ orderId: true, idempotencyKey: true });

/**
 * A form's repeated `variationId` + `packages` fields (same order, parallel lists) as lines. A
 * product left at no packages ("" or 0) is skipped: a list of products offers each, one is picked.
 */
export function linesOfPairs(variationIds: readonly unknown[], packageCounts: readonly unknown[]) {
  if (variationIds.length !== packageCounts.length) return { ok: false as const, message: M.pairs };
  const picked: { variationId: unknown; packages: unknown }[] = [];
  variationIds.forEach((variationId, n) => {
    const count = packageCounts[n];
    if (typeof count === "string" && (count.trim() === "" || count.trim() === "0")) return;
    picked.push({ variationId, packages: count });
  });
  return { ok: true as const, lines: picked };
}

/** A draft's line changed: its packages, unit cost, vendor's SKU and expected date. */
export const ChangeLineInput = z.object({
  orderId: id("Choose an order."),
  lineId: id(M.line),
  packages,
  unitCostCents,
  vendorSku,
  expectedOn,
  version,
});
export type ChangeLineInput = z.input<typeof ChangeLineInput>;

export const RemoveLineInput = z.object({ orderId: id("Choose an order."), lineId: id(M.line), version });
export type RemoveLineInput = z.input<typeof RemoveLineInput>;

export const SubmitInput = z.object({ orderId: id("Choose an order."), version, idempotencyKey });
export type SubmitInput = z.input<typeof SubmitInput>;
export const SubmitBody = z.object({ version }).strict();

/** One line of a submitted order changed by a revision: its packages and/or its unit cost. */
export const RevisedLine = z
  .object({ lineId: id(M.line), packages: packages.optional(), unitCostCents: unitCostCents.optional() })
  .strict();

const reviseShape = {
  reason: neededReason,
  version,
  lines: z.array(RevisedLine).max(ORDER_LINES_MAX, M.tooManyLines).default([]),
  add: z.array(OrderLineInput).max(ORDER_LINES_MAX, M.tooManyLines).default([]),
  remove: z.array(id(M.line)).max(ORDER_LINES_MAX, M.tooManyLines).default([]),
};

function somethingRevised(
  r: { lines: { packages?: number; unitCostCents?: number }[]; add: unknown[]; remove: unknown[] },
  ctx: z.RefinementCtx,
) {
  const changes = r.lines.filter((l) => l.packages !== undefined || l.unitCostCents !== undefined);
  if (changes.length + r.add.length + r.remove.length === 0)
    ctx.addIssue({ code: "custom", path: ["lines"], message: M.nothingToRevise });
}

/**
 * A revision of a submitted (or partly received) order: lines changed, added or removed, with
 * the reason, recorded as one revision. POST /api/purchase-orders/{id}/revise sends the body.
 */
export const ReviseBody = z.object(reviseShape).strict().superRefine(somethingRevised);
export const ReviseInput = z
  .object({ orderId: id("Choose an order."), idempotencyKey, ...reviseShape })
  .superRefine(somethingRevised);
export type ReviseInput = z.input<typeof ReviseInput>;

/** Cancel and close: a reason, needed for a submitted order (the verb says when). */
export const ReasonBody = z.object({ reason: optionalText(REASON_MAX, M.reason) }).strict();
export const CancelInput = z.object({
  orderId: id("Choose an order."),
  reason: optionalText(REASON_MAX, M.reason),
  idempotencyKey,
});
export type CancelInput = z.input<typeof CancelInput>;
export const CloseInput = CancelInput;
export type CloseInput = CancelInput;

/** The "New order" form: the location (the one in scope, or picked) and the vendor. */
export const NewOrderForm = CreateOrderInput.omit({ lines: true, idempotencyKey: true });

/** GET /api/purchase-orders and /purchase-orders: which status (any by default). */
export const OrderStatusFilter = z.enum(PURCHASE_ORDER_STATUSES);
