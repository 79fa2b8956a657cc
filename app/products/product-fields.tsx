// The product form's fields, shared by "New product" and the product page's edit form: described
// as data and drawn by the shared field family (app/ui/form.tsx).

import { centsInput, formatBeyondUse } from "~/catalog/format";
import { CheckboxField, ChoiceGroup, Facts, type FieldErrors, FieldGrid, NameRow, Suggestions } from "~/ui/form";
import {
  SAFETY_FIELDS_ADMIN_ONLY,
  SCALE_CHOICES,
  STORAGE_CHOICES,
  TRACKING_CHOICES,
  TRACKING_LABELS,
  TRACKING_LOCKED_HINT,
  type Tracking,
  UNIT_SCALE_HINT,
} from "./constants";

export interface ProductValues {
  name: string;
  sku: string | null;
  category: string;
  manufacturer: string | null;
  defaultVendorId: string | null;
  tracking: string;
  baseUnit: string;
  unitScale: number;
  beyondUseHours: number | null;
  storage: string;
  controlled: boolean;
  costCents: number | null;
  priceCents: number | null;
}

/** Catalogue fields: typed by hand (no autofill); a field that may stay empty says so in its label. */
export const TEXT = { autoComplete: "off" } as const;
export const OPTIONAL = { ...TEXT, required: false, note: "optional" } as const;
export const MONEY = { ...OPTIONAL, inputMode: "decimal", placeholder: "0.00" } as const;

const COMMON_UNITS = ["U", "mL", "mg", "g", "each", "box"];

const trackingLabel = (mode: string) => TRACKING_LABELS[mode as Tracking] ?? mode;

/**
 * The stored safety values, sent unchanged by a form that shows them read-only (the server refuses
 * a change from anyone not allowed to make it).
 */
function SafetyInputs({ values, only }: { values?: ProductValues; only?: "tracking" }) {
  if (!values) return null;
  return (
    <>
      <input type="hidden" name="tracking" value={values.tracking} />
      {only !== "tracking" && (
        <>
          <input type="hidden" name="beyondUseHours" value={values.beyondUseHours ?? ""} />
          {values.controlled && <input type="hidden" name="controlled" value="on" />}
        </>
      )}
    </>
  );
}

const HINTS = {
  category: "Pick one in use or type a new one, like Neurotoxins.",
  baseUnit: "What stock is counted in: U, mL, each…",
  beyondUseHours: "How long an opened unit stays usable: 24 for a reconstituted toxin, 672 for 28 days.",
  cost: "What the clinic pays, in dollars, like 12.50.",
  price: "What the clinic charges, like 12.50.",
};

