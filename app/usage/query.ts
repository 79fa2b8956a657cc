// The usage log's filters, as the screen's GET form, the CSV link and GET /api/usage send them,
// and the page asked for (the keyset cursors `after` / `before`, ADR 0018); the screen rebuilds
// its links from the filters.
import { z } from "zod";
import { CursorParams } from "~/db/keyset.server";
import { filterText } from "~/forms/text";
import { calendarDateParts } from "~/ui/dates";
import { PATIENT_REF_MAX } from "../../db/schema/stock/constants";

export const USAGE_PAGE_SIZE = 25;

/** The filters' messages: what is wrong and what to send instead (issue 18.10). */
export const USAGE_FILTER_MESSAGES = {
  day: "Enter a date as YYYY-MM-DD, e.g. 2026-11-25.",
  text: "Search with at most 100 characters.",
  id: "An id is at most 100 characters: choose it again from the list.",
  lot: "A lot number is at most 100 characters: check the lot on the label.",
  patientRef: `A patient reference is at most ${PATIENT_REF_MAX} characters.`,
} as const;
const M = USAGE_FILTER_MESSAGES;

/** A calendar date "YYYY-MM-DD" (a browser's date input sends exactly this); anything else is refused, not dropped. */
const day = z
  .string({ error: M.day })
  .trim()
  .refine((value) => value === "" || calendarDateParts(value) !== null, M.day)
  .default("");

/**
 * The log's filters as a URL sends them: a value that cannot be used is refused with its message
 * (`readUsageQuery` sets it aside and says so); an absent or empty one is no filter.
 */
export const UsageQuery = z.object({
  from: day,
  to: day,
  /** Product name or SKU contains this (the screen's search; `productId` is one product exactly). */
  product: filterText(100, M.text),
  productId: filterText(100, M.id),
  variationId: filterText(100, M.id),
  lot: filterText(100, M.lot),
  provider: filterText(100, M.text),
  serviceId: filterText(100, M.id),
  patientRef: filterText(PATIENT_REF_MAX, M.patientRef),
  ...CursorParams,
  pageSize: z.coerce.number().int().min(1).max(100).catch(USAGE_PAGE_SIZE),
});
export type UsageQueryInput = z.output<typeof UsageQuery>;

/** The filters (not the page) that are set, as search parameters: for links to pages and to the CSV. */
export function usageFilterParams(query: UsageQueryInput): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of [
    "from",
    "to",
    "product",
    "productId",
    "variationId",
    "lot",
    "provider",
    "serviceId",
    "patientRef",
  ] as const) {
    if (query[name]) params.set(name, query[name]);
  }
  return params;
}
