// The vial action forms: start, draw, empty, discard, on the vial page and the scan card alike.
// Plain posts (to the page itself, or to `action`) with an `intent` and a fresh idempotency key from
// the loader (a double tap writes once), built from the one field family, so they work before
// JavaScript loads. Only the forms the loader allows are shown; where start and draw are not, the
// rules' reason is said in their place. An empty or discard with units left is a second step: the
// server answers its question ("Empty this vial? 73 U of … will be booked as waste."), asked here
// with Cancel where the button was and the confirmation (with the witness, for a controlled
// substance) beside it, carrying the same key.
// The draw is checked before it is sent, with the server's own schema (app/vials/forms, ADR 0023):
// at the cart a wrong amount is told at once; what only the server knows (the unit scale) it tells.
import { Form, Link, useNavigation } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { useCheckBeforeSend } from "~/forms/check-before-send";
import { Button, Card, type FieldErrors, FieldGrid, FormAlert, SelectField, TextareaField } from "~/ui/form";
import { CHOSEN_DISCARD_REASONS, type ChosenDiscardReason } from "../../db/schema/stock/constants";
import type { VialActions, VialIntent, VialProblem } from "./actions";
import { DISCARD_REASON_NAMES } from "./history";

/** The draw's schema, checked before the form is sent (zod comes with it, after the page is up). */
const loadDrawForm = () => import("~/vials/forms").then((m) => m.DrawForm);

/** Where the forms post and what they carry besides their own fields. */
interface Target {
  /** The route the forms post to: the page itself unless told. */
  action?: string;
  /** Hidden fields every form carries (the scan card's vial and code). */
  hidden?: Record<string, string>;
  /** Where Cancel of a question goes: the page as it was. */
  cancelTo: string;
}

interface FormsProps extends Target {
  actions: VialActions;
  keys: Record<VialIntent, string>;
  services: readonly { id: string; name: string }[];
  /** The product's unit, e.g. "U" or "mL". */
  unit: string;
  /** What is left, as read: "80 U". */
  unitsLeft: string;
  problem: VialProblem | undefined;
  /** Why start and draw are not offered (app/vials/rules `closedReason`), said where they would be. */
  closed?: string | null;
  /** The discard reason the discard form starts with (an expired vial's is "expired"). */
  discardAs?: ChosenDiscardReason | null;
  /** One column without cards of their own: the scan card, itself a card. */
  compact?: boolean;
  /** A start (or a draw) of this vial waits on the device to be sent: Start is not offered twice. */
  startHeld?: boolean;
}

export const START_HELD =
  "A start or draw of this vial waits on this device to be sent, and it opens the vial: Start is not offered twice.";

function Hidden({ fields }: { fields: Record<string, string | undefined> }) {
  return Object.entries(fields).map(([name, value]) =>
    value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
  );
}

