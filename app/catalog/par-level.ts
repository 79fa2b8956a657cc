// One par level row (location × variation), shared by the product detail form and the bulk editor.
import { z } from "zod";

const count = (label: string) =>
  z.coerce
    .number({ error: `Enter the ${label} as a whole number of packages.` })
    .int(`Enter the ${label} as a whole number of packages.`)
    .min(0, `The ${label} cannot be negative.`)
    .max(1_000_000, `The ${label} is too large.`);

export const ParLevelRow = z
  .object({
    locationId: z.string().min(1, "Choose a location."),
    variationId: z.string().min(1, "Choose a variation."),
    par: count("par level"),
    reorderPoint: count("reorder point"),
    // Empty means "no maximum".
    max: z.preprocess((v) => (v === "" || v === null ? undefined : v), count("maximum").optional()),
  })
  .superRefine((row, ctx) => {
    if (row.reorderPoint > row.par) {
      ctx.addIssue({
        code: "custom",
        path: ["reorderPoint"],
        message: "The reorder point cannot be above the par level: reorder before you fall below par.",
      });
    }
    if (row.max !== undefined && row.max < row.par) {
      ctx.addIssue({ code: "custom", path: ["max"], message: "The maximum cannot be below the par level." });
    }
  });

export type ParLevelInput = z.output<typeof ParLevelRow>;
