// A service's recipe on its page: the lines (what one service consumes), and for editors the
// forms that change one line, add one, or save the whole recipe at once. Plain forms: all of it
// works before JavaScript loads; with it, the quantity field names the chosen product's unit.
import { Form } from "@remix-run/react";
import { useState } from "react";
import { quantityStep } from "~/catalog/amounts";
import { formatQuantity, formatScaled, type UnitScale } from "~/catalog/format";
import { Button, Field, FormAlert, SelectField } from "~/ui/form";
import { CELL, DataRow, DataTable } from "~/ui/table";
import { RECIPE_BLANK_ROWS, type ServiceIntent } from "./constants";

export interface RecipeLine {
  variationId: string;
  quantity: number;
  product: string;
  variation: string;
  baseUnit: string;
  unitScale: UnitScale;
  usable: boolean;
}

export interface VariationOption {
  id: string;
  product: string;
  variation: string;
  baseUnit: string;
  unitScale: UnitScale;
}

export interface RecipeFailure {
  intent: ServiceIntent;
  fieldErrors: Record<string, string | undefined>;
  formError: string | null;
  variationId?: string;
}

const labelOf = (l: { product: string; variation: string }) => `${l.product} · ${l.variation}`;
const inputOf = (l: RecipeLine) => formatScaled(l.quantity, l.unitScale, { trim: true });

