// What the person may do with a scanned vial now: the actions the rules of app/vials/rules allow
// (the same the verbs check), for a user with WRITE_INVENTORY at its location, each a small form
// sent to the JSON API through ./vial-action. Every action answers the vial as it now stands,
// which replaces the one shown. Loaded with the live result, after the page has run.
import { type FormEvent, type ReactNode, useState } from "react";
import { can } from "~/access/permissions";
import { useCurrentUser } from "~/access/viewer-context";
import { refusalOf } from "~/http/client/api-error";
import { Field, FormAlert, SelectField } from "~/ui/form";
import { useNow } from "~/vials/countdown";
import { DISCARD_REASON_NAMES } from "~/vials/history";
import { openActions, unitsText } from "~/vials/rules";
import { CHOSEN_DISCARD_REASONS } from "../../db/schema/stock/constants";
import { newAttemptKey, useVialAction, type VialVerb } from "./vial-action";
import type { VialData } from "./vial-card";

export interface ServiceChoice {
  id: string;
  name: string;
}

const BUTTON = {
  primary: "bg-sky-700 text-white hover:bg-sky-800",
  danger: "border border-red-300 bg-white text-red-700 hover:bg-red-50",
};

const REASON_OPTIONS = [
  { value: "", label: "Choose a reason" },
  ...CHOSEN_DISCARD_REASONS.map((value) => ({ value, label: DISCARD_REASON_NAMES[value] })),
];

const DONE: Record<VialVerb, string> = {
  start: "Vial started.",
  draw: "Draw recorded.",
  empty: "Vial emptied.",
  discard: "Vial discarded.",
};

export function VialActions({
  vial,
  now,
  services,
  onChange,
}: {
  vial: VialData;
  now: string;
  services: readonly ServiceChoice[];
  onChange: (vial: VialData) => void;
}) {
  const user = useCurrentUser();
  const current = useNow(undefined, now);
  const [done, setDone] = useState<string | null>(null);
  const facts = { ...vial, expiresAt: vial.expiresAt ? new Date(vial.expiresAt) : null };
  const open = openActions(facts, current);
  const { witness } = open;
  const finished = (verb: VialVerb) => (answer: { vial: VialData }) => {
    setDone(DONE[verb]);
    onChange(answer.vial);
  };
  const shared = { itemId: vial.id, onDone: finished };
  if (!can(user, "WRITE_INVENTORY", vial.locationId)) return null;

  return (
    <>
      {done && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-emerald-900 text-sm">
          {done}
        </p>
      )}
      <div className="flex flex-col gap-4">
        {open.start && <ActionForm {...shared} verb="start" submit="Start vial" body={() => ({})} />}
        {open.draw && (
          <ActionForm
            {...shared}
            verb="draw"
            title="Draw units"
            submit="Record draw"
            body={(form) => ({
              units: form.get("units"),
              patientRef: form.get("patientRef"),
              provider: form.get("provider"),
              serviceId: form.get("serviceId"),
            })}
          >
            {(error) => (
              <>
                <Field {...error("units")} label={`Units (${vial.baseUnit})`} inputMode="decimal" />
                <Field
                  {...error("patientRef")}
                  label="Patient reference"
                  note="optional, a chart number"
                  required={false}
                  // No maxLength: a longer chart number is refused with a message, not cut to fit.
                  autoComplete="off"
                  spellCheck={false}
                />
                <Field {...error("provider")} label="Provider" note="optional" required={false} />
                <SelectField
                  {...error("serviceId")}
                  label="Service"
                  note="optional"
                  options={[{ value: "", label: "None" }, ...services.map((s) => ({ value: s.id, label: s.name }))]}
                />
              </>
            )}
          </ActionForm>
        )}
        {open.empty && (
          <ActionForm
            {...shared}
            verb="empty"
            title="Empty"
            submit="Empty vial"
            tone="danger"
            body={(form) => ({ witness: witnessOf(form) })}
          >
            {(error) =>
              vial.unitsRemaining > 0 && (
                <>
                  <p className="text-slate-600 text-sm">
                    {unitsText(vial, vial.unitsRemaining)} still in it will be booked as waste.
                  </p>
                  {witness && <WitnessFields error={error} />}
                </>
              )
            }
          </ActionForm>
        )}
        {open.discard && (
          <ActionForm
            {...shared}
            verb="discard"
            title="Discard"
            submit="Discard vial"
            tone="danger"
            body={(form) => ({ reason: form.get("reason"), note: form.get("note"), witness: witnessOf(form) })}
          >
            {(error) => (
              <>
                <SelectField {...error("reason")} label="Reason" options={REASON_OPTIONS} defaultValue="" />
                <Field {...error("note")} label="Note" note='needed for "Other"' required={false} />
                {witness && <WitnessFields error={error} />}
              </>
            )}
          </ActionForm>
        )}
      </div>
    </>
  );
}

