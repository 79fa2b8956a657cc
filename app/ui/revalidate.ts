// A refused action does not reload the page's data by default (a 4xx). After an edit conflict it
// must: someone else changed the record, and the form should show it as it now stands.
import type { ShouldRevalidateFunction } from "@remix-run/react";

/** For routes whose refused actions answer `{ conflict: true }` when the record changed meanwhile. */
export const revalidateAfterConflict: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as { conflict?: boolean } | undefined)?.conflict === true || defaultShouldRevalidate;
