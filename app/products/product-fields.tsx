// The product form's fields, shared by "New product" and the product page's edit form.
import { TRACKING_MODES } from "../../db/schema/catalog/constants";
import { SCALE_CHOICES, STORAGE_CHOICES, TRACKING_LABELS, UNIT_SCALE_HINT } from "./constants";
import { ChoiceField, Messages, TextField } from "./fields";
import { centsInput } from "./format";

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
  costCents: number | null;
  priceCents: number | null;
}

const COMMON_UNITS = ["U", "mL", "mg", "g", "each", "box"];

export function ProductFields({
  values,
  typed,
  errors,
  categories,
  vendors,
  scaleLocked = false,
  idPrefix = "product-",
}: {
  values?: ProductValues;
  /** What was typed into a form the server refused: shown again as typed (before JavaScript loads). */
  typed?: Record<string, string> | null;
  errors: Record<string, string | undefined>;
  categories: readonly string[];
  vendors: readonly { id: string; name: string; active: boolean }[];
  /** The product has variations: their units are counted at this scale. */
  scaleLocked?: boolean;
  idPrefix?: string;
}) {
  const id = (name: string) => `${idPrefix}${name}`;
  const shown = (name: string, stored: string | number | null | undefined) => typed?.[name] ?? stored ?? undefined;
  const trackingErrors = errors.tracking ? [errors.tracking] : undefined;
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <TextField
          id={id("name")}
          label="Name"
          name="name"
          required
          defaultValue={shown("name", values?.name)}
          error={errors.name}
        />
        <TextField id={id("sku")} label="SKU" name="sku" defaultValue={shown("sku", values?.sku)} error={errors.sku} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={id("category")}
          label="Category"
          name="category"
          required
          list={id("categories")}
          defaultValue={shown("category", values?.category)}
          error={errors.category}
          hint="Pick one in use or type a new one, like Neurotoxins."
        />
        <datalist id={id("categories")}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <TextField
          id={id("manufacturer")}
          label="Manufacturer"
          name="manufacturer"
          defaultValue={shown("manufacturer", values?.manufacturer)}
          error={errors.manufacturer}
        />
      </div>
      <ChoiceField
        id={id("defaultVendorId")}
        label="Default vendor"
        name="defaultVendorId"
        defaultValue={String(shown("defaultVendorId", values?.defaultVendorId) ?? "")}
        error={errors.defaultVendorId}
        options={[
          { value: "", label: "No default vendor" },
          ...vendors.map((v) => ({ value: v.id, label: v.active ? v.name : `${v.name} (archived)` })),
        ]}
      />
      <fieldset
        className="flex flex-col gap-1"
        aria-describedby={trackingErrors ? `${id("tracking")}-error` : undefined}
      >
        <legend className="font-medium text-sm">Tracking</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          {TRACKING_MODES.map((mode) => (
            <label key={mode} className="inline-flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="tracking"
                value={mode}
                defaultChecked={(shown("tracking", values?.tracking) ?? "serialized") === mode}
                className="size-4"
              />
              {TRACKING_LABELS[mode]}
            </label>
          ))}
        </div>
        <Messages id={id("tracking")} errors={trackingErrors} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={id("baseUnit")}
          label="Base unit"
          name="baseUnit"
          required
          list={id("units")}
          defaultValue={shown("baseUnit", values?.baseUnit)}
          error={errors.baseUnit}
          hint="What stock is counted in: U, mL, each…"
        />
        <datalist id={id("units")}>
          {COMMON_UNITS.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <ChoiceField
          id={id("unitScale")}
          label="Scale"
          name="unitScale"
          defaultValue={String(shown("unitScale", values?.unitScale) ?? 1)}
          error={errors.unitScale}
          options={SCALE_CHOICES}
          hint={scaleLocked ? `${UNIT_SCALE_HINT} It is fixed now that the product has variations.` : UNIT_SCALE_HINT}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={id("beyondUseHours")}
          label="Beyond-use after opening, in hours"
          name="beyondUseHours"
          inputMode="numeric"
          defaultValue={shown("beyondUseHours", values?.beyondUseHours)}
          error={errors.beyondUseHours}
          hint="How long an opened unit stays usable: 24 for a reconstituted toxin, 672 for 28 days."
        />
        <ChoiceField
          id={id("storage")}
          label="Storage"
          name="storage"
          defaultValue={String(shown("storage", values?.storage) ?? "room")}
          error={errors.storage}
          options={STORAGE_CHOICES}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={id("cost")}
          label="Cost"
          name="cost"
          inputMode="decimal"
          placeholder="0.00"
          defaultValue={shown("cost", centsInput(values?.costCents))}
          error={errors.cost}
          hint="What the clinic pays, in dollars, like 12.50."
        />
        <TextField
          id={id("price")}
          label="Price"
          name="price"
          inputMode="decimal"
          placeholder="0.00"
          defaultValue={shown("price", centsInput(values?.priceCents))}
          error={errors.price}
          hint="What the clinic charges, like 12.50."
        />
      </div>
    </>
  );
}
