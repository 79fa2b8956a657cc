// The fields of the location form, shared by "New location" and the edit page.
import { type FieldErrors, FieldGrid, NameRow } from "~/ui/form";

export function LocationFields({
  values,
  errors,
}: {
  values?: { name: string; code: string; address: string | null; timezone: string };
  errors: FieldErrors;
}) {
  const grid = { values: { timezone: "America/New_York", ...values }, errors };
  return (
    <>
      <NameRow
        {...grid}
        beside={{
          label: "Code",
          name: "code",
          autoComplete: "off",
          hint: "2 to 8 letters or digits, printed on labels.",
        }}
      />
      <FieldGrid
        {...grid}
        className=""
        fields={[
          { label: "Address", name: "address", autoComplete: "street-address", required: false },
          {
            label: "Time zone",
            name: "timezone",
            autoComplete: "off",
            hint: "IANA name, like America/New_York or Europe/London.",
          },
        ]}
      />
    </>
  );
}
