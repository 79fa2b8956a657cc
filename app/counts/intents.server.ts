// The counts' screens' actions, one small handler per intent: /audit (start, scan, bulk, submit)
// and a count's review page (approve, reject). Each reads its form, calls one verb and answers with
// the shared glue (app/http/outcome.server.ts): a success goes on with a toast; a refusal stays on
// the page next to its field with what was typed; submit and approve ask first. The routes only
// admit the actor and dispatch.
import { data } from "@remix-run/cloudflare";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { orOutage } from "~/http/outage.server";
import { done, refused } from "~/http/outcome.server";
import { approvalQuestion, approveCount } from "./approve.server";
import { auditPath } from "./constants";
import { countStock } from "./count.server";
import { countFromForm, startFromForm } from "./forms";
import type { CountRefusal, CountRefused } from "./outcome";
import { rejectCount } from "./reject.server";
import { readReport } from "./report.server";
import { readSession } from "./session.server";
import { startCount } from "./start.server";
import { submitCount } from "./submit.server";

export const COUNT_INTENTS = ["start", "scan", "bulk", "submit"] as const;
export type CountIntent = (typeof COUNT_INTENTS)[number];
export const REVIEW_INTENTS = ["approve", "reject"] as const;
export type ReviewIntent = (typeof REVIEW_INTENTS)[number];

/** What a form comes back with when the page stays: which form, what was typed, what is wrong, or a question. */
export interface CountProblem<I extends string = CountIntent | ReviewIntent> {
  intent: I;
  fieldErrors: Record<string, string>;
  formError: string | null;
  typed: Record<string, string>;
  ask?: string | null;
}

export interface IntentArgs {
  db: Database;
  actor: ScopedActor;
  form: FormData;
  /** Where a success goes: the count page (with its location in organization mode) or the review page. */
  back: string;
  /** The count page: the location counted. The review page: the count's id. */
  locationId: string;
  sessionId: string;
}

const FIELD_OF: Partial<Record<CountRefusal, string>> = {
  unknown_label: "labelCode",
  units_needed: "unitsRemaining",
  too_many_units: "unitsRemaining",
  out_of_scope: "labelCode",
  category_unknown: "category",
  products_unknown: "productIds",
  location_unavailable: "locationId",
};

const INVALID_FIELD: Partial<Record<CountIntent | ReviewIntent, string>> = {
  scan: "labelCode",
  bulk: "quantity",
  reject: "note",
};

function typedOf(form: FormData): Record<string, string> {
  return Object.fromEntries(
    [...form.entries()]
      .filter(([k, v]) => typeof v === "string" && k !== "idempotencyKey")
      .map(([k, v]) => [k, String(v)]),
  );
}

function problem(intent: CountIntent | ReviewIntent, form: FormData, outcome: CountRefused) {
  const field = FIELD_OF[outcome.refusal] ?? (outcome.refusal === "invalid" ? INVALID_FIELD[intent] : null);
  const status = outcome.refusal === "invalid" ? 400 : 409;
  return refused(outcome, { intent, typed: typedOf(form) } as const, { fields: () => field, status });
}

function asking(intent: CountIntent | ReviewIntent, form: FormData, ask: string) {
  return data<CountProblem>({ intent, fieldErrors: {}, formError: null, typed: typedOf(form), ask });
}

const keyOf = (form: FormData) => String(form.get("idempotencyKey") ?? "") || null;

async function scanOrBulk(intent: "scan" | "bulk", { db, actor, form, back: page, sessionId }: IntentArgs) {
  // A bulk count goes back to the same search, for the product's next shelf.
  const q = intent === "bulk" ? String(form.get("q") ?? "").slice(0, 100) : "";
  const back = q ? `${page}${page.includes("?") ? "&" : "?"}q=${encodeURIComponent(q)}` : page;
  const outcome = await orOutage(countStock(db, actor, { ...countFromForm(form), sessionId }));
  if (!outcome.ok) return problem(intent, form, outcome);
  if (outcome.already) {
    return done(
      back,
      "Already counted",
      `${outcome.label}: a vial is counted once. Enter its units left to correct them.`,
    );
  }
  return done(
    back,
    outcome.found ? "Counted (found)" : "Counted",
    outcome.found
      ? `${outcome.label}: the system has this vial elsewhere or ended; the reviewer decides.`
      : `${outcome.label}.`,
  );
}

export const COUNT_INTENT_HANDLERS: Record<CountIntent, (args: IntentArgs) => Promise<Response | object>> = {
  async start({ db, actor, form, back, locationId }) {
    const outcome = await orOutage(startCount(db, actor, startFromForm(form, locationId)));
    if (!outcome.ok) return problem("start", form, outcome);
    return outcome.joined
      ? done(back, "You joined the count", "A count was already open here: what you count adds to it.")
      : done(back, "Count started", "Scan each vial's label and enter bulk quantities shelf by shelf.");
  },
  scan: (args) => scanOrBulk("scan", args),
  bulk: (args) => scanOrBulk("bulk", args),
  async submit({ db, actor, form, back, sessionId }) {
    if (form.get("confirm") !== "yes") {
      return asking(
        "submit",
        form,
        "Submit this count for review? No one can count in it any more unless a reviewer sends it back.",
      );
    }
    const outcome = await orOutage(submitCount(db, actor, { sessionId, idempotencyKey: keyOf(form) }));
    if (!outcome.ok) return problem("submit", form, outcome);
    return done(
      back,
      "Count submitted",
      "A reviewer will compare it with the system's stock and approve it or send it back.",
    );
  },
};

export const REVIEW_INTENT_HANDLERS: Record<ReviewIntent, (args: IntentArgs) => Promise<Response | object>> = {
  async approve({ db, actor, form, sessionId }) {
    if (form.get("confirm") !== "yes") {
      const session = await orOutage(readSession(db, actor, "WRITE_AUDITS", sessionId));
      if (!session) throw data("No count with this id at a location you can reach.", { status: 404 });
      return asking("approve", form, approvalQuestion(await orOutage(readReport(db, session))));
    }
    const outcome = await orOutage(approveCount(db, actor, { sessionId, idempotencyKey: keyOf(form) }));
    if (!outcome.ok) return problem("approve", form, outcome);
    return done(
      auditPath(sessionId),
      "Count approved",
      `${outcome.booked} count movement(s) booked, ${outcome.discarded} missing vial(s) discarded, ${outcome.found} found vial(s) brought here.`,
    );
  },
  async reject({ db, actor, form, sessionId }) {
    const note = String(form.get("note") ?? "");
    const outcome = await orOutage(rejectCount(db, actor, { sessionId, note, idempotencyKey: keyOf(form) }));
    if (!outcome.ok) return problem("reject", form, outcome);
    return done(auditPath(sessionId), "Sent back for a recount", "The counters see your note on Audit.");
  },
};
