// The fields of the vendor form, shared by "New vendor" and the vendor's page.
import { type FieldErrors, FieldGrid, NameRow, TextareaField } from "~/ui/form";
import { LEAD_TIME_MAX_DAYS, VENDOR_FIELDS } from "./constants";

export type VendorFieldValues = Partial<Record<(typeof VENDOR_FIELDS)[number], string | number | null>>;

/** What the form shows again after a refused save: what was typed, as typed. */
export function typedValues(form: Record<string, FormDataEntryValue>): VendorFieldValues {
  return Object.fromEntries(VENDOR_FIELDS.map((f) => [f, typeof form[f] === "string" ? form[f] : ""]));
}

const OPTIONAL = { autoComplete: "off", required: false } as const;

export function VendorFields({ values = {}, errors }: { values?: VendorFieldValues; errors: FieldErrors }) {
  const grid = { values, errors };
  return (
    <>
      <NameRow
        {...grid}
        beside={{
          ...OPTIONAL,
          label: "Account number",
          name: "accountNumber",
          hint: "The clinic's account with this vendor, as on their invoices.",
        }}
      />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          { ...OPTIONAL, label: "Contact name", name: "contactName" },
          { ...OPTIONAL, label: "Email", name: "email", type: "email" },
        ]}
      />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          { ...OPTIONAL, label: "Phone", name: "phone", type: "tel" },
          {
            ...OPTIONAL,
            label: "Lead time (days)",
            name: "leadTimeDays",
            hint: `Days from ordering to delivery, 0 to ${LEAD_TIME_MAX_DAYS}.`,
          },
        ]}
      />
      <TextareaField label="Notes" name="notes" rows={3} defaultValue={values.notes} error={errors.notes} />
    </>
  );
}
