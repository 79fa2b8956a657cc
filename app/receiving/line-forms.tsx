// The forms of an open receipt: the GS1 scan box (a keyboard-wedge scanner types the code and
// presses Enter), attaching an unknown GTIN to a variation, and "Add line", which a scan fills.
// Plain forms: all of it works before JavaScript loads. Once the page runs, the scan box takes the
// focus when it is drawn (unless a person is typing in another field) so the next scan lands there,
// and a scan typed anywhere on the page does too.
// Once it runs, "Add line" is checked before it is sent with the server's own schema (ADR 0023).
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatMoney, formatQuantity } from "~/catalog/format";
import { useCheckBeforeSend } from "~/forms/check-before-send";
import { useScanField } from "~/scanner/scan-field";
import { Button, CheckboxField, type FieldErrors, FieldGrid, FormAlert, INPUT, SelectField } from "~/ui/form";
import { type ExpiryNotice, LINE_QUANTITY_MAX, type LineFormValues, type ScanReading } from "./constants";
import type { VariationChoice } from "./list.server";

/** A variation the forms offer: what the page's loader listed (its GTIN is not shown). */
export type VariationOption = Omit<VariationChoice, "gtin">;

/** "Botox Cosmetic · 100 U vial (100 U, labelled, $625.00)". */
function optionText(v: VariationOption) {
  const contents = formatQuantity(v.unitsPerPackage, v.unitScale, v.baseUnit);
  const tracking = v.tracking === "serialized" ? "labelled" : "bulk";
  const cost = v.costCents === null ? "" : `, ${formatMoney(v.costCents)}`;
  return `${v.product} · ${v.variation} (${contents}, ${tracking}${cost})`;
}

function VariationSelect({
  id,
  label,
  options,
  defaultValue,
  error,
  hint,
}: {
  id: string;
  label: string;
  options: readonly VariationOption[];
  defaultValue: string;
  error?: string;
  hint?: string;
}) {
  const groups = new Map<string, VariationOption[]>();
  for (const o of options) groups.set(o.product, [...(groups.get(o.product) ?? []), o]);
  return (
    <SelectField
      id={id}
      label={label}
      name="variationId"
      defaultValue={defaultValue}
      error={error}
      hint={hint}
      options={[{ value: "", label: "Choose a product variation" }]}
      choices={[...groups].map(([product, variations]) => (
        <optgroup key={product} label={product}>
          {variations.map((v) => (
            <option key={v.id} value={v.id}>
              {optionText(v)}
            </option>
          ))}
        </optgroup>
      ))}
    />
  );
}

export function ScanBox({ error, found, busy }: { error?: ReactNode; found?: string | null; busy: boolean }) {
  // A scanner's burst anywhere on the page lands here, replacing what the box held.
  const { ref, ...freshOnFocus } = useScanField({ everywhere: true, takesFocus: true });
  return (
    <Form method="post" className="flex flex-col gap-2" noValidate>
      <input type="hidden" name="intent" value="scan" />
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-72 flex-1 flex-col gap-1">
          <label htmlFor="scan" className="font-medium text-sm">
            Scan GS1 barcode
          </label>
          <input
            {...freshOnFocus}
            ref={ref}
            id="scan"
            name="scan"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "scan-error" : "scan-hint"}
            className={`${INPUT} font-mono`}
          />
        </div>
        <Button tone="secondary" disabled={busy}>
          Read scan
        </Button>
      </div>
      <p id="scan-hint" className="text-slate-500 text-xs">
        Scan the manufacturer's DataMatrix or GS1-128 barcode, or type what is printed under it, like
        (01)00300239211001(17)270331(10)C1234. Product, lot, expiry and serial fill the form below.
      </p>
      {error && (
        <p id="scan-error" role="alert" className="text-red-700 text-sm">
          {error}
        </p>
      )}
      {found && (
        <p role="status" className="text-emerald-800 text-sm">
          {found}
        </p>
      )}
    </Form>
  );
}

