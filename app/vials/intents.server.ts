// The vial forms (the vial page's, /inventory/{itemId}, and the scan card's, posted to /scan), one
// small handler per intent: parse the form (app/vials/forms, the same field rules as the JSON API),
// call the one verb on what it parsed (`verb.parsed`: the form is parsed once, here), and answer
// with the shared glue: a refusal next to the field it is about (else above that form), an empty
// or discard with units left its question (a second step, confirmed by a post with the units it
// named), a vial gone elsewhere the 404 screen, a success back to the page it came from with a toast.
import { data } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { done, type FormAnswer, invalid, refused } from "~/http/outcome.server";
import type { Vial } from "~/stock/vials.server";
import type { VialIntent, VialProblem } from "./actions";
import { discardVial } from "./discard.server";
import { drawUnits } from "./draw.server";
import { drawnText } from "./drawn";
import { emptyVial } from "./empty.server";
import { askOf } from "./end.server";
import { DiscardForm, DrawForm, EmptyForm, StartForm, VIAL_MESSAGES, witnessOf } from "./forms";
import type { Outcome, VialRefusal } from "./outcome";
import { startVial } from "./start.server";

/** One fresh key per vial form a page shows (the vial page, the scan card): a repeat of the same post writes once. */
export function vialFormKeys(): Record<VialIntent, string> {
  return {
    start: newIdempotencyKey(),
    draw: newIdempotencyKey(),
    empty: newIdempotencyKey(),
    discard: newIdempotencyKey(),
  };
}

export interface VialIntentArgs {
  db: Database;
  actor: ScopedActor;
  itemId: string;
  form: Record<string, FormDataEntryValue>;
  /** Where a success goes back to: the vial page unless told (the scan result it came from). */
  back?: string;
}

/** What a refused form gets back beside its problem: which form, and what was typed (never a password). */
function typedOf(intent: VialIntent, form: Record<string, FormDataEntryValue>) {
  const typed: Record<string, string> = {};
  for (const [name, value] of Object.entries(form)) {
    if (typeof value === "string" && name !== "witnessPassword" && name !== "idempotencyKey") typed[name] = value;
  }
  return { intent, typed };
}

/** The field a refusal is about, on the form that was sent; null: above that form. */
function fieldOf(refusal: VialRefusal, message: string): string | null {
  switch (refusal) {
    case "not_enough_units":
      return "units";
    case "witness_required":
      return "witnessEmail";
    case "witness_invalid":
      return "witnessPassword";
    case "invalid":
      if (message === VIAL_MESSAGES.service) return "serviceId";
      if (message === VIAL_MESSAGES.reason) return "reason";
      if (message === VIAL_MESSAGES.noteRequired || message === VIAL_MESSAGES.note) return "note";
      if (message === VIAL_MESSAGES.patientRef) return "patientRef";
      if (message === VIAL_MESSAGES.provider) return "provider";
      return "units";
    default:
      return null;
  }
}

const pageOf = (itemId: string) => `/inventory/${itemId}`;
const TITLES: Record<VialIntent, string> = {
  start: "Vial started",
  draw: "Units drawn",
  empty: "Vial emptied",
  discard: "Vial discarded",
};

/**
 * The handler of one form: parse it with `schema` (the only parse: the verb is called through
 * `parsed`, on what the form's fields became), call the verb, and answer: a refusal next to its
 * field (else above that form), a vial gone elsewhere the 404 screen, a success back to the vial
 * page with a toast.
 */
function handler<S extends z.ZodType, T extends { vial: Vial }>(
  intent: VialIntent,
  schema: S,
  verb: (args: VialIntentArgs, input: z.output<S>) => Promise<Outcome<T>>,
  toast: (result: T) => string,
) {
  return async (args: VialIntentArgs): FormAnswer<VialProblem> => {
    const form = schema.safeParse(args.form);
    if (!form.success) return invalid(form.error, typedOf(intent, args.form));
    const result = await orOutage(verb(args, form.data));
    if (!result.ok) {
      const ask = askOf(result);
      // The question is the step itself, not a problem: the form asks it in place of its button.
      const field = result.refusal === "confirm_waste" ? null : fieldOf(result.refusal, result.message);
      const asked = { ...typedOf(intent, args.form), ask };
      if (result.refusal === "confirm_waste") return data<VialProblem>({ ...asked, fieldErrors: {}, formError: null });
      return refused(result, asked, { fields: () => field });
    }
    return done(args.back ?? pageOf(args.itemId), TITLES[intent], toast(result));
  };
}

const named = (vial: Vial) => `${vial.productName} (lot ${vial.lot ?? "—"})`;

export const VIAL_INTENT_HANDLERS: Record<VialIntent, (args: VialIntentArgs) => FormAnswer<VialProblem>> = {
  start: handler(
    "start",
    StartForm,
    ({ db, actor, itemId }, input) => startVial.parsed(db, actor, { itemId, ...input }),
    ({ vial }) => `${named(vial)} is open; its Use-By Deadline is running.`,
  ),
  draw: handler(
    "draw",
    DrawForm,
    ({ db, actor, itemId }, input) => drawUnits.parsed(db, actor, { itemId, ...input }),
    (drawn) => drawnText(drawn),
  ),
  empty: handler(
    "empty",
    EmptyForm,
    ({ db, actor, itemId }, input) =>
      emptyVial.parsed(db, actor, {
        itemId,
        witness: witnessOf(input),
        idempotencyKey: input.idempotencyKey,
        confirm: { wasting: input.confirmWaste },
      }),
    ({ vial }) => `${named(vial)} is empty; anything left in it was booked as waste.`,
  ),
  discard: handler(
    "discard",
    DiscardForm,
    ({ db, actor, itemId }, { reason, note, idempotencyKey, confirmWaste, ...witness }) =>
      discardVial.parsed(db, actor, {
        itemId,
        reason,
        note,
        witness: witnessOf(witness),
        idempotencyKey,
        confirm: { wasting: confirmWaste },
      }),
    ({ vial }) => `${named(vial)} is discarded; what was left in it left the stock.`,
  ),
};
