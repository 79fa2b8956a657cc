// The recipes import screen's forms and query, one zod schema each (ADR 0026). The file itself is
// read by the action (a multipart form); what the other forms name is a job and the preview's versions.
import { z } from "zod";
import { line, pageNumber } from "~/forms/text";

export const RECIPES_INTENTS = ["upload", "apply", "discard"] as const;
export type RecipesIntent = (typeof RECIPES_INTENTS)[number];

export const RECIPES_FORM_MESSAGES = {
  file: "Choose a CSV or XLSX file first.",
  job: "This form is out of date. Reload the page and try again.",
} as const;

const jobId = line({ error: RECIPES_FORM_MESSAGES.job }).trim().min(1, RECIPES_FORM_MESSAGES.job).max(64);

export const RecipesApplyForm = z.object({
  jobId,
  versions: line({ error: RECIPES_FORM_MESSAGES.job })
    .trim()
    .regex(/^[0-9a-f]{64}$/, RECIPES_FORM_MESSAGES.job),
});
export const RecipesDiscardForm = z.object({ jobId });

/** `?job=` (the preview shown), `?page=` (the imports list), `?rows=` and `?services=` (the preview's pages). */
export const RecipesPageQuery = z.object({
  job: z
    .string()
    .trim()
    .max(64)
    .regex(/^[0-9a-f-]*$/)
    .catch(""),
  page: pageNumber(),
  rows: pageNumber(),
  services: pageNumber(),
});
export type RecipesPageInput = z.output<typeof RecipesPageQuery>;
