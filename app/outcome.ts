// What a domain verb answers: done, or refused for a named reason the route turns into a message
// (or a 403/404). Refusals are expected outcomes, not exceptions. Shared by every domain, so it
// imports nothing; each domain keeps only its refusal names and messages (its own outcome.ts).

/** The one "forbidden" message: error screens, 403 answers and every domain's refusal say the same. */
export const FORBIDDEN = "You do not have permission to access this resource. Please contact your administrator.";

export interface Refused<R extends string = string> {
  ok: false;
  refusal: R;
  message: string;
}

export type Outcome<T extends object = object, R extends string = string> = ({ ok: true } & T) | Refused<R>;

/**
 * A domain's refusals: its messages by name (every domain also refuses "forbidden", with the one
 * message above) and a `refuse` typed to those names, whose message defaults to the named one.
 */
export function refusalsOf<M extends Record<string, string>>(messages: M) {
  type Name = Extract<keyof M, string> | "forbidden";
  const all = { forbidden: FORBIDDEN, ...messages } as Record<Name, string>;
  function refuse<R extends Name>(refusal: R, message: string = all[refusal]): Refused<R> {
    return { ok: false, refusal, message };
  }
  return { messages: all, refuse };
}
