// A list's filters read from a URL, where a value that cannot be used is said, not dropped (issue
// 18.10): a lot longer than a lot can be, "-3" or "soon" as a number of days, a state that is none.
// Dropping it silently shows a list that looks filtered and is not. The screens show each problem
// under its filter and no rows; the JSON list APIs answer 400 `invalid_filter` in the one error shape,
// and 400 `invalid_cursor` for a page cursor they did not make (the cursors: app/db/keyset.server.ts).
import type { z } from "zod";
import { API_HEADERS, jsonError } from "./json.server";

/** What is wrong with each filter that cannot be used, by its parameter name. */
export type FilterProblems = Record<string, string>;

export interface ReadFilters<T> {
  /** The query, each unusable filter at its default (no filter): only for the form to show, never to list. */
  query: T;
  problems: FilterProblems;
}

/**
 * `fields` parsed by a list's filter schema, whose filters refuse a bad value with a message and
 * default an absent one. Each refused filter is set aside, named in `problems`, and the rest parsed
 * again, so the form can still show every value that was fine.
 */
export function readFilters<S extends z.ZodTypeAny>(
  schema: S,
  fields: Record<string, unknown>,
): ReadFilters<z.output<S>> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return { query: parsed.data, problems: {} };
  const problems: FilterProblems = {};
  for (const issue of parsed.error.issues) problems[String(issue.path[0] ?? "query")] ??= issue.message;
  const rest = Object.fromEntries(Object.entries(fields).filter(([name]) => !(name in problems)));
  return { query: schema.parse(rest), problems };
}

/** Whether any filter could not be used. */
export function hasProblems(problems: FilterProblems): boolean {
  return Object.keys(problems).length > 0;
}

interface ListedPage {
  items: readonly unknown[];
  total: number;
  totalExact: boolean;
  next: string | null;
  previous: string | null;
}

/**
 * The page to show: none of its rows when a filter could not be used, since the rows of the other
 * filters alone would look like the answer to what was asked (issue 18.10).
 */
export function listedUnlessProblems<P extends ListedPage>(page: P, problems: FilterProblems): P {
  if (!hasProblems(problems)) return page;
  return { ...page, items: [], total: 0, totalExact: true, next: null, previous: null };
}

/** What was sent for each filter it cannot use, shown again beside what is wrong with it. */
export function typedFilters(problems: FilterProblems, searchParams: URLSearchParams): Record<string, string> {
  return Object.fromEntries(Object.keys(problems).map((name) => [name, searchParams.get(name) ?? ""]));
}

/** The JSON list APIs' answer to filters they cannot use: 400 naming each, the one error shape. */
export function invalidFilter(problems: FilterProblems): Response {
  const error = Object.entries(problems)
    .map(([name, message]) => `${name}: ${message}`)
    .join(" ");
  return jsonError(400, error, API_HEADERS, "invalid_filter");
}

/** The API's answer to a cursor it did not make (400, the one error shape). */
export function invalidCursor(): Response {
  return jsonError(
    400,
    "This page cursor is not valid: it was changed or belongs to another list. Start again from the first page (drop `after` and `before`) and follow the `next` and `previous` cursors it answers.",
    API_HEADERS,
    "invalid_cursor",
  );
}
