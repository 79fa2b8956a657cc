// The activity log's action names (db/schema/activity/actions.ts, ADR 0027) and how a row's
// stored name reads today. Browser-safe: the log's words and filters use it on both sides.
import {
  ACTIVITY_ACTIONS,
  type ActivityAction,
  LEGACY_ACTIONS,
  type LegacyAction,
} from "../../db/schema/activity/actions";

export { ACTIVITY_ACTIONS, type ActivityAction, LEGACY_ACTIONS, type LegacyAction };

const known = new Set<string>(ACTIVITY_ACTIONS);

/** Today's name of an action as a row stores it (an old row's noun_verb name, or today's); null if unknown. */
export function currentAction(stored: string): ActivityAction | null {
  if (known.has(stored)) return stored as ActivityAction;
  return Object.hasOwn(LEGACY_ACTIONS, stored) ? LEGACY_ACTIONS[stored as LegacyAction] : null;
}

/** Every name rows of this action may carry: today's and the old one. */
export function storedNames(action: ActivityAction): string[] {
  return [action, ...Object.entries(LEGACY_ACTIONS).flatMap(([old, now]) => (now === action ? [old] : []))];
}

/** Whether a value is one of today's action names (a filter's choice). */
export function isActivityAction(value: unknown): value is ActivityAction {
  return typeof value === "string" && known.has(value);
}
