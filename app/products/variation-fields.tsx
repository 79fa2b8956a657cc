// The variation form's fields, shared by "Add a variation" and each variation's edit form.
import { TextField } from "./fields";
import { centsInput, formatScaled, type UnitScale } from "./format";

export interface VariationValues {
  name: string;
  sku: string | null;
  gtin: string | null;
  unitsPerPackage: number;
  costCents: number | null;
}

export function VariationFields({
  idPrefix,
  values,
  typed,
  errors,
  baseUnit,
  unitScale,
}: {
  idPrefix: string;
  values?: VariationValues;
  /** What was typed into a form the server refused (see ProductFields). */
  typed?: Record<string, string> | null;
  errors: Record<string, string | undefined>;
  baseUnit: string;
  unitScale: UnitScale;
}) {
  const id = (name: string) => `${idPrefix}${name}`;
  const shown = (name: string, stored: string | null | undefined) => typed?.[name] ?? stored ?? undefined;
  return (
    <>
      {/* The scale the units are typed at: the server refuses the save if it changed meanwhile. */}
      <input type="hidden" name="unitScale" value={unitScale} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={id("name")}
          label="Variation name"
          name="name"
          required
          defaultValue={shown("name", values?.name)}
          error={errors.name}
          hint="How it is stocked, like 100 U vial or Box of 100."
        />
        <TextField
          id={id("sku")}
          label="Variation SKU"
          name="sku"
          defaultValue={shown("sku", values?.sku)}
          error={errors.sku}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          id={id("gtin")}
          label="GTIN"
          name="gtin"
          inputMode="numeric"
          defaultValue={shown("gtin", values?.gtin)}
          error={errors.gtin}
          hint="The 8, 12, 13 or 14 digits under the manufacturer's barcode."
        />
        <TextField
          id={id("unitsPerPackage")}
          label={`Units per package (${baseUnit})`}
          name="unitsPerPackage"
          required
          inputMode="decimal"
          defaultValue={shown(
            "unitsPerPackage",
            values ? formatScaled(values.unitsPerPackage, unitScale, { trim: true }) : undefined,
          )}
          error={errors.unitsPerPackage}
          hint={`How many ${baseUnit} one package holds.`}
        />
        <TextField
          id={id("cost")}
          label="Package cost"
          name="cost"
          inputMode="decimal"
          placeholder="0.00"
          defaultValue={shown("cost", centsInput(values?.costCents))}
          error={errors.cost}
          hint="In dollars, like 12.50."
        />
      </div>
    </>
  );
}
