// The printer profile form's fields, shared by "New printer profile" and a profile's page. Plain
// inputs, so the form works before JavaScript loads; once it has, picking a size preset fills the
// width and height, and typing a size switches the preset to Custom.
import type { ChangeEvent } from "react";
import { ChoiceField, INPUT, Messages, TextField } from "~/products/fields";
import {
  LABEL_FIELDS,
  LABEL_OUTPUTS,
  LABEL_SYMBOLOGIES,
  type LabelField,
  PRINTER_DPIS,
  ZPL_DELIVERIES,
} from "../../db/schema/settings/constants";
import {
  CUSTOM_SIZE,
  LABEL_FIELD_LABELS,
  LABEL_OUTPUT_LABELS,
  LABEL_SIZE_PRESETS,
  LABEL_SYMBOLOGY_LABELS,
  millimetres,
  presetOf,
  ZPL_DELIVERY_LABELS,
} from "./options";

/** A profile as the form shows it: every value as typed. */
export interface ProfileFieldValues {
  name: string;
  output: string;
  zplDelivery: string;
  size: string;
  width: string;
  height: string;
  dpi: string;
  symbology: string;
  fields: string[];
  copies: string;
  offsetX: string;
  offsetY: string;
}

const TEXT_FIELDS = [
  "name",
  "output",
  "zplDelivery",
  "size",
  "width",
  "height",
  "dpi",
  "symbology",
  "copies",
  "offsetX",
  "offsetY",
] as const;

/** What the form shows again after a refused save: what was typed, as typed. */
export function typedValues(form: FormData): ProfileFieldValues {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f, text(f)])) as Omit<ProfileFieldValues, "fields">),
    fields: form.getAll("fields").filter((f): f is string => typeof f === "string"),
  };
}

/** A stored profile as the form shows it. */
export function profileValues(profile: {
  name: string;
  output: string;
  zplDelivery: string;
  widthTenthMm: number;
  heightTenthMm: number;
  dpi: number;
  symbology: string;
  fields: readonly LabelField[];
  copies: number;
  offsetXTenthMm: number;
  offsetYTenthMm: number;
}): ProfileFieldValues {
  return {
    name: profile.name,
    output: profile.output,
    zplDelivery: profile.zplDelivery,
    size: presetOf(profile.widthTenthMm, profile.heightTenthMm),
    width: millimetres(profile.widthTenthMm),
    height: millimetres(profile.heightTenthMm),
    dpi: String(profile.dpi),
    symbology: profile.symbology,
    fields: [...profile.fields],
    copies: String(profile.copies),
    offsetX: millimetres(profile.offsetXTenthMm),
    offsetY: millimetres(profile.offsetYTenthMm),
  };
}

/** What a new profile starts as: the built-in default's choices, named by the person. */
export const NEW_PROFILE_VALUES: ProfileFieldValues = {
  name: "",
  output: "browser",
  zplDelivery: "download",
  size: LABEL_SIZE_PRESETS[0].key,
  width: millimetres(LABEL_SIZE_PRESETS[0].widthTenthMm),
  height: millimetres(LABEL_SIZE_PRESETS[0].heightTenthMm),
  dpi: "203",
  symbology: "both",
  fields: [...LABEL_FIELDS],
  copies: "1",
  offsetX: "0",
  offsetY: "0",
};

const SIZE_OPTIONS = [
  ...LABEL_SIZE_PRESETS.map((p) => ({ value: p.key, label: p.label })),
  { value: CUSTOM_SIZE, label: "Custom size (type the width and height)" },
];

function pickPreset(event: ChangeEvent<HTMLSelectElement>) {
  const preset = LABEL_SIZE_PRESETS.find((p) => p.key === event.target.value);
  const form = event.target.form;
  if (!preset || !form) return;
  const set = (name: string, value: string) => {
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLInputElement) input.value = value;
  };
  set("width", millimetres(preset.widthTenthMm));
  set("height", millimetres(preset.heightTenthMm));
}

function typeSize(event: ChangeEvent<HTMLInputElement>) {
  const size = event.target.form?.elements.namedItem("size");
  if (size instanceof HTMLSelectElement) size.value = CUSTOM_SIZE;
}