/**
 * The scan box and what the last scan said: what was found, why it was not, and for an unknown
 * GTIN the form that attaches it to a variation (people who may change the catalogue).
 */
export function ScanSection({
  reading,
  note,
  expires,
  formError,
  attach,
  busy,
}: {
  reading: ScanReading | null;
  /** Said before what was found (a GTIN just attached). */
  note: string | null;
  /** The found lot's expiry, as the page shows dates. */
  expires: string | null;
  /** The scan's refusal (a closed receipt). */
  formError: string | null;
  attach: { allowed: boolean; choices: readonly VariationOption[]; error: string | null };
  busy: boolean;
}) {
  // An unknown GTIN is said once: the attach form comes only when a variation can take the GTIN.
  const attachable = attach.allowed && attach.choices.length > 0;
  const scanError =
    reading?.kind === "unreadable"
      ? reading.message
      : reading?.kind === "unknown"
        ? unknownGtin(reading.gtin, attach.allowed, attachable)
        : formError;
  const found =
    reading?.kind === "found"
      ? (note ? `${note} ` : "") +
        `${reading.label}${reading.prefill.lot ? `, lot ${reading.prefill.lot}` : ""}${expires ? `, expires ${expires}` : ""}${reading.prefill.serial ? `, serial ${reading.prefill.serial}` : ""}. Check the quantity and add the line.`
      : null;
  return (
    <div className="flex flex-col gap-3">
      <ScanBox error={scanError} found={found} busy={busy} />
      {reading?.kind === "unknown" &&
        (attachable ? (
          <AttachGtinForm
            gtin={reading.gtin}
            prefill={reading.prefill}
            choices={attach.choices}
            error={attach.error}
            busy={busy}
          />
        ) : (
          // Refused as the last variation without a GTIN was taken: the refusal still shows.
          <FormAlert message={attach.error} />
        ))}
    </div>
  );
}

/** What the page says of a GTIN the catalogue does not know, by what the reader can do about it. */
function unknownGtin(gtin: string, allowed: boolean, attachable: boolean): ReactNode {
  if (!allowed)
    return `GTIN ${gtin} is not in the catalogue. Choose the product below, and ask a manager to add the GTIN to its variation.`;
  if (attachable)
    return `GTIN ${gtin} is not in the catalogue. Attach it to the variation it belongs to, or choose the product below.`;
  return (
    <>
      GTIN {gtin} is not in the catalogue, and every active variation already has a GTIN of its own, so there is none to
      attach it to. Find the package's product on{" "}
      <Link to="/products" className="font-medium underline">
        Products
      </Link>
      , add a variation for this package size there, then scan again; or choose the product below.
    </>
  );
}

/** An unknown GTIN: attach it to one of the variations that have none yet (`choices`, never empty), keeping the scan's lot, expiry and serial. */
export function AttachGtinForm({
  gtin,
  prefill,
  choices,
  error,
  busy,
}: {
  gtin: string;
  prefill: LineFormValues;
  choices: readonly VariationOption[];
  error?: string | null;
  busy: boolean;
}) {
  return (
    <Form method="post" className="flex flex-col gap-3 rounded-md border border-amber-200 bg-amber-50 p-3" noValidate>
      <input type="hidden" name="intent" value="attach-gtin" />
      <input type="hidden" name="gtin" value={gtin} />
      <input type="hidden" name="lot" value={prefill.lot} />
      <input type="hidden" name="expirationDate" value={prefill.expirationDate} />
      <input type="hidden" name="serial" value={prefill.serial} />
      <FormAlert message={error} />
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-72 flex-1">
          <VariationSelect
            id="attach-variationId"
            label="Attach to variation"
            options={choices}
            defaultValue=""
            hint="Variations without a GTIN. The catalogue will know this barcode from now on."
          />
        </div>
        <Button disabled={busy}>Attach GTIN</Button>
      </div>
    </Form>
  );
}

/** The line's schema, checked before "Add line" is sent (zod comes with it, after the page is up). */
const loadLineForm = () => import("./forms").then((m) => m.ReceiptLineForm);

