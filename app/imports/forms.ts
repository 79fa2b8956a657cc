// The imports' input rules, one zod schema per verb, shared by the /sales-import forms (every value a
// string, "" meaning none) and the JSON API. Browser-safe: no server code. A column mapping travels
// as one field per sales field (`field.<name>` = the header's exact text) in a form, and as a JSON
// object in the API's `mapping` field; both end as the same ColumnMapping.
import { pageNumber } from "~/forms/text";
import { z } from "~/forms/zod";
import { IMPORT_KINDS } from "../../db/schema/imports/constants";
import { type ColumnMapping, SALES_FIELDS, type SalesField } from "./parse/fields";

export const IMPORTS_PAGE_SIZE = 25;
/** Rows of a file parsed for its preview. */
export const PREVIEW_ROWS = 20;
/** Distinct location values of a file's first rows offered for mapping. */
export const LOCATION_VALUES_MAX = 50;
const HEADER_MAX = 200;

export const IMPORT_FORM_MESSAGES = {
  job: "Choose an import from the list.",
  kind: "kind must be sales or recipes.",
  location: "Choose a location.",
  mapping: 'mapping must be a JSON object of field → header name, e.g. {"item": "Item Name"}.',
  field: (field: string) => `Unknown field "${field.slice(0, 40)}": the fields are ${SALES_FIELDS.join(", ")}.`,
  saleItem: "Choose an unknown item from the list.",
  target: "Choose a service, a retail product, or Not stock.",
} as const;

/** The labels of the sales fields, as the mapping form and its messages name them. */
export const SALES_FIELD_LABELS: Record<SalesField, string> = {
  date: "Date",
  time: "Time",
  timeZone: "Time zone",
  item: "Item",
  quantity: "Quantity",
  sku: "SKU",
  gtin: "GTIN (barcode)",
  netSales: "Net sales",
  transactionId: "Transaction ID",
  eventType: "Event type (payment or refund)",
  itemType: "Item type",
  saleType: "Sale type",
  status: "Status",
  location: "Location",
  provider: "Provider (staff member)",
};

const id = z.string().trim().min(1, IMPORT_FORM_MESSAGES.job).max(100, IMPORT_FORM_MESSAGES.job);
const optionalId = z
  .string()
  .nullish()
  .transform((v) => v?.trim() || null)
  .refine((v) => v === null || v.length <= 100, IMPORT_FORM_MESSAGES.location);

/** A mapping as JSON (the API's `mapping`) or an object: known fields only, each a header's text. */
export const ColumnMappingSchema = z
  .record(z.string(), z.string().max(HEADER_MAX).nullish())
  .superRefine((mapping, ctx) => {
    for (const field of Object.keys(mapping)) {
      if (!(SALES_FIELDS as readonly string[]).includes(field)) {
        ctx.addIssue({ code: "custom", message: IMPORT_FORM_MESSAGES.field(field) });
      }
    }
  })
  .transform((mapping) => {
    const out: ColumnMapping = {};
    for (const field of SALES_FIELDS) {
      const header = mapping[field];
      if (header) out[field] = header;
    }
    return out;
  });

const mappingJson = z
  .string()
  .nullish()
  .transform((text, ctx) => {
    if (!text?.trim()) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: IMPORT_FORM_MESSAGES.mapping });
      return z.NEVER;
    }
  })
  .pipe(ColumnMappingSchema.nullable());

/** The text fields of an upload (the file itself is streamed, never parsed here). */
export const UploadFields = z.object({
  kind: z.enum(IMPORT_KINDS, { error: IMPORT_FORM_MESSAGES.kind }).optional(),
  locationId: optionalId,
  mapping: mappingJson.optional(),
});
export type UploadFieldsInput = z.output<typeof UploadFields>;

/**
 * The preview's form: the job, its column mapping (`field.<name>`), and where the file names its
 * locations, each value's location (`locationValue.<n>` → `locationTarget.<n>`).
 */
export const PreviewForm = z
  .record(z.string(), z.unknown())
  .transform((form) => {
    const mapping: Record<string, string | null | undefined> = {};
    const locationMap: Record<string, string> = {};
    for (const [name, value] of Object.entries(form)) {
      if (typeof value !== "string") continue;
      if (name.startsWith("field.")) mapping[name.slice(6)] = value;
      const n = name.startsWith("locationValue.") ? name.slice(14) : null;
      const target = n === null ? undefined : form[`locationTarget.${n}`];
      if (typeof target === "string" && target) locationMap[value] = target;
    }
    return { jobId: form.jobId, mapping, locationMap };
  })
  .pipe(
    z.object({
      jobId: id,
      mapping: ColumnMappingSchema,
      locationMap: z.record(z.string().max(HEADER_MAX), z.string().max(100)),
    }),
  );
export type PreviewInput = z.output<typeof PreviewForm>;

export const DiscardForm = z.object({ jobId: id });

/** Mapping an unknown item: `service:<id>`, `retail:<variation id>` or `ignored` (not stock). */
export const MapItemForm = z
  .object({
    saleItemId: z.coerce.number({ error: IMPORT_FORM_MESSAGES.saleItem }).int(IMPORT_FORM_MESSAGES.saleItem).min(1),
    target: z.string({ error: IMPORT_FORM_MESSAGES.target }).trim().min(1, IMPORT_FORM_MESSAGES.target).max(120),
  })
  .transform((v, ctx) => {
    if (v.target === "ignored") return { saleItemId: v.saleItemId, kind: "ignored" as const };
    const colon = v.target.indexOf(":");
    const targetId = v.target.slice(colon + 1);
    if (colon > 0 && targetId && v.target.startsWith("service:")) {
      return { saleItemId: v.saleItemId, kind: "service" as const, serviceId: targetId };
    }
    if (colon > 0 && targetId && v.target.startsWith("retail:")) {
      return { saleItemId: v.saleItemId, kind: "retail" as const, variationId: targetId };
    }
    ctx.addIssue({ code: "custom", path: ["target"], message: IMPORT_FORM_MESSAGES.target });
    return z.NEVER;
  });
export type MapItemInput = z.output<typeof MapItemForm>;

/** The imports list's query (page and API alike). */
export const ImportsQuery = z.object({ page: pageNumber() });