/** One action's form: its intent, its key, its errors above, its button at the end. */
function VialForm({
  intent,
  keys,
  problem,
  button,
  tone = "primary",
  target,
  check,
  children,
}: {
  intent: VialIntent;
  keys: Record<VialIntent, string>;
  problem: VialProblem | undefined;
  button: string;
  tone?: "primary" | "secondary" | "danger";
  target: Target;
  /** A check before the form is sent (useCheckBeforeSend's `form`). */
  check?: { onSubmit: (event: FormEvent<HTMLFormElement>) => void; "data-check": string };
  children?: ReactNode;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const idempotencyKey = keys[intent];
  return (
    // A new key (after a success) is a new form: what was typed is cleared for the next one.
    <Form
      key={idempotencyKey}
      method="post"
      action={target.action}
      {...check}
      className="flex flex-col gap-4"
      aria-label={button}
    >
      <Hidden fields={{ ...target.hidden, intent, idempotencyKey }} />
      <FormAlert message={problem?.intent === intent ? problem.formError : null} />
      {children}
      <div>
        <Button tone={tone} disabled={busy}>
          {busy ? "Saving…" : button}
        </Button>
      </div>
    </Form>
  );
}

/**
 * The second step of an empty or discard with units left: the server's question, Cancel where the
 * first button was (so a second tap of a double tap lands on it), and the confirmation, which
 * carries the same key, what was chosen, and the units the question named.
 */
function ConfirmWaste({
  intent,
  keys,
  problem,
  ask,
  witness,
  confirm,
  target,
}: {
  intent: "empty" | "discard";
  keys: Record<VialIntent, string>;
  problem: VialProblem;
  ask: { question: string; wasting: number };
  witness: boolean;
  confirm: string;
  target: Target;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const chosen = intent === "discard" ? { reason: problem.typed.reason, note: problem.typed.note } : {};
  return (
    <Form
      key={`confirm-${intent}-${ask.wasting}`}
      method="post"
      action={target.action}
      aria-label={`Confirm: ${confirm}`}
      className="flex flex-col gap-4 rounded-md border border-red-300 bg-red-50 p-3"
    >
      <Hidden
        fields={{
          ...target.hidden,
          ...chosen,
          intent,
          idempotencyKey: keys[intent],
          confirmWaste: String(ask.wasting),
        }}
      />
      <p className="font-medium text-red-900" data-testid="waste-question">
        {ask.question}
      </p>
      <FormAlert message={problem.formError} />
      {witness && <WitnessFields prefix={`${intent}-`} errors={problem.fieldErrors} typed={problem.typed} />}
      <div className="flex flex-wrap gap-3">
        <Link
          to={target.cancelTo}
          className="inline-flex min-h-10 items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-slate-800 text-sm hover:bg-slate-100"
        >
          Cancel
        </Link>
        <button
          type="submit"
          disabled={busy}
          className="inline-flex min-h-10 items-center justify-center rounded-md bg-red-700 px-3 py-2 font-medium text-sm text-white hover:bg-red-800 disabled:opacity-60"
        >
          {busy ? "Saving…" : confirm}
        </button>
      </div>
    </Form>
  );
}

/** A witness's email and password: a controlled substance's waste is confirmed by a second person. */
export function WitnessFields({
  prefix,
  errors,
  typed,
}: {
  prefix: string;
  errors: FieldErrors;
  typed: Record<string, string>;
}) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <legend className="px-1 font-medium text-sm">Witness (controlled substance)</legend>
      <p className="text-slate-700 text-sm">
        Units left in a controlled substance are wasted only before a witness: another active user of this location
        enters their own email and password.
      </p>
      <FieldGrid
        className="sm:grid-cols-2"
        idPrefix={prefix}
        // Never the password back into the page, whatever was typed.
        values={{ witnessEmail: typed.witnessEmail }}
        errors={errors}
        fields={[
          { label: "Witness email", name: "witnessEmail", type: "email", required: false, autoComplete: "off" },
          {
            label: "Witness password",
            name: "witnessPassword",
            type: "password",
            required: false,
            autoComplete: "off",
          },
        ]}
      />
    </fieldset>
  );
}

/** A card of its own on the vial page; on the scan card, a part of it under a rule. */
function Section({ compact, title, children }: { compact: boolean; title: string; children: ReactNode }) {
  if (!compact) return <Card title={title}>{children}</Card>;
  return (
    <section aria-label={title} className="flex flex-col gap-3 border-slate-200 border-t pt-4">
      <h3 className="font-semibold">{title}</h3>
      {children}
    </section>
  );
}

