// Plain values the bulk par level page renders, apart from the zod schemas.

/** Variation rows a page of the bulk editor shows (and a save submits). */
export const PAR_SHEET_PAGE_SIZE = 50;
/** The most rows one save accepts: a page, with room to spare. */
export const PAR_SHEET_MAX_ROWS = 200;

export const PAR_FIELDS = ["par", "reorderPoint", "max"] as const;
export type ParField = (typeof PAR_FIELDS)[number];
export const PAR_FIELD_LABELS: Record<ParField, string> = { par: "Par", reorderPoint: "Reorder point", max: "Max" };

/** The form field of one row's input, e.g. "par:0192…". */
export const parFieldName = (field: ParField | "was", variationId: string) => `${field}:${variationId}`;

/** What a row showed when the page loaded, as one hidden value: "par|reorderPoint|max" ("" for none). */
export function shownLevels(level: { par: number | null; reorderPoint: number | null; max: number | null }): string {
  if (level.par === null) return "";
  return [level.par, level.reorderPoint ?? "", level.max ?? ""].join("|");
}

/** The intent of accepting par levels suggested from usage (the sheet's save sends none). */
export const APPLY_SUGGESTIONS_INTENT = "apply_suggestions";
