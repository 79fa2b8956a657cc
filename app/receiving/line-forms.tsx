// The forms of an open receipt: the GS1 scan box (a keyboard-wedge scanner types the code and
// presses Enter), attaching an unknown GTIN to a variation, and "Add line", which a scan fills.
// Plain forms: all of it works before JavaScript loads; the scan box takes the focus on every
// page load so the next scan lands there.
import { Form, Link } from "@remix-run/react";
import { TextField } from "~/products/fields";
import { formatMoney, formatQuantity, type UnitScale } from "~/products/format";
import { Button, FormAlert } from "~/ui/form";
import { type ExpiryNotice, LINE_QUANTITY_MAX, type LineFormValues } from "./constants";

const INPUT =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base aria-invalid:border-red-500 disabled:bg-slate-100";

export interface VariationOption {
  id: string;
  product: string;
  variation: string;
  tracking: "serialized" | "bulk";
  baseUnit: string;
  unitScale: UnitScale;
  unitsPerPackage: number;
  costCents: number | null;
}

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
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      <select
        id={id}
        name="variationId"
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={INPUT}
      >
        <option value="">Choose a product variation</option>
        {[...groups].map(([product, variations]) => (
          <optgroup key={product} label={product}>
            {variations.map((v) => (
              <option key={v.id} value={v.id}>
                {optionText(v)}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="text-slate-500 text-xs">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-red-700 text-sm">
          {error}
        </p>
      )}
    </div>
  );
}

export function ScanBox({ error, found, busy }: { error?: string | null; found?: string | null; busy: boolean }) {
  return (
    <Form method="post" className="flex flex-col gap-2" noValidate>
      <input type="hidden" name="intent" value="scan" />
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-72 flex-1 flex-col gap-1">
          <label htmlFor="scan" className="font-medium text-sm">
            Scan GS1 barcode
          </label>
          <input
            id="scan"
            name="scan"
            // The next scan goes here: a keyboard-wedge scanner types into the focused field.
            // biome-ignore lint/a11y/noAutofocus: the receiving desk scans package after package into this box.
            autoFocus
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

/** An unknown GTIN: attach it to a variation that has none yet, keeping the scan's lot, expiry and serial. */
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
      {choices.length === 0 ? (
        <p className="text-sm">
          GTIN {gtin} is not in the catalogue, and every active variation already has a GTIN of its own, so there is
          none to attach it to. Find the package's product on{" "}
          <Link to="/products" className="font-medium text-sky-800 hover:underline">
            Products
          </Link>
          , add a variation for this package size there, then scan again.
        </p>
      ) : (
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
      )}
    </Form>
  );
}

export function AddLineForm({
  values,
  choices,
  fieldErrors,
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
  return (
    <Form method="post" className="flex flex-col gap-4" noValidate>
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
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          id="quantity"
          label="Quantity"
          name="quantity"
          inputMode="numeric"
          defaultValue={values.quantity}
          required
          hint={`Packages (vials, boxes), 1 to ${LINE_QUANTITY_MAX}.`}
          error={fieldErrors.quantity}
        />
        <TextField
          id="lot"
          label="Lot"
          name="lot"
          defaultValue={values.lot}
          whenOptional="needed for vials"
          error={fieldErrors.lot}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="expirationDate" className="font-medium text-sm">
            Expiration date <span className="font-normal text-slate-500">(needed for vials)</span>
          </label>
          <input
            id="expirationDate"
            name="expirationDate"
            type="date"
            defaultValue={values.expirationDate}
            aria-invalid={fieldErrors.expirationDate ? true : undefined}
            aria-describedby={fieldErrors.expirationDate ? "expirationDate-error" : undefined}
            className={INPUT}
          />
          {fieldErrors.expirationDate && (
            <p id="expirationDate-error" className="text-red-700 text-sm">
              {fieldErrors.expirationDate}
            </p>
          )}
        </div>
      </div>
      {expiry && (
        <ExpiryConfirmation
          expiry={expiry}
          values={values}
          warned={Boolean(fieldErrors.expirationDate)}
          errors={fieldErrors}
        />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="unitCost"
          label="Unit cost"
          name="unitCost"
          inputMode="decimal"
          defaultValue={values.unitCost}
          hint="Per package, in dollars, like 12.50. Empty: the variation's cost."
          error={fieldErrors.unitCost ?? fieldErrors.unitCostCents}
        />
        <TextField
          id="serial"
          label="Serial"
          name="serial"
          defaultValue={values.serial}
          hint="The manufacturer's serial number (GS1 AI 21): one package per line."
          error={fieldErrors.serial}
        />
      </div>
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
  warned,
  errors,
}: {
  expiry: ExpiryNotice;
  values: LineFormValues;
  /** The warning is already under the expiration date (a refusal); otherwise say it here. */
  warned: boolean;
  errors: Record<string, string | undefined>;
}) {
  const confirmError = errors.expiryConfirmed;
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <legend className="px-1 font-medium text-sm">
        {expiry.check === "expired" ? "Expired lot" : "Expiration date far ahead"}
      </legend>
      {!warned && (
        <p role="status" className="text-amber-900 text-sm">
          {expiry.warning}
        </p>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name="expiryConfirmed"
          value="on"
          defaultChecked={values.expiryConfirmed ?? false}
          aria-describedby={confirmError ? "expiryConfirmed-error" : undefined}
          className="h-4 w-4"
        />
        {expiry.check === "expired" ? "Receive this expired lot anyway" : "The expiration date is right"}
      </label>
      {confirmError && (
        <p id="expiryConfirmed-error" className="text-red-700 text-sm">
          {confirmError}
        </p>
      )}
      <TextField
        id="expiryReason"
        label="Reason"
        name="expiryReason"
        defaultValue={values.expiryReason ?? ""}
        required
        hint="Kept on the line and in the activity log, e.g. Received for return to vendor."
        error={errors.expiryReason}
      />
    </fieldset>
  );
}