export function VialForms({
  actions,
  keys,
  services,
  unit,
  unitsLeft,
  problem,
  closed = null,
  discardAs = null,
  compact = false,
  startHeld = false,
  ...target
}: FormsProps) {
  const drawCheck = useCheckBeforeSend(actions.draw ? loadDrawForm : null);
  const errorsOf = (intent: VialIntent): FieldErrors => (problem?.intent === intent ? problem.fieldErrors : {});
  const typedOf = (intent: VialIntent): Record<string, string> => (problem?.intent === intent ? problem.typed : {});
  if (!(actions.start || actions.draw || actions.empty || actions.discard)) return null;
  const draw = { errors: drawCheck.problems ?? errorsOf("draw"), typed: typedOf("draw") };
  const discard = { errors: errorsOf("discard"), typed: typedOf("discard") };
  const shared = { keys, problem, target };
  const asked = (intent: "empty" | "discard") => (problem?.intent === intent ? problem.ask : null);
  const emptyAsk = asked("empty");
  const discardAsk = asked("discard");
  return (
    <div className={compact ? "flex flex-col gap-4" : "grid gap-4 lg:grid-cols-2"}>
      {closed && (
        <p role="alert" className="rounded-md bg-red-700 px-3 py-2 font-semibold text-sm text-white">
          {closed}
        </p>
      )}
      {actions.draw && (
        <Section compact={compact} title="Draw units">
          <VialForm intent="draw" {...shared} button="Record draw" check={drawCheck.form}>
            <FieldGrid
              className="sm:grid-cols-2"
              idPrefix="draw-"
              values={draw.typed}
              errors={draw.errors}
              hints={{
                units: `${unitsLeft} left.${actions.start ? " Drawing from a sealed vial starts it." : ""}`,
                patientRef: "A chart number, never a name.",
              }}
              fields={[
                { label: `Units (${unit})`, name: "units", inputMode: "decimal", autoComplete: "off" },
                {
                  label: "Service",
                  name: "serviceId",
                  note: "optional",
                  options: [
                    { value: "", label: "No service" },
                    ...services.map((s) => ({ value: s.id, label: s.name })),
                  ],
                },
                { label: "Provider", name: "provider", note: "optional", required: false },
                {
                  label: "Patient reference",
                  name: "patientRef",
                  note: "optional",
                  required: false,
                  // No maxLength: a longer chart number is refused with a message, not cut to fit.
                  autoComplete: "off",
                  spellCheck: false,
                },
              ]}
            />
          </VialForm>
        </Section>
      )}
      {(actions.start || actions.empty || actions.discard) && (
        <Section compact={compact} title="Vial">
          <div className="flex flex-col gap-6">
            {actions.start &&
              (startHeld ? (
                <p className="text-slate-700 text-sm" data-testid="start-held">
                  {START_HELD}
                </p>
              ) : (
                <VialForm intent="start" {...shared} button="Start vial">
                  <p className="text-slate-700 text-sm">Opening the vial starts its Use-By Deadline.</p>
                </VialForm>
              ))}
            {actions.empty &&
              (emptyAsk && problem ? (
                <ConfirmWaste
                  intent="empty"
                  {...shared}
                  problem={problem}
                  ask={emptyAsk}
                  witness={actions.witness}
                  confirm="Yes, empty it"
                />
              ) : (
                <VialForm intent="empty" {...shared} button="Empty vial" tone="secondary">
                  <p className="text-slate-700 text-sm">
                    The vial is used up or put away for good; what is left in it ({unitsLeft}) is booked as waste.
                  </p>
                </VialForm>
              ))}
            {actions.discard &&
              (discardAsk && problem ? (
                <ConfirmWaste
                  intent="discard"
                  {...shared}
                  problem={problem}
                  ask={discardAsk}
                  witness={actions.witness}
                  confirm="Yes, discard it"
                />
              ) : (
                <VialForm intent="discard" {...shared} button="Discard vial" tone="danger">
                  <SelectField
                    label="Reason"
                    name="reason"
                    idPrefix="discard-"
                    defaultValue={discard.typed.reason ?? discardAs ?? ""}
                    options={[
                      { value: "", label: "Choose a reason…" },
                      ...CHOSEN_DISCARD_REASONS.map((r) => ({ value: r, label: DISCARD_REASON_NAMES[r] })),
                    ]}
                    error={discard.errors.reason}
                  />
                  <TextareaField
                    label="Note"
                    name="note"
                    idPrefix="discard-"
                    note="needed for Other"
                    rows={2}
                    defaultValue={discard.typed.note}
                    error={discard.errors.note}
                  />
                </VialForm>
              ))}
          </div>
        </Section>
      )}
    </div>
  );
}
