// The services screens' forms, one zod schema each (server side: routes' actions and loaders).
import { z } from "zod";
import { parseCents, parseQuantity, type TypedQuantity } from "~/catalog/amounts";
import { line, optionalLine, pageNumber, searchText } from "~/forms/text";
import { SERVICE_STATUSES } from "./constants";

export const SERVICE_FORM_MESSAGES = {
  name: "Enter the service's name.",
  nameTooLong: "The name is too long (at most 120 characters).",
  code: "Enter a code, like TOX-GLAB.",
  codeTooLong: "The code is too long (at most 40 characters).",
  codeCharacters: "Use letters, digits, spaces, hyphens, underscores, dots or slashes, like TOX-GLAB.",
  categoryTooLong: "The category is too long (at most 60 characters).",
  duration: "Enter the duration in whole minutes, like 30.",
  durationRange: "The duration must be between 1 and 1440 minutes (24 hours).",
  version: "This form is out of date. Reload the page and try again.",
  variation: "Choose a product variation.",
  quantity: "Enter a quantity.",
  duplicate: "This product variation is already on another line.",
} as const;

const M = SERVICE_FORM_MESSAGES;

const name = line({ error: M.name }).trim().min(1, M.name).max(120, M.nameTooLong);

/** Matched against the point-of-sale export, which the imports normalise the same way. */
const code = line({ error: M.code })
  .trim()
  .toUpperCase()
  .transform((c) => c.replace(/\s+/g, " "))
  .pipe(
    z
      .string()
      .min(1, M.code)
      .max(40, M.codeTooLong)
      .regex(/^(?:[A-Z0-9][A-Z0-9 ._/-]*)?$/, M.codeCharacters),
  );

const price = line()
  .default("")
  .transform((text, ctx) => {
    const parsed = parseCents(text);
    if (parsed.ok) return parsed.cents;
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  });

const duration = line()
  .trim()
  .default("")
  .transform((text, ctx) => {
    if (text === "") return null;
    if (!/^\d+$/.test(text)) {
      ctx.addIssue({ code: "custom", message: M.duration });
      return z.NEVER;
    }
    const minutes = Number(text);
    if (minutes < 1 || minutes > 1440) {
      ctx.addIssue({ code: "custom", message: M.durationRange });
      return z.NEVER;
    }
    return minutes;
  });

const version = z.coerce.number({ error: M.version }).int(M.version).min(1, M.version);

export const ServiceForm = z.object({
  name,
  code,
  category: optionalLine(60, M.categoryTooLong),
  price,
  duration,
});
export type ServiceInput = z.output<typeof ServiceForm>;

export const ServiceUpdateForm = ServiceForm.extend({ version });

/** The service form's fields as typed, to show them again next to its errors. */
export function submittedService(form: Record<string, FormDataEntryValue>) {
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
  return {
    name: text("name"),
    code: text("code"),
    category: text("category"),
    price: text("price"),
    duration: text("duration"),
  };
}

const quantity = line({ error: M.quantity })
  .trim()
  .min(1, M.quantity)
  .transform((text, ctx): TypedQuantity => {
    const parsed = parseQuantity(text);
    if (parsed.ok) return parsed.quantity;
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  });

const variationId = line({ error: M.variation }).trim().min(1, M.variation);

/** One recipe line: a variation and how much of it one service consumes. */
export const RecipeLineForm = z.object({ variationId, quantity });
export const RemoveLineForm = z.object({ variationId });

/**
 * The whole recipe at once: rows of (variation, quantity) from repeated fields; blank rows are
 * skipped. Errors are keyed `variationId-<row>` and `quantity-<row>` so each shows on its row.
 */
export const RecipeForm = z
  .object({
    version,
    rows: z.array(z.object({ variationId: line().trim(), quantity: line().trim() })).max(100),
  })
  .transform(({ version, rows }, ctx) => {
    const lines: { variationId: string; quantity: TypedQuantity; row: number }[] = [];
    const seen = new Set<string>();
    rows.forEach((r, row) => {
      if (!r.variationId && !r.quantity) return;
      if (!r.variationId) ctx.addIssue({ code: "custom", path: [`variationId-${row}`], message: M.variation });
      else if (seen.has(r.variationId)) {
        ctx.addIssue({ code: "custom", path: [`variationId-${row}`], message: M.duplicate });
      }
      seen.add(r.variationId);
      const parsed = r.quantity ? parseQuantity(r.quantity) : { ok: false as const, message: M.quantity };
      if (!parsed.ok) ctx.addIssue({ code: "custom", path: [`quantity-${row}`], message: parsed.message });
      else if (r.variationId) lines.push({ variationId: r.variationId, quantity: parsed.quantity, row });
    });
    return { version, lines };
  });

/** The repeated `variationId` / `quantity` fields of the whole-recipe form, row by row. */
export function recipeRows(form: FormData) {
  const quantities = form.getAll("quantity");
  return form.getAll("variationId").map((v, i) => ({ variationId: String(v), quantity: String(quantities[i] ?? "") }));
}

/** `?q=`, `?status=` and `?page=` of the services list, forgiving of anything odd in the address bar. */
export const ServiceListQuery = z.object({
  q: searchText(100),
  status: z.enum(SERVICE_STATUSES).catch("active"),
  page: pageNumber(),
});
export type ServiceListInput = z.output<typeof ServiceListQuery>;
