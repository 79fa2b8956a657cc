// One variation on the product page: its facts, its edit form and archive/restore (writers), its
// barcodes, and on-hand and par levels at each location the viewer works at (par levels editable
// where the viewer holds WRITE_PRODUCTS).
import { Form } from "@remix-run/react";
import { formatMoney, formatQuantity, type UnitScale } from "~/catalog/format";
import { Button, Facts, Field, FormAlert, StatusBadge } from "~/ui/form";
import { CELL, DataRow, DataTable } from "~/ui/table";
import { BarcodeField } from "./barcode-field";
import { VariationFields } from "./variation-fields";
import { type Failure, parTarget, type VariationView } from "./view";

export function VariationSection({
  variation,
  baseUnit,
  unitScale,
  canWrite,
  failure,
  busy,
}: {
  variation: VariationView;
  baseUnit: string;
  unitScale: UnitScale;
  canWrite: boolean;
  failure: Failure | null;
  busy: boolean;
}) {
  const v = variation;
  const headingId = `variation-${v.id}-title`;
  const about = (intents: Failure["intent"][], target = v.id) =>
    failure && intents.includes(failure.intent) && failure.target === target ? failure : null;
  const edit = about(["variation-update"]);
  const status = about(["variation-archive", "variation-restore", "barcode-remove"]);
  const barcode = about(["barcode-add"]);
  const anyParEditable = v.locations.some((l) => l.canEdit);

  return (
    <section
      id={`variation-${v.id}`}
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="font-semibold text-lg">
          {v.name}
        </h3>
        {!v.active && <StatusBadge active={false} labels={["Active", "Archived"]} />}
      </div>
      <Facts
        items={[
          ["SKU", v.sku ?? "—"],
          [
            "GTIN",
            v.gtin ? (
              <span key="gtin" className="font-mono">
                {v.gtin}
              </span>
            ) : (
              "—"
            ),
          ],
          ["Units per package", formatQuantity(v.unitsPerPackage, unitScale, baseUnit)],
          ["Package cost", formatMoney(v.costCents)],
        ]}
      />
      <FormAlert message={status?.formError} />

      {canWrite && (
        <div className="flex flex-wrap items-start gap-3">
          <details
            key={`edit-${v.version}`}
            open={Boolean(edit)}
            className="min-w-0 flex-1 rounded-md border border-slate-200"
          >
            <summary className="cursor-pointer px-3 py-2 font-medium text-sky-800 text-sm">Edit {v.name}</summary>
            <Form method="post" className="flex flex-col gap-4 border-slate-200 border-t p-3" noValidate>
              <FormAlert message={edit?.formError} />
              <input type="hidden" name="variationId" value={v.id} />
              <input type="hidden" name="version" value={v.version} />
              <VariationFields
                idPrefix={`v-${v.id}-`}
                values={v}
                typed={edit && !edit.conflict ? edit.typed : null}
                errors={edit?.fieldErrors ?? {}}
                baseUnit={baseUnit}
                unitScale={unitScale}
              />
              <div>
                <Button name="intent" value="variation-update" disabled={busy}>
                  Save variation
                </Button>
              </div>
            </Form>
          </details>
          <Form method="post">
            <input type="hidden" name="variationId" value={v.id} />
            {v.active ? (
              <Button tone="danger" name="intent" value="variation-archive" disabled={busy}>
                Archive variation
              </Button>
            ) : (
              <Button tone="secondary" name="intent" value="variation-restore" disabled={busy}>
                Restore variation
              </Button>
            )}
          </Form>
        </div>
      )}

      <div className="flex flex-col gap-2">
        <h4 className="font-medium">Barcodes</h4>
        {v.barcodes.length === 0 ? (
          <p className="text-slate-600 text-sm">No barcodes yet.</p>
        ) : (
          <ul aria-label={`Barcodes of ${v.name}`} className="flex flex-wrap gap-2">
            {v.barcodes.map((b) => (
              <li
                key={b.id}
                className="inline-flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50 px-2 py-1 font-mono text-sm"
              >
                {b.code}
                {canWrite && (
                  <Form method="post" className="inline">
                    <input type="hidden" name="barcodeId" value={b.id} />
                    <input type="hidden" name="variationId" value={v.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="barcode-remove"
                      disabled={busy}
                      aria-label={`Remove barcode ${b.code}`}
                      className="font-sans text-red-700 text-xs hover:underline"
                    >
                      Remove
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        )}
        {canWrite && (
          <Form
            key={`barcodes-${v.barcodes.map((b) => b.id).join(",")}`}
            method="post"
            className="flex flex-wrap items-start gap-3"
            noValidate
          >
            <input type="hidden" name="variationId" value={v.id} />
            <BarcodeField
              id={`barcode-${v.id}`}
              serverErrors={barcode?.barcodeErrors}
              suggestion={barcode?.suggestion}
              defaultValue={barcode?.typed?.code}
            />
            <div className="sm:pt-6">
              <Button name="intent" value="barcode-add" disabled={busy}>
                Add barcode
              </Button>
            </div>
          </Form>
        )}
      </div>

      <div className="flex flex-col gap-2">
        <h4 className="font-medium">Stock and par levels</h4>
        <p className="text-slate-600 text-sm">
          On hand in {baseUnit}; par, reorder point and maximum in packages of {v.name}.
        </p>
        <DataTable
          caption={`Stock and par levels of ${v.name}`}
          columns={["Location", "On hand", "Par", "Reorder point", "Max", ...(anyParEditable ? [""] : [])]}
          rowCount={v.locations.length}
          empty="You do not work at any location."
        >
          {v.locations.map((l) => {
            const target = parTarget(v.id, l.locationId);
            const par = about(["par-set", "par-clear"], target);
            const formId = `par-${v.id}-${l.locationId}`;
            const level = l.parLevel;
            const typed = par?.typed;
            const cell = (name: "par" | "reorderPoint" | "max", label: string, stored: number | null | undefined) =>
              l.canEdit ? (
                <td className={CELL}>
                  <Field
                    id={`${formId}-${name}`}
                    form={formId}
                    name={name}
                    label={`${label} at ${l.name}`}
                    labelHidden
                    required={false}
                    inputMode="numeric"
                    defaultValue={typed?.[name] ?? stored ?? ""}
                    aria-invalid={par?.fieldErrors[name] ? true : undefined}
                    aria-describedby={par?.fieldErrors[name] ? `${formId}-error` : undefined}
                    controlClassName="w-24"
                  />
                </td>
              ) : (
                <td className={`${CELL} text-slate-700`}>{stored ?? "—"}</td>
              );
            return (
              <DataRow key={`${l.locationId}-${level?.par}-${level?.reorderPoint}-${level?.max}`}>
                <td className={CELL}>
                  {l.name} <span className="text-slate-500 text-xs">{l.code}</span>
                </td>
                <td className={`${CELL} text-slate-700`}>{formatQuantity(l.onHand, unitScale, baseUnit)}</td>
                {cell("par", "Par", level?.par)}
                {cell("reorderPoint", "Reorder point", level?.reorderPoint)}
                {cell("max", "Max", level?.max)}
                {anyParEditable && (
                  <td className={CELL}>
                    {l.canEdit && (
                      <Form id={formId} method="post" className="flex flex-col gap-1" noValidate>
                        <input type="hidden" name="variationId" value={v.id} />
                        <input type="hidden" name="locationId" value={l.locationId} />
                        <span className="flex gap-2">
                          <Button name="intent" value="par-set" disabled={busy}>
                            Save
                          </Button>
                          {level && (
                            <Button tone="secondary" name="intent" value="par-clear" disabled={busy}>
                              Clear
                            </Button>
                          )}
                        </span>
                        {par && (
                          <span id={`${formId}-error`} className="text-red-700 text-sm">
                            {[par.formError, ...Object.values(par.fieldErrors)].filter(Boolean).join(" ")}
                          </span>
                        )}
                      </Form>
                    )}
                  </td>
                )}
              </DataRow>
            );
          })}
        </DataTable>
      </div>
    </section>
  );
}
