// The variation form's fields, shared by "Add a variation" and each variation's edit form.

import { centsInput, formatScaled, type UnitScale } from "~/catalog/format";
import { type FieldErrors, FieldGrid } from "~/ui/form";
import { MONEY, OPTIONAL, TEXT } from "./product-fields";

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
  errors: FieldErrors;
  baseUnit: string;
  unitScale: UnitScale;
}) {
  const grid = {
    idPrefix,
    errors,
    values: {
      ...values,
      unitsPerPackage: values ? formatScaled(values.unitsPerPackage, unitScale, { trim: true }) : undefined,
      cost: centsInput(values?.costCents),
      ...typed,
    },
    hints: {
      name: "How it is stocked, like 100 U vial or Box of 100.",
      gtin: "The 8, 12, 13 or 14 digits under the manufacturer's barcode.",
      unitsPerPackage: `How many ${baseUnit} one package holds.`,
      cost: "In dollars, like 12.50.",
    },
  };
  return (
    <>
      {/* The scale the units are typed at: the server refuses the save if it changed meanwhile. */}
      <input type="hidden" name="unitScale" value={unitScale} />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          { ...TEXT, label: "Variation name", name: "name" },
          { ...OPTIONAL, label: "Variation SKU", name: "sku" },
        ]}
      />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-3"
        fields={[
          { ...OPTIONAL, label: "GTIN", name: "gtin", inputMode: "numeric" },
          { ...TEXT, label: `Units per package (${baseUnit})`, name: "unitsPerPackage", inputMode: "decimal" },
          { ...MONEY, label: "Package cost", name: "cost" },
        ]}
      />
    </>
  );
}
