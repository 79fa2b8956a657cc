// The one glue between a form route and a domain verb's Outcome (app/outcome.ts): which action the
// form asked for, input that does not parse, a refusal (a 403 or 404 error screen, or a message next
// to the field it is about, else above the form) and a success (a redirect with a toast).
import { data, redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { fieldErrorsOf } from "~/forms/field-errors";
import { FORBIDDEN, type Refused } from "~/outcome";
import { type FlashToast, flashToast } from "~/ui/flash.server";

/** What a refused or invalid form gets back, beside what its route adds (intent, values typed…). */
export interface FormProblem {
  fieldErrors: Record<string, string>;
  formError: string | null;
}

export interface RefusedOptions<R extends string> {
  /** The form field a refusal is shown under (by name, or worked out); any other shows above the form. */
  fields?: Partial<Record<R, string>> | ((refusal: R) => string | null | undefined);
  /** Refusals answered with the 404 screen rather than on the form (unless a field takes them). */
  notFound?: readonly R[];
  /** 409 by default: the request was fine, the state of things refused it. */
  status?: number;
}

type Extra = Record<string, unknown>;
type Redirect = ReturnType<typeof redirect>;

/** What a form's action answers: the page again with `T` (a problem to show), or a redirect. */
export type FormAnswer<T> = Promise<ReturnType<typeof data<T>> | Redirect>;

/**
 * The answer to a refusal: "forbidden" throws the 403 screen, "not_found" (or `notFound`) the 404
 * screen with the refusal's message; any other is the message next to its field, with `extra`.
 */
export function refused<R extends string, const E extends Extra = Record<never, never>>(
  result: Refused<R>,
  extra: E = {} as E,
  options: RefusedOptions<R> = {},
) {
  if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
  const { fields, notFound = ["not_found" as R], status = 409 } = options;
  const field = typeof fields === "function" ? fields(result.refusal) : fields?.[result.refusal];
  if (!field && notFound.includes(result.refusal)) throw data(result.message, { status: 404 });
  const problem: FormProblem = {
    fieldErrors: field ? { [field]: result.message } : {},
    formError: field ? null : result.message,
  };
  return data<FormProblem & E>({ ...problem, ...extra }, { status });
}

/** What an edit screen's action answers when a save or a status change is refused (refusedEdit). */
export interface EditFailure<I extends string, V> extends FormProblem {
  intent: I;
  /** What was typed, shown again; null shows the record as it now stands (after a stale save). */
  values: V | null;
  /** The page is out of date (someone else changed the record): read it again despite the 409. */
  conflict?: boolean;
}

/**
 * A refused save of an edit form: a refusal with a field there is the person's to fix (what they
 * typed stays); any other means the page is out of date (`conflict`: read it again), and after a
 * stale save the form shows the record as it now stands (`values: null`).
 */
export function refusedEdit<R extends string, const E extends Extra, V>(
  result: Refused<R>,
  about: E,
  values: V,
  fields: Partial<Record<R, string>>,
) {
  const stale = result.refusal === "stale";
  return refused(result, { ...about, values: stale ? null : values, conflict: !fields[result.refusal] }, { fields });
}

/** The answer to input that does not parse: each field's first message under it, with `extra`. */
export function invalid<const E extends Extra = Record<never, never>>(error: z.ZodError, extra: E = {} as E) {
  const problem: FormProblem = { fieldErrors: fieldErrorsOf(error), formError: null };
  return data<FormProblem & E>({ ...problem, ...extra }, { status: 400 });
}

/** The answer to a success: on to `to`, with a toast saying what happened. */
export async function done(to: string, toast: FlashToast): Promise<Redirect>;
export async function done(to: string, title: string, description: string): Promise<Redirect>;
export async function done(to: string, toast: FlashToast | string, description?: string) {
  const flash = typeof toast === "string" ? { title: toast, description } : toast;
  return redirect(to, { headers: { "Set-Cookie": await flashToast(flash) } });
}

/**
 * The action a posted form asks for (its `intent`), one of `intents`; anything else is a 400 that
 * says so (a page older than the server, or a forged post).
 */
export function intentOf<I extends string>(form: FormData | Record<string, unknown>, intents: readonly I[]): I {
  const raw = form instanceof FormData ? form.get("intent") : form.intent;
  const parsed = z.enum(intents as [I, ...I[]]).safeParse(raw);
  if (parsed.success) return parsed.data;
  const asked = typeof raw === "string" && raw ? `Unknown action "${raw.slice(0, 40)}"` : "No action chosen";
  throw data(`${asked}: this page does not offer it. Reload the page and try again.`, { status: 400 });
}
