// The vial page's action forms: start, draw, empty, discard. Plain posts to the page itself with an
// `intent` and a fresh idempotency key from the loader (a double tap writes once), built from the
// one field family, so they work before JavaScript loads. Only the forms the loader allows are shown.
// The limits are the server's to tell (app/vials/forms holds them with zod, which stays off the page).
import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, Card, type FieldErrors, FieldGrid, FormAlert, SelectField, TextareaField } from "~/ui/form";
import { DISCARD_REASON_NAMES } from "~/vials/history";
import { CHOSEN_DISCARD_REASONS } from "../../db/schema/stock/constants";
import type { VialActions, VialIntent, VialProblem } from "./vial-actions";

interface FormsProps {
  actions: VialActions;
  keys: Record<VialIntent, string>;
  services: readonly { id: string; name: string }[];
  /** The product's unit, e.g. "U" or "mL". */
  unit: string;
  /** What is left, as read: "80 U". */
  unitsLeft: string;
  problem: VialProblem | undefined;
}

/** One action's form: its intent, its key, its errors above, its button at the end. */
function VialForm({
  intent,
  keys,
  problem,
  button,
  tone = "primary",
  children,
}: {
  intent: VialIntent;
  keys: Record<VialIntent, string>;
  problem: VialProblem | undefined;
  button: string;
  tone?: "primary" | "secondary" | "danger";
  children?: ReactNode;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const idempotencyKey = keys[intent];
  return (
    // A new key (after a success) is a new form: what was typed is cleared for the next one.
    <Form key={idempotencyKey} method="post" className="flex flex-col gap-4" aria-label={button}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <FormAlert message={problem?.intent === intent ? problem.formError : null} />
      {children}
      <div>
        <Button tone={tone} disabled={busy}>
          {button}
        </Button>
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

export function VialForms({ actions, keys, services, unit, unitsLeft, problem }: FormsProps) {
  const errorsOf = (intent: VialIntent): FieldErrors => (problem?.intent === intent ? problem.fieldErrors : {});
  const typedOf = (intent: VialIntent): Record<string, string> => (problem?.intent === intent ? problem.typed : {});
  if (!(actions.start || actions.draw || actions.empty || actions.discard)) return null;
  const draw = { errors: errorsOf("draw"), typed: typedOf("draw") };
  const discard = { errors: errorsOf("discard"), typed: typedOf("discard") };
  const empty = { errors: errorsOf("empty"), typed: typedOf("empty") };
  const shared = { keys, problem };
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {actions.draw && (
        <Card title="Draw units">
          <VialForm intent="draw" {...shared} button="Record draw">
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
        </Card>
      )}
      {(actions.start || actions.empty || actions.discard) && (
        <Card title="Vial">
          <div className="flex flex-col gap-6">
            {actions.start && (
              <VialForm intent="start" {...shared} button="Start vial">
                <p className="text-slate-700 text-sm">Opening the vial starts its Use-By Deadline.</p>
              </VialForm>
            )}
            {actions.empty && (
              <VialForm intent="empty" {...shared} button="Empty vial" tone="secondary">
                <p className="text-slate-700 text-sm">
                  The vial is used up or put away for good; what is left in it ({unitsLeft}) is booked as waste.
                </p>
                {actions.witness && <WitnessFields prefix="empty-" errors={empty.errors} typed={empty.typed} />}
              </VialForm>
            )}
            {actions.discard && (
              <VialForm intent="discard" {...shared} button="Discard vial" tone="danger">
                <SelectField
                  label="Reason"
                  name="reason"
                  idPrefix="discard-"
                  defaultValue={discard.typed.reason ?? ""}
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
                {actions.witness && <WitnessFields prefix="discard-" errors={discard.errors} typed={discard.typed} />}
              </VialForm>
            )}
          </div>
        </Card>
      )}
    </div>
  );
}
