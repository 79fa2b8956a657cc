// One par level row (location × variation): the one schema for a par level, used by the product
// detail form, the bulk editor, and (as `Levels`) the write both share (app/par-levels/save.server.ts).
import { z } from "zod";
import { line } from "~/forms/text";

const count = (label: string) =>
  z.coerce
    .number({ error: `Enter the ${label} as a whole number of packages.` })
    .int(`Enter the ${label} as a whole number of packages.`)
    .min(0, `The ${label} cannot be negative.`)
    .max(1_000_000, `The ${label} is too large.`);

/** Which row: a variation at a location (what clearing one names). */
export const ParLevelPlace = z.object({
  locationId: line().min(1, "Choose a location."),
  variationId: line().min(1, "Choose a variation."),
});

export const ParLevelRow = ParLevelPlace.extend({
  par: count("par level"),
  reorderPoint: count("reorder point"),
  // Empty means "no maximum" (stored as NULL).
  max: z.preprocess((v) => (v === "" || v === undefined ? null : v), count("maximum").nullable()),
}).superRefine((row, ctx) => {
  if (row.reorderPoint > row.par) {
    ctx.addIssue({
      code: "custom",
      path: ["reorderPoint"],
      message: "The reorder point cannot be above the par level: reorder before you fall below par.",
    });
  }
  if (row.max !== null && row.max < row.par) {
    ctx.addIssue({ code: "custom", path: ["max"], message: "The maximum cannot be below the par level." });
  }
});

export type ParLevelInput = z.output<typeof ParLevelRow>;
/** A row's three numbers, as written (max null: no maximum). */
export type Levels = Pick<ParLevelInput, "par" | "reorderPoint" | "max">;
