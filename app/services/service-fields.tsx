// The fields of the service form, shared by "New service" and the service's page.

import { centsInput } from "~/catalog/format";
import { type FieldErrors, FieldGrid, NameRow } from "~/ui/form";
import { SERVICE_CODE_HINT } from "./constants";

export interface ServiceValues {
  name: string;
  code: string;
  category: string | null;
  priceCents: number | null;
  durationMinutes: number | null;
}

/** What was typed into the form, shown again after a refusal (pages without JavaScript lose it otherwise). */
export type SubmittedService = Partial<Record<"name" | "code" | "category" | "price" | "duration", string>>;

const OPTIONAL = { autoComplete: "off", required: false } as const;

const HINTS = {
  code: SERVICE_CODE_HINT,
  category: "For example Neurotoxin, Dermal filler or Consultation.",
  price: "In dollars, like 350.00. Leave blank if it varies.",
  duration: "Whole minutes, like 30.",
};

export function ServiceFields({
  values,
  submitted = {},
  errors,
}: {
  values?: ServiceValues;
  submitted?: SubmittedService;
  errors: FieldErrors;
}) {
  const grid = {
    errors,
    values: {
      ...values,
      price: values ? centsInput(values.priceCents) : undefined,
      duration: values?.durationMinutes?.toString(),
      ...submitted,
    },
    hints: HINTS,
  };
  return (
    <>
      <NameRow {...grid} beside={{ label: "Code", name: "code", autoComplete: "off" }} />
      <FieldGrid {...grid} className="" fields={[{ ...OPTIONAL, label: "Category", name: "category" }]} />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          { ...OPTIONAL, label: "Price", name: "price" },
          { ...OPTIONAL, label: "Duration (minutes)", name: "duration" },
        ]}
      />
    </>
  );
}
