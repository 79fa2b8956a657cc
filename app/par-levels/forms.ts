// The bulk par level form: every row shown, checked with the shared row rules
// (app/catalog/par-level.ts). Server only: the page imports ./constants, never this module.
import { z } from "zod";
import { type Levels, ParLevelRow } from "~/catalog/par-level";
import { pageNumber, searchText } from "~/forms/text";
import { PAR_FIELDS, PAR_SHEET_MAX_ROWS, type ParField, parFieldName } from "./constants";

/** `?location=&category=&q=&page=` of the bulk editor, forgiving of anything odd in the address bar. */
export const ParSheetQuery = z.object({
  location: searchText(100),
  category: searchText(100),
  q: searchText(100),
  page: pageNumber(),
  /** "30" or "90": show the levels suggested from that many days of use ("" or anything else: none). */
  suggest: searchText(3),
});
export type ParSheetQueryInput = z.output<typeof ParSheetQuery>;

/** One row to write: new levels, or null to clear the row (all three inputs emptied). */
export interface ParChange {
  variationId: string;
  levels: Levels | null;
}

export type RowValues = Record<ParField, string>;
export type RowErrors = Partial<Record<ParField, string>>;

export type ParSheet =
  | { ok: true; changes: ParChange[]; values: Record<string, RowValues> }
  | { ok: false; rowErrors: Record<string, RowErrors>; values: Record<string, RowValues>; formError: string | null };

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value.trim() : "");

/** "5|2|" → {par 5, reorder 2, no max}; "" → no par level. What the row showed when the page loaded. */
function shown(was: string): Levels | null | undefined {
  if (was === "") return null;
  const [par, reorderPoint, max] = was.split("|");
  const n = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : Number.NaN);
  const levels = { par: n(par), reorderPoint: n(reorderPoint), max: max === "" ? null : n(max) };
  return Number.isNaN(levels.par) || Number.isNaN(levels.reorderPoint) || Number.isNaN(levels.max) ? undefined : levels;
}

function same(a: Levels | null, b: Levels | null | undefined): boolean {
  if (b === undefined) return false;
  if (a === null || b === null) return a === b;
  return a.par === b.par && a.reorderPoint === b.reorderPoint && a.max === b.max;
}

/**
 * Reads every row of the submitted page and checks each with the row rules. Any invalid row
 * refuses the whole save (with every row's messages); otherwise the rows that differ from what the
 * page showed are the changes. A row whose three inputs are empty means "no par level here".
 */
export function parseParSheet(form: FormData, locationId: string): ParSheet {
  const ids = [...new Set(form.getAll("variationId").map(text))].filter(Boolean);
  const values: Record<string, RowValues> = {};
  const rowErrors: Record<string, RowErrors> = {};
  const changes: ParChange[] = [];
  if (ids.length > PAR_SHEET_MAX_ROWS) {
    return { ok: false, rowErrors, values, formError: `Save at most ${PAR_SHEET_MAX_ROWS} rows at a time.` };
  }

  for (const variationId of ids) {
    const row = Object.fromEntries(
      PAR_FIELDS.map((f) => [f, text(form.get(parFieldName(f, variationId)))]),
    ) as RowValues;
    values[variationId] = row;
    let levels: Levels | null = null;
    if (row.par !== "" || row.reorderPoint !== "" || row.max !== "") {
      // An empty par or reorder point is missing, not 0 (z.coerce would read "" as 0).
      const parsed = ParLevelRow.safeParse({
        locationId,
        variationId,
        par: row.par === "" ? undefined : row.par,
        reorderPoint: row.reorderPoint === "" ? undefined : row.reorderPoint,
        max: row.max,
      });
      if (!parsed.success) {
        const errors: RowErrors = {};
        for (const issue of parsed.error.issues) {
          const field = PAR_FIELDS.find((f) => f === issue.path[0]);
          if (field) errors[field] ??= issue.message;
        }
        rowErrors[variationId] = errors;
        continue;
      }
      levels = { par: parsed.data.par, reorderPoint: parsed.data.reorderPoint, max: parsed.data.max };
    }
    if (!same(levels, shown(text(form.get(parFieldName("was", variationId)))))) changes.push({ variationId, levels });
  }

  if (Object.keys(rowErrors).length > 0) return { ok: false, rowErrors, values, formError: null };
  return { ok: true, changes, values };
}

export type ParAcceptance =
  | { ok: true; days: number; changes: { variationId: string; levels: Levels }[] }
  | { ok: false; formError: string };

/**
 * The rows accepted from the suggestions: the checked ones (`accept`, repeated), or every row the
 * page offered (`all`); each carries the proposal it showed (`proposal:<id>` = "par|reorderPoint|max"),
 * checked with the row rules, so what is written is what the person saw.
 */
export function parseParAcceptance(form: FormData, locationId: string): ParAcceptance {
  const days = Number(text(form.get("days")));
  if (days !== 30 && days !== 90) return { ok: false, formError: "Choose suggestions from 30 or 90 days of use." };
  const offered = [...form.keys()].filter((k) => k.startsWith("proposal:")).map((k) => k.slice("proposal:".length));
  const ids = [...new Set(text(form.get("all")) === "1" ? offered : form.getAll("accept").map(text))].filter(Boolean);
  if (ids.length === 0) return { ok: false, formError: "Tick the suggestions to accept, or accept all of them." };
  if (ids.length > PAR_SHEET_MAX_ROWS)
    return { ok: false, formError: `Accept at most ${PAR_SHEET_MAX_ROWS} rows at a time.` };
  const changes: { variationId: string; levels: Levels }[] = [];
  for (const variationId of ids) {
    const [par, reorderPoint, max] = text(form.get(`proposal:${variationId}`)).split("|");
    const parsed = ParLevelRow.safeParse({ locationId, variationId, par, reorderPoint, max: max ?? "" });
    if (!parsed.success || par === undefined || par === "" || reorderPoint === undefined || reorderPoint === "")
      return {
        ok: false,
        formError: "A suggestion was changed or is missing: show the suggestions again and accept them.",
      };
    changes.push({
      variationId,
      levels: { par: parsed.data.par, reorderPoint: parsed.data.reorderPoint, max: parsed.data.max },
    });
  }
  return { ok: true, days, changes };
}