function SizeInput({
  name,
  label,
  value,
  example,
  error,
}: {
  name: "width" | "height";
  label: string;
  value: string;
  example: string;
  error?: string;
}) {
  const id = `profile-${name}`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={value}
        onChange={typeSize}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ")}
        className={INPUT}
      />
      <p id={`${id}-hint`} className="text-slate-500 text-xs">
        Millimetres, 10 to 200, like {example}. Used with Custom size.
      </p>
      <Messages id={id} errors={error ? [error] : undefined} />
    </div>
  );
}

export function ProfileFields({
  values,
  errors,
}: {
  values: ProfileFieldValues;
  errors: Record<string, string | undefined>;
}) {
  return (
    <>
      <TextField
        id="profile-name"
        label="Name"
        name="name"
        required
        defaultValue={values.name}
        error={errors.name}
        hint="Say which printer it is for, like “Front desk Zebra” or “Office laser, vial sheets”."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <ChoiceField
          id="profile-output"
          label="Print with"
          name="output"
          options={LABEL_OUTPUTS.map((o) => ({ value: o, label: LABEL_OUTPUT_LABELS[o] }))}
          defaultValue={values.output}
          error={errors.output}
          hint="A print sheet works with any printer the computer has; ZPL talks to Zebra printers directly."
        />
        <ChoiceField
          id="profile-zplDelivery"
          label="ZPL goes to the printer by"
          name="zplDelivery"
          options={ZPL_DELIVERIES.map((d) => ({ value: d, label: ZPL_DELIVERY_LABELS[d] }))}
          defaultValue={values.zplDelivery}
          error={errors.zplDelivery}
          hint="Used only with ZPL. Zebra Browser Print must be installed and running on the computer that prints."
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="profile-size" className="font-medium text-sm">
          Label size
        </label>
        <select
          id="profile-size"
          name="size"
          defaultValue={values.size}
          onChange={pickPreset}
          aria-invalid={errors.size ? true : undefined}
          className={INPUT}
        >
          {SIZE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <Messages id="profile-size" errors={errors.size ? [errors.size] : undefined} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SizeInput name="width" label="Width (mm)" value={values.width} example="57.2" error={errors.width} />
        <SizeInput name="height" label="Height (mm)" value={values.height} example="31.8" error={errors.height} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <ChoiceField
          id="profile-dpi"
          label="Printer resolution"
          name="dpi"
          options={PRINTER_DPIS.map((d) => ({ value: String(d), label: `${d} dpi` }))}
          defaultValue={values.dpi}
          error={errors.dpi}
          hint="On the printer's sticker or in its manual: most desktop Zebra printers are 203 dpi."
        />
        <ChoiceField
          id="profile-symbology"
          label="Barcode"
          name="symbology"
          options={LABEL_SYMBOLOGIES.map((s) => ({ value: s, label: LABEL_SYMBOLOGY_LABELS[s] }))}
          defaultValue={values.symbology}
          error={errors.symbology}
          hint="Both barcodes hold the item's label code; DataMatrix fits small vial labels best."
        />
      </div>
      <fieldset className="flex flex-col gap-1" aria-describedby={errors.fields ? "profile-fields-error" : undefined}>
        <legend className="font-medium text-sm">Texts on the label</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {LABEL_FIELDS.map((field) => (
            <label key={field} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="fields"
                value={field}
                defaultChecked={values.fields.includes(field)}
                className="size-4"
              />
              {LABEL_FIELD_LABELS[field]}
            </label>
          ))}
        </div>
        <p className="text-slate-500 text-xs">Printed in this order, as many as fit on the label size.</p>
        <Messages id="profile-fields" errors={errors.fields ? [errors.fields] : undefined} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          id="profile-copies"
          label="Copies of each label"
          name="copies"
          required
          inputMode="numeric"
          defaultValue={values.copies}
          error={errors.copies}
          hint="1 to 10."
        />
        <TextField
          id="profile-offsetX"
          label="Move right (mm)"
          name="offsetX"
          required
          inputMode="decimal"
          defaultValue={values.offsetX}
          error={errors.offsetX}
          hint="-10 to 10; negative moves left. Corrects a printer that prints off-centre."
        />
        <TextField
          id="profile-offsetY"
          label="Move down (mm)"
          name="offsetY"
          required
          inputMode="decimal"
          defaultValue={values.offsetY}
          error={errors.offsetY}
          hint="-10 to 10; negative moves up. Content never moves past the label's edge."
        />
      </div>
    </>
  );
}
