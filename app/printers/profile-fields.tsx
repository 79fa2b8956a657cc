// The printer profile form's fields, shared by "New printer profile" and a profile's page. Plain
// inputs, so the form works before JavaScript loads; once it has, picking a size preset fills the
// width and height, and typing a size switches the preset to Custom.
import type { ChangeEvent } from "react";
import {
  CUSTOM_SIZE,
  LABEL_FIELD_LABELS,
  LABEL_OUTPUT_LABELS,
  LABEL_SIZE_PRESETS,
  LABEL_SYMBOLOGY_LABELS,
  millimetres,
  presetOf,
  ZPL_DELIVERY_LABELS,
} from "~/labels/options";
import { ChoiceGroup, Field, FieldGrid } from "~/ui/form";
import {
  LABEL_FIELDS,
  LABEL_OUTPUTS,
  LABEL_SYMBOLOGIES,
  type LabelField,
  PRINTER_DPIS,
  ZPL_DELIVERIES,
} from "../../db/schema/settings/constants";

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

/** Width and height: typed in millimetres, or filled by a preset. */
const sizeField = (name: "width" | "height", label: string, example: string) =>
  ({
    label,
    name,
    autoComplete: "off",
    required: false,
    inputMode: "decimal",
    onChange: typeSize,
    hint: `Millimetres, 10 to 200, like ${example}. Used with Custom size.`,
  }) as const;

export function ProfileFields({
  values,
  errors,
}: {
  values: ProfileFieldValues;
  errors: Record<string, string | undefined>;
}) {
  const { fields, ...typed } = values;
  const grid = { values: typed, errors, idPrefix: "profile-" };
  return (
    <>
      <Field
        id="profile-name"
        label="Name"
        name="name"
        autoComplete="off"
        defaultValue={values.name}
        error={errors.name}
        hint="Say which printer it is for, like “Front desk Zebra” or “Office laser, vial sheets”."
      />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          {
            label: "Print with",
            name: "output",
            options: LABEL_OUTPUTS.map((o) => ({ value: o, label: LABEL_OUTPUT_LABELS[o] })),
            hint: "A print sheet works with any printer the computer has; ZPL talks to Zebra printers directly.",
          },
          {
            label: "ZPL goes to the printer by",
            name: "zplDelivery",
            options: ZPL_DELIVERIES.map((d) => ({ value: d, label: ZPL_DELIVERY_LABELS[d] })),
            hint: "Used only with ZPL. Zebra Browser Print must be installed and running on the computer that prints.",
          },
        ]}
      />
      <FieldGrid
        {...grid}
        className=""
        fields={[{ label: "Label size", name: "size", options: SIZE_OPTIONS, onChange: pickPreset }]}
      />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[sizeField("width", "Width (mm)", "57.2"), sizeField("height", "Height (mm)", "31.8")]}
      />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          {
            label: "Printer resolution",
            name: "dpi",
            options: PRINTER_DPIS.map((d) => ({ value: String(d), label: `${d} dpi` })),
            hint: "On the printer's sticker or in its manual: most desktop Zebra printers are 203 dpi.",
          },
          {
            label: "Barcode",
            name: "symbology",
            options: LABEL_SYMBOLOGIES.map((s) => ({ value: s, label: LABEL_SYMBOLOGY_LABELS[s] })),
            hint: "Both barcodes hold the item's label code; DataMatrix fits small vial labels best.",
          },
        ]}
      />
      <ChoiceGroup
        id="profile-fields"
        legend="Texts on the label"
        name="fields"
        type="checkbox"
        options={LABEL_FIELDS.map((f) => ({ value: f, label: LABEL_FIELD_LABELS[f] }))}
        checked={(f) => fields.includes(f)}
        hint="Printed in this order, as many as fit on the label size."
        error={errors.fields}
      />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-3"
        fields={[
          {
            label: "Copies of each label",
            name: "copies",
            autoComplete: "off",
            inputMode: "numeric",
            hint: "1 to 10.",
          },
          {
            label: "Move right (mm)",
            name: "offsetX",
            autoComplete: "off",
            inputMode: "decimal",
            hint: "-10 to 10; negative moves left. Corrects a printer that prints off-centre.",
          },
          {
            label: "Move down (mm)",
            name: "offsetY",
            autoComplete: "off",
            inputMode: "decimal",
            hint: "-10 to 10; negative moves up. Content never moves past the label's edge.",
          },
        ]}
      />
    </>
  );
}
