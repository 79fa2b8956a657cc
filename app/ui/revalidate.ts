// When a page reads its data again after a form (a route's shouldRevalidate). Under single fetch,
// Remix hands every route's shouldRevalidate `defaultShouldRevalidate: true` whatever the answer
// was, so the rule that a refusal (4xx/5xx) reads nothing again is ours to keep. Without it, the
// data of every page under the shell is read again after each refused form: on a slow connection
// the new keys redraw the form under what the person is typing to correct it, and the bytes pay for
// data that did not change. Every route with a shouldRevalidate builds on `readAgain` (the cart's
// screens through app/offline/queued.ts, which adds forms answered on the device).
import type { ShouldRevalidateFunction } from "@remix-run/react";

/** Read again after a success or a navigation; never after a refusal. */
export const readAgain: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  (actionStatus ?? 0) >= 400 ? false : defaultShouldRevalidate;

/** A refused save that found the record changed meanwhile (`{ conflict: true }`) reads it again, to show it as it now stands. */
export const revalidateAfterConflict: ShouldRevalidateFunction = (args) =>
  (args.actionResult as { conflict?: boolean } | undefined)?.conflict === true || readAgain(args);
