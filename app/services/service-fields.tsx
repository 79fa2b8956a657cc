// The fields of the service form, shared by "New service" and the service's page.

import { centsInput } from "~/products/format";
import { Field, type FieldErrors } from "~/ui/form";
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

export function ServiceFields({
  values,
  submitted = {},
  errors,
}: {
  values?: ServiceValues;
  submitted?: SubmittedService;
  errors: FieldErrors;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <Field
          label="Name"
          name="name"
          defaultValue={submitted.name ?? values?.name}
          autoComplete="off"
          error={errors.name}
        />
        <Field
          label="Code"
          name="code"
          defaultValue={submitted.code ?? values?.code}
          autoComplete="off"
          hint={SERVICE_CODE_HINT}
          error={errors.code}
        />
      </div>
      <Field
        label="Category"
        name="category"
        defaultValue={submitted.category ?? values?.category}
        autoComplete="off"
        required={false}
        hint="For example Neurotoxin, Dermal filler or Consultation."
        error={errors.category}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Price"
          name="price"
          defaultValue={submitted.price ?? (values ? centsInput(values.priceCents) : undefined)}
          autoComplete="off"
          required={false}
          hint="In dollars, like 350.00. Leave blank if it varies."
          error={errors.price}
        />
        <Field
          label="Duration (minutes)"
          name="duration"
          defaultValue={submitted.duration ?? values?.durationMinutes?.toString()}
          autoComplete="off"
          required={false}
          hint="Whole minutes, like 30."
          error={errors.duration}
        />
      </div>
    </>
  );
}
