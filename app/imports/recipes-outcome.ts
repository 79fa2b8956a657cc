// The recipes import's refusals (the Outcome shape is app/outcome.ts). A refusal about the rows
// carries every row's problem, so the page and the API list them all.
import { type Refused, refusalsOf } from "~/outcome";
import type { RecipeRowProblem } from "./recipes";

export const { messages: RECIPES_REFUSALS, refuse } = refusalsOf({
  not_found: "That recipes import does not exist in your organization.",
  file_refused: "This file cannot be read as a recipes file.",
  not_preview: "This import was already applied or discarded: upload the file again to see a new preview.",
  has_errors:
    "Some rows of the file have problems, listed below: correct them and upload the file again. No recipe was changed.",
  changed_meanwhile:
    "A recipe, service or product in this file changed after the preview was made. No recipe was changed: review the new preview and apply it again.",
});

export type RecipesRefusal = keyof typeof RECIPES_REFUSALS;
export type RecipesRefused = Refused<RecipesRefusal> & { errors?: RecipeRowProblem[] };
export type Outcome<T extends object = object> = ({ ok: true } & T) | RecipesRefused;