export function ProductFields({
  values,
  typed,
  errors,
  categories,
  vendors,
  scaleLocked = false,
  safetyLocked = false,
  trackingLocked = false,
  idPrefix = "product-",
}: {
  values?: ProductValues;
  /** What was typed into a form the server refused: shown again as typed (before JavaScript loads). */
  typed?: Record<string, string> | null;
  errors: FieldErrors;
  categories: readonly string[];
  vendors: readonly { id: string; name: string; active: boolean }[];
  /** The product has variations: their units are counted at this scale. */
  scaleLocked?: boolean;
  /** The viewer is not an organization admin: tracking, beyond-use and controlled are shown, not edited. */
  safetyLocked?: boolean;
  /** The product has stock, vials or open receipt lines: its tracking is shown, not edited. */
  trackingLocked?: boolean;
  idPrefix?: string;
}) {
  // What is stored, with what was typed into a refused form on top.
  const shown: Record<string, string | number | null | undefined> = {
    ...values,
    defaultVendorId: values?.defaultVendorId ?? "",
    tracking: values?.tracking ?? "serialized",
    unitScale: values?.unitScale ?? 1,
    storage: values?.storage ?? "room",
    cost: centsInput(values?.costCents),
    price: centsInput(values?.priceCents),
    controlled: undefined, // the box below reads its own state
    ...typed,
  };
  const scaleHint = scaleLocked
    ? `${UNIT_SCALE_HINT} It is fixed now that the product has variations.`
    : UNIT_SCALE_HINT;
  const grid = { values: shown, errors, idPrefix, hints: { ...HINTS, unitScale: scaleHint } };
  const vendorChoices = [
    { value: "", label: "No default vendor" },
    ...vendors.map((v) => ({ value: v.id, label: v.active ? v.name : `${v.name} (archived)` })),
  ];
  return (
    <>
      <NameRow {...grid} beside={{ ...OPTIONAL, label: "SKU", name: "sku" }} />
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          { ...TEXT, label: "Category", name: "category", list: `${idPrefix}categories` },
          { ...OPTIONAL, label: "Manufacturer", name: "manufacturer" },
        ]}
      >
        <Suggestions id={`${idPrefix}categories`} values={categories} />
      </FieldGrid>
      <FieldGrid
        {...grid}
        className=""
        fields={[{ label: "Default vendor", name: "defaultVendorId", options: vendorChoices }]}
      />
      {safetyLocked ? (
        <section
          aria-labelledby={`${idPrefix}safety-title`}
          className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3"
        >
          <h3 id={`${idPrefix}safety-title`} className="font-medium text-sm">
            Safety, at every location
          </h3>
          <Facts
            items={[
              ["Tracking", trackingLabel(String(values?.tracking ?? ""))],
              ["Beyond-use after opening", formatBeyondUse(values?.beyondUseHours)],
              ["Controlled substance", values?.controlled ? "Yes: wasting units needs a witness" : "No"],
            ]}
          />
          <p className="text-slate-600 text-sm">{SAFETY_FIELDS_ADMIN_ONLY}</p>
          <SafetyInputs values={values} />
        </section>
      ) : trackingLocked ? (
        <div className="flex flex-col gap-1">
          <p className="font-medium text-sm">Tracking</p>
          <p className="text-sm">{trackingLabel(String(values?.tracking ?? ""))}</p>
          <p className="text-slate-600 text-sm">{TRACKING_LOCKED_HINT}</p>
          <SafetyInputs values={values} only="tracking" />
        </div>
      ) : (
        <ChoiceGroup
          id={`${idPrefix}tracking`}
          legend="Tracking"
          name="tracking"
          type="radio"
          options={TRACKING_CHOICES}
          checked={(mode) => shown.tracking === mode}
          error={errors.tracking}
        />
      )}
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          { ...TEXT, label: "Base unit", name: "baseUnit", list: `${idPrefix}units` },
          { label: "Scale", name: "unitScale", options: SCALE_CHOICES },
        ]}
      >
        <Suggestions id={`${idPrefix}units`} values={COMMON_UNITS} />
      </FieldGrid>
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          ...(safetyLocked
            ? []
            : [
                {
                  ...OPTIONAL,
                  label: "Beyond-use after opening, in hours",
                  name: "beyondUseHours",
                  inputMode: "numeric" as const,
                },
              ]),
          { label: "Storage", name: "storage", options: STORAGE_CHOICES },
        ]}
      />
      {!safetyLocked && (
        <CheckboxField
          id={`${idPrefix}controlled`}
          name="controlled"
          label="Controlled substance (wasting units needs a witness)"
          // A refused form shows the box as it was sent: a ticked box sends "on", an unticked one nothing.
          defaultChecked={typed ? typed.controlled === "on" : (values?.controlled ?? false)}
          error={errors.controlled}
          hint="Emptying or discarding a vial with units left then needs a second person of the location to confirm with their own password."
        />
      )}
      <FieldGrid
        {...grid}
        className="sm:grid-cols-2"
        fields={[
          { ...MONEY, label: "Cost", name: "cost" },
          { ...MONEY, label: "Price", name: "price" },
        ]}
      />
    </>
  );
}
