// The activity log's filters, as the screen's GET form, the CSV link and their links send them, and
// the page asked for (the keyset cursors `after` / `before`, ADR 0018). The action is one of
// today's names (ADR 0027; an old name in a link is read as today's), the entity one of the things
// the log records; a value it cannot use is refused with its message, never dropped.
import { z } from "zod";
import { type ActivityAction, currentAction } from "~/activity/actions";
import { CursorParams } from "~/db/keyset.server";
import { filterText } from "~/forms/text";
import { calendarDateParts } from "~/ui/dates";
import { type ActivityEntity, ENTITY_LABELS } from "./entities";

export const ACTIVITY_PAGE_SIZE = 25;

export const ACTIVITY_FILTER_MESSAGES = {
  day: "Enter a date as YYYY-MM-DD, e.g. 2026-11-25.",
  text: "Search with at most 100 characters.",
  id: "An id is at most 100 characters: choose it again from the list.",
  action: "Choose an action from the list.",
  entity: "Choose what it is about from the list.",
} as const;
const M = ACTIVITY_FILTER_MESSAGES;

const day = z
  .string({ error: M.day })
  .trim()
  .refine((value) => value === "" || calendarDateParts(value) !== null, M.day)
  .default("");

export const ActivityQuery = z.object({
  from: day,
  to: day,
  /** A location's id, or `none` for rows filed at no location (organization mode). */
  locationId: filterText(100, M.id),
  /** Exactly this user (a row's "who" links here). */
  userId: filterText(100, M.id),
  /** Users whose name or email contains this. */
  user: filterText(100, M.text),
  /** Today's name; an old name (vendor_update) is read as today's (update_vendor). */
  action: z
    .string({ error: M.action })
    .trim()
    .default("")
    .transform((value, ctx): ActivityAction | "" => {
      if (value === "") return "";
      const action = currentAction(value);
      if (action) return action;
      ctx.addIssue({ code: "custom", message: M.action });
      return z.NEVER;
    }),
  entity: z
    .string({ error: M.entity })
    .trim()
    .default("")
    .refine((value) => value === "" || Object.hasOwn(ENTITY_LABELS, value), M.entity)
    .transform((value) => value as ActivityEntity | ""),
  ...CursorParams,
  pageSize: z.coerce.number().int().min(1).max(100).catch(ACTIVITY_PAGE_SIZE),
});
export type ActivityQueryInput = z.output<typeof ActivityQuery>;

const FILTERS = ["from", "to", "locationId", "userId", "user", "action", "entity"] as const;

/** The filters (not the page) that are set, as search parameters: for links to pages and to the CSV. */
export function activityFilterParams(query: ActivityQueryInput): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (query[name]) params.set(name, query[name]);
  return params;
}