const TYPED = { autoComplete: "off" } as const;
const OPTIONAL = { ...TYPED, required: false, note: "optional" } as const;
const FOR_VIALS = { required: false, note: "needed for vials" } as const;

const LINE_HINTS = {
  quantity: `Packages (vials, boxes), 1 to ${LINE_QUANTITY_MAX}.`,
  unitCost: "Per package, in dollars, like 12.50. Empty: the variation's cost.",
  serial: "The manufacturer's serial number (GS1 AI 21): one package per line.",
  expiryReason: "Kept on the line and in the activity log, e.g. Received for return to vendor.",
};

export function AddLineForm({
  values,
  choices,
  fieldErrors: sentErrors,
  formError,
  busy,
  idempotencyKey,
  expiry,
}: {
  values: LineFormValues;
  choices: readonly VariationOption[];
  fieldErrors: Record<string, string | undefined>;
  formError?: string | null;
  busy: boolean;
  /** Fresh for each form the server renders: a double submit adds the line once. */
  idempotencyKey: string;
  /** The lot's expiry needs confirming (the server said so): show the box and the reason. */
  expiry: ExpiryNotice | null;
}) {
  const { expiryConfirmed: _, ...typed } = values;
  // What the browser finds before sending stands in for what the server said last.
  const check = useCheckBeforeSend(loadLineForm);
  const fieldErrors = check.problems ?? sentErrors;
  const grid = {
    values: typed,
    errors: { ...fieldErrors, unitCost: fieldErrors.unitCost ?? fieldErrors.unitCostCents },
    hints: LINE_HINTS,
  };
  return (
    <Form method="post" className="flex flex-col gap-4" noValidate {...check.form}>
      <input type="hidden" name="intent" value="add-line" />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <FormAlert message={formError} />
      <VariationSelect
        id="variationId"
        label="Product variation"
        options={choices}
        defaultValue={values.variationId}
        error={fieldErrors.variationId}
      />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-3"
        fields={[
          { ...TYPED, label: "Quantity", name: "quantity", inputMode: "numeric" },
          { ...TYPED, ...FOR_VIALS, label: "Lot", name: "lot" },
          { ...FOR_VIALS, label: "Expiration date", name: "expirationDate", type: "date" },
        ]}
      />
      {expiry && <ExpiryConfirmation expiry={expiry} values={values} errors={fieldErrors} />}
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          { ...OPTIONAL, label: "Unit cost", name: "unitCost", inputMode: "decimal" },
          { ...OPTIONAL, label: "Serial", name: "serial" },
        ]}
      />
      <div>
        <Button disabled={busy}>Add line</Button>
      </div>
    </Form>
  );
}

/** An expired or far-future lot: a box to tick and the reason, kept on the line (no JavaScript needed). */
function ExpiryConfirmation({
  expiry,
  values,
  errors,
}: {
  expiry: ExpiryNotice;
  values: LineFormValues;
  errors: FieldErrors;
}) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <legend className="px-1 font-medium text-sm">
        {expiry.check === "expired" ? "Expired lot" : "Expiration date far ahead"}
      </legend>
      {/* A refusal already says it under the expiration date; otherwise it is said here. */}
      {!errors.expirationDate && (
        <p role="status" className="text-amber-900 text-sm">
          {expiry.warning}
        </p>
      )}
      <CheckboxField
        id="expiryConfirmed"
        name="expiryConfirmed"
        value="on"
        label={expiry.check === "expired" ? "Receive this expired lot anyway" : "The expiration date is right"}
        defaultChecked={values.expiryConfirmed ?? false}
        error={errors.expiryConfirmed}
      />
      <FieldGrid
        className=""
        values={{ expiryReason: values.expiryReason ?? "" }}
        errors={errors}
        hints={LINE_HINTS}
        fields={[{ ...TYPED, label: "Reason", name: "expiryReason" }]}
      />
    </fieldset>
  );
}
