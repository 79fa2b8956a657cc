// The vial page's four forms (/inventory/{itemId}), one small handler per intent: parse the form
// (app/vials/forms, shared with the JSON API), call the one verb, answer with the shared glue: a
// refusal next to the field it is about (else above that form), a vial gone elsewhere the 404
// screen, a success back to the vial page with a toast.
import type { z } from "zod";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { orOutage } from "~/db/outage.server";
import { done, type FormAnswer, invalid, refused } from "~/http/outcome.server";
import { formatQuantity } from "~/products/format";
import type { Vial } from "~/stock/vials.server";
import { discardVial } from "~/vials/discard.server";
import { drawUnits } from "~/vials/draw.server";
import { emptyVial } from "~/vials/empty.server";
import { DiscardForm, DrawForm, EmptyForm, StartForm, VIAL_MESSAGES, witnessOf } from "~/vials/forms";
import type { Outcome, VialRefusal } from "~/vials/outcome";
import { startVial } from "~/vials/start.server";
import type { VialIntent, VialProblem } from "./vial-actions";

export interface VialIntentArgs {
  db: Database;
  actor: ScopedActor;
  itemId: string;
  form: Record<string, FormDataEntryValue>;
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

async function answer<T extends { vial: Vial }>(
  intent: VialIntent,
  args: VialIntentArgs,
  work: Promise<Outcome<T>>,
  toast: (result: T) => string,
) {
  const result = await orOutage(work);
  if (!result.ok) {
    const field = fieldOf(result.refusal, result.message);
    return refused(result, typedOf(intent, args.form), { fields: () => field });
  }
  return done(pageOf(args.itemId), TITLES[intent], toast(result));
}

function parsed<S extends z.ZodType>(intent: VialIntent, schema: S, args: VialIntentArgs) {
  const result = schema.safeParse(args.form);
  return result.success
    ? ({ ok: true, data: result.data as z.output<S> } as const)
    : ({ ok: false, problem: invalid(result.error, typedOf(intent, args.form)) } as const);
}

const left = (vial: Vial) => formatQuantity(vial.unitsRemaining, vial.unitScale, vial.baseUnit);
const named = (vial: Vial) => `${vial.productName} (lot ${vial.lot ?? "—"})`;

export const VIAL_INTENT_HANDLERS: Record<VialIntent, (args: VialIntentArgs) => FormAnswer<VialProblem>> = {
  async start(args) {
    const form = parsed("start", StartForm, args);
    if (!form.ok) return form.problem;
    return answer(
      "start",
      args,
      startVial(args.db, args.actor, { itemId: args.itemId, idempotencyKey: form.data.idempotencyKey }),
      ({ vial }) => `${named(vial)} is open; its Use-By Deadline is running.`,
    );
  },
  async draw(args) {
    const form = parsed("draw", DrawForm, args);
    if (!form.ok) return form.problem;
    return answer(
      "draw",
      args,
      drawUnits(args.db, args.actor, { itemId: args.itemId, ...form.data }),
      ({ vial, usage }) => `${usage.unitsText} drawn from ${named(vial)}; ${left(vial)} left.`,
    );
  },
  async empty(args) {
    const form = parsed("empty", EmptyForm, args);
    if (!form.ok) return form.problem;
    return answer(
      "empty",
      args,
      emptyVial(args.db, args.actor, {
        itemId: args.itemId,
        witness: witnessOf(form.data),
        idempotencyKey: form.data.idempotencyKey,
      }),
      ({ vial }) => `${named(vial)} is empty; anything left in it was booked as waste.`,
    );
  },
  async discard(args) {
    const form = parsed("discard", DiscardForm, args);
    if (!form.ok) return form.problem;
    const { reason, note, idempotencyKey } = form.data;
    return answer(
      "discard",
      args,
      discardVial(args.db, args.actor, {
        itemId: args.itemId,
        reason,
        note,
        witness: witnessOf(form.data),
        idempotencyKey,
      }),
      ({ vial }) => `${named(vial)} is discarded; what was left in it left the stock.`,
    );
  },
};
