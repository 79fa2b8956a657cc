// Plain values the services pages render, apart from the zod schemas (see app/users/constants.ts).
export const SERVICES_PAGE_SIZE = 25;

export const SERVICE_STATUSES = ["active", "archived"] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

export const SERVICE_INTENTS = [
  "update",
  "archive",
  "restore",
  "add-line",
  "update-line",
  "remove-line",
  "save-recipe",
] as const;
export type ServiceIntent = (typeof SERVICE_INTENTS)[number];

export const SERVICE_CODE_HINT = "The code your point-of-sale export uses, like TOX-GLAB.";

/** Blank rows the whole-recipe editor offers beyond the current lines. */
export const RECIPE_BLANK_ROWS = 3;