/** Options grouped by product, as `<optgroup>`s. */
function VariationOptions({ options }: { options: readonly VariationOption[] }) {
  const groups = new Map<string, VariationOption[]>();
  for (const o of options) groups.set(o.product, [...(groups.get(o.product) ?? []), o]);
  return (
    <>
      {[...groups].map(([product, variations]) => (
        <optgroup key={product} label={product}>
          {variations.map((v) => (
            // The product again in the text: screen readers and pickers do not always say the group.
            <option key={v.id} value={v.id}>
              {labelOf(v)} ({v.baseUnit})
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

/** A quantity typed in the product's unit: not required (an empty row is dropped), never autofilled. */
const QUANTITY = { name: "quantity", inputMode: "decimal", autoComplete: "off", required: false } as const;

export function RecipeEditor({
  recipe,
  choices,
  canWrite,
  version,
  failure,
  busy,
}: {
  recipe: readonly RecipeLine[];
  choices: readonly VariationOption[];
  canWrite: boolean;
  version: number;
  failure: RecipeFailure | null;
  busy: boolean;
}) {
  const failed = (intent: ServiceIntent) => (failure?.intent === intent ? failure : null);
  const lineFailure = failure?.intent === "update-line" || failure?.intent === "remove-line" ? failure : null;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-600 text-sm">What one of this service consumes, in each product's unit.</p>
      <FormAlert message={lineFailure && !lineFailure.fieldErrors.quantity ? lineFailure.formError : null} />
      <DataTable
        caption="Recipe lines"
        columns={canWrite ? ["Product variation", "Quantity per service", ""] : ["Product variation", "Quantity"]}
        rowCount={recipe.length}
        empty={canWrite ? "No lines yet: add what one service consumes below." : "This service has no recipe yet."}
      >
        {recipe.map((line) => {
          const label = labelOf(line);
          const id = `line-${line.variationId}`;
          const error = lineFailure?.variationId === line.variationId ? lineFailure.fieldErrors.quantity : undefined;
          return (
            <DataRow key={line.variationId}>
              <td className={CELL}>
                <span className="font-medium">{line.product}</span> · {line.variation}
                {!line.usable && (
                  <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-amber-800 text-xs ring-1 ring-amber-600/20">
                    Archived
                  </span>
                )}
              </td>
              {canWrite ? (
                <>
                  <td className={CELL}>
                    <Form method="post" className="flex flex-wrap items-start gap-2" noValidate>
                      <input type="hidden" name="variationId" value={line.variationId} />
                      <Field
                        {...QUANTITY}
                        id={`${id}-quantity`}
                        label={`Quantity of ${label}`}
                        labelHidden
                        defaultValue={inputOf(line)}
                        error={error}
                        controlClassName="w-24"
                      />
                      <span className="py-2 text-slate-700">{line.baseUnit}</span>
                      <button
                        type="submit"
                        name="intent"
                        value="update-line"
                        disabled={busy}
                        aria-label={`Save quantity of ${label}`}
                        className="min-h-10 rounded-md border border-slate-300 bg-white px-2 py-1 font-medium text-sm hover:bg-slate-100 disabled:opacity-60"
                      >
                        Save
                      </button>
                    </Form>
                  </td>
                  <td className={`${CELL} text-right`}>
                    <Form method="post">
                      <input type="hidden" name="variationId" value={line.variationId} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove-line"
                        disabled={busy}
                        aria-label={`Remove ${label}`}
                        className="min-h-10 rounded-md border border-red-300 bg-white px-2 py-1 font-medium text-red-700 text-sm hover:bg-red-50 disabled:opacity-60"
                      >
                        Remove
                      </button>
                    </Form>
                  </td>
                </>
              ) : (
                <td className={`${CELL} tabular-nums`}>
                  {formatQuantity(line.quantity, line.unitScale, line.baseUnit)}
                </td>
              )}
            </DataRow>
          );
        })}
      </DataTable>

      {canWrite && (
        <>
          <AddLineForm choices={choices} failure={failed("add-line")} busy={busy} />
          <WholeRecipeForm
            recipe={recipe}
            choices={choices}
            version={version}
            failure={failed("save-recipe")}
            busy={busy}
          />
        </>
      )}
    </div>
  );
}

function AddLineForm({
  choices,
  failure,
  busy,
}: {
  choices: readonly VariationOption[];
  failure: RecipeFailure | null;
  busy: boolean;
}) {
  const [chosen, setChosen] = useState("");
  const choice = choices.find((c) => c.id === chosen);
  const errors = failure?.fieldErrors ?? {};
  const hint = choice
    ? `Measured in ${quantityStep(choice.unitScale, choice.baseUnit)}.`
    : "In the product's unit, shown after each variation (e.g. 0.5 for 0.5 mL).";
  return (
    <Form method="post" className="flex flex-col gap-3 rounded-md border border-slate-200 p-3" noValidate>
      <h3 className="font-medium">Add a line</h3>
      <FormAlert message={failure?.formError} />
      {choices.length === 0 ? (
        <p className="text-slate-600 text-sm">There are no active products to add yet: add them under Products.</p>
      ) : (
        <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-start">
          <SelectField
            id="add-variationId"
            label="Product variation"
            name="variationId"
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            error={errors.variationId}
            options={[{ value: "", label: "Choose…" }]}
            choices={<VariationOptions options={choices} />}
          />
          <Field
            {...QUANTITY}
            id="add-quantity"
            label={`Quantity${choice ? ` (${choice.baseUnit})` : ""}`}
            hint={hint}
            error={errors.quantity}
          />
          <div className="sm:pt-6">
            <Button name="intent" value="add-line" disabled={busy}>
              Add to recipe
            </Button>
          </div>
        </div>
      )}
    </Form>
  );
}

function WholeRecipeForm({
  recipe,
  choices,
  version,
  failure,
  busy,
}: {
  recipe: readonly RecipeLine[];
  choices: readonly VariationOption[];
  version: number;
  failure: RecipeFailure | null;
  busy: boolean;
}) {
  const rows: (RecipeLine | null)[] = [...recipe, ...Array.from({ length: RECIPE_BLANK_ROWS }, () => null)];
  const errors = failure?.fieldErrors ?? {};
  // An archived variation already in the recipe stays selectable, so the form shows it as it is.
  const options = [
    ...choices,
    ...recipe.filter((l) => !choices.some((c) => c.id === l.variationId)).map((l) => ({ ...l, id: l.variationId })),
  ];
  return (
    <details open={failure !== null} className="rounded-md border border-slate-200 p-3">
      <summary className="cursor-pointer font-medium">Edit the whole recipe at once</summary>
      <Form method="post" className="mt-3 flex flex-col gap-3" noValidate>
        <p className="text-slate-600 text-sm">
          Saving replaces every line with the rows below; leave a row empty to drop it.
        </p>
        <FormAlert message={failure?.formError} />
        <input type="hidden" name="version" value={version} />
        {rows.map((line, row) => {
          const n = row + 1;
          return (
            <div
              // Rows are positions in a form, not records: the index is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={row}
              className="grid gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] sm:items-start"
            >
              <SelectField
                id={`row-${row}-variation`}
                label={`Variation on line ${n}`}
                name="variationId"
                defaultValue={line?.variationId ?? ""}
                error={errors[`variationId-${row}`]}
                options={[{ value: "", label: "None" }]}
                choices={<VariationOptions options={options} />}
              />
              <Field
                {...QUANTITY}
                id={`row-${row}-quantity`}
                label={`Quantity on line ${n}`}
                defaultValue={line ? inputOf(line) : ""}
                error={errors[`quantity-${row}`]}
              />
            </div>
          );
        })}
        <div>
          <Button name="intent" value="save-recipe" disabled={busy}>
            Save recipe
          </Button>
        </div>
      </Form>
    </details>
  );
}
