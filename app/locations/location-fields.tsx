// The fields of the location form, shared by "New location" and the edit page.
import { Field, type FieldErrors } from "~/ui/form";

export function LocationFields({
  values,
  errors,
}: {
  values?: { name: string; code: string; address: string | null; timezone: string };
  errors: FieldErrors;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <Field label="Name" name="name" defaultValue={values?.name} autoComplete="off" error={errors.name} />
        <Field
          label="Code"
          name="code"
          defaultValue={values?.code}
          autoComplete="off"
          hint="2 to 8 letters or digits, printed on labels."
          error={errors.code}
        />
      </div>
      <Field
        label="Address"
        name="address"
        defaultValue={values?.address}
        autoComplete="street-address"
        required={false}
        error={errors.address}
      />
      <Field
        label="Time zone"
        name="timezone"
        defaultValue={values?.timezone ?? "America/New_York"}
        autoComplete="off"
        hint="IANA name, like America/New_York or Europe/London."
        error={errors.timezone}
      />
    </>
  );
}
