// The fields of the vendor form, shared by "New vendor" and the vendor's page.
import { Field, type FieldErrors } from "~/ui/form";
import { LEAD_TIME_MAX_DAYS } from "./constants";

export const VENDOR_FIELDS = [
  "name",
  "accountNumber",
  "contactName",
  "email",
  "phone",
  "leadTimeDays",
  "notes",
] as const;
export type VendorFieldValues = Partial<Record<(typeof VENDOR_FIELDS)[number], string | number | null>>;

/** What the form shows again after a refused save: what was typed, as typed. */
export function typedValues(form: Record<string, FormDataEntryValue>): VendorFieldValues {
  return Object.fromEntries(VENDOR_FIELDS.map((f) => [f, typeof form[f] === "string" ? form[f] : ""]));
}

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? undefined : String(v));

export function VendorFields({ values, errors }: { values?: VendorFieldValues; errors: FieldErrors }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <Field label="Name" name="name" defaultValue={text(values?.name)} autoComplete="off" error={errors.name} />
        <Field
          label="Account number"
          name="accountNumber"
          defaultValue={text(values?.accountNumber)}
          autoComplete="off"
          required={false}
          hint="The clinic's account with this vendor, as on their invoices."
          error={errors.accountNumber}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Contact name"
          name="contactName"
          defaultValue={text(values?.contactName)}
          autoComplete="off"
          required={false}
          error={errors.contactName}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          defaultValue={text(values?.email)}
          autoComplete="off"
          required={false}
          error={errors.email}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Phone"
          name="phone"
          type="tel"
          defaultValue={text(values?.phone)}
          autoComplete="off"
          required={false}
          error={errors.phone}
        />
        <Field
          label="Lead time (days)"
          name="leadTimeDays"
          defaultValue={text(values?.leadTimeDays)}
          autoComplete="off"
          required={false}
          hint={`Days from ordering to delivery, 0 to ${LEAD_TIME_MAX_DAYS}.`}
          error={errors.leadTimeDays}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="notes" className="font-medium text-sm">
          Notes
        </label>
        <textarea
          id="notes"
          name="notes"
          rows={3}
          defaultValue={text(values?.notes)}
          aria-invalid={errors.notes ? true : undefined}
          aria-describedby={errors.notes ? "notes-error" : undefined}
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base aria-invalid:border-red-500"
        />
        {errors.notes && (
          <p id="notes-error" className="text-red-700 text-sm">
            {errors.notes}
          </p>
        )}
      </div>
    </>
  );
}
