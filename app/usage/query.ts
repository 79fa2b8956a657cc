// The usage log's filters, as the screen's GET form, the CSV link and GET /api/usage send them,
// and the page asked for (the keyset cursors `after` / `before`, ADR 0018); the screen rebuilds
// its links from the filters.
import { z } from "zod";
import { searchText } from "~/forms/text";
import { CursorParams } from "~/http/keyset.server";
import { PATIENT_REF_MAX } from "../../db/schema/stock/constants";

export const USAGE_PAGE_SIZE = 25;

/** A calendar date "YYYY-MM-DD", else no filter (a browser's date input sends exactly this). */
const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .catch("");

export const UsageQuery = z.object({
  from: day,
  to: day,
  /** Product name or SKU contains this (the screen's search; `productId` is one product exactly). */
  product: searchText(100),
  productId: searchText(100),
  variationId: searchText(100),
  lot: searchText(100),
  provider: searchText(100),
  serviceId: searchText(100),
  patientRef: searchText(PATIENT_REF_MAX),
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