function witnessOf(form: FormData) {
  const email = String(form.get("witnessEmail") ?? "").trim();
  const password = String(form.get("witnessPassword") ?? "");
  return email || password ? { email, password } : null;
}

/** A field's name, id and the API's message for it, to spread onto a field of the one family. */
type FieldError = (name: string) => { name: string; idPrefix: string; error: string | undefined };

/** The API's field names for the form's: the witness travels as {witness: {email, password}}. */
const API_FIELD: Record<string, string[]> = {
  witnessEmail: ["witness.email", "witness"],
  witnessPassword: ["witness.password"],
};

function ActionForm<A extends { vial: VialData }>({
  itemId,
  verb,
  title,
  submit,
  tone = "primary",
  body,
  onDone,
  children,
}: {
  itemId: string;
  verb: VialVerb;
  title?: string;
  submit: string;
  tone?: keyof typeof BUTTON;
  body: (form: FormData) => object;
  onDone: (verb: VialVerb) => (answer: A) => void;
  children?: (error: FieldError) => ReactNode;
}) {
  const action = useVialAction<A>(itemId, verb, onDone(verb));
  const refusal = action.error ? refusalOf(action.error) : null;
  const error: FieldError = (name) => {
    const fields = refusal?.fields ?? {};
    const message = [name, ...(API_FIELD[name] ?? [])].map((key) => fields[key]).find(Boolean);
    return { name, idPrefix: `${verb}-`, error: message };
  };
  // A refusal that names no field of this form is said above the button.
  const shownByField =
    refusal && Object.keys(refusal.fields).length > 0 && Object.keys(refusal.fields).every((key) => key !== "body");
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    action.mutate({ body: body(new FormData(form)), key: newAttemptKey() }, { onSuccess: () => form.reset() });
  }
  return (
    <form
      method="post"
      action={`/inventory/${itemId}`}
      onSubmit={onSubmit}
      noValidate
      aria-label={title ?? submit}
      className="flex flex-col gap-3 border-slate-200 border-t pt-4"
    >
      <input type="hidden" name="intent" value={verb} />
      {title && <h3 className="font-semibold">{title}</h3>}
      {children?.(error)}
      {!shownByField && <FormAlert message={refusal?.message} />}
      <button
        type="submit"
        disabled={action.isPending}
        className={`inline-flex min-h-10 items-center justify-center rounded-md px-3 py-2 font-medium text-sm disabled:opacity-60 sm:self-start ${BUTTON[tone]}`}
      >
        {action.isPending ? "Saving…" : submit}
      </button>
    </form>
  );
}

function WitnessFields({ error }: { error: FieldError }) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <legend className="px-1 font-medium text-sm">Witness (controlled substance)</legend>
      <p className="text-sm">A second person of this location confirms the waste with their own email and password.</p>
      <Field {...error("witnessEmail")} label="Witness email" type="email" autoComplete="off" />
      <Field {...error("witnessPassword")} label="Witness password" type="password" autoComplete="off" />
    </fieldset>
  );
}
