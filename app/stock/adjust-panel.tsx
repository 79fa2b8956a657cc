// The adjustment form of /stock-levels: opened by a row's "Adjust" link (?adjust=…), rendered by
// the server, so it works before JavaScript loads; the change is typed signed, in the product's unit.
import { Form, Link } from "@remix-run/react";
import { Button, Card, type FieldErrors, FieldGrid, FormAlert, TextareaField } from "~/ui/form";
import type { AdjustLevel } from "./adjust.server";
import { ADJUST_NOTE_MAX, ADJUST_REASON_CHOICES } from "./adjust-labels";

/** The level the form adjusts, its on-hand as text with its unit, and the unit a change is typed in. */
export type AdjustPanelTarget = Omit<AdjustLevel, "onHand" | "unitScale"> & {
  onHand: string;
  /** "1 package = 200 each" style: what the on-hand is in packages, which the par levels count. */
  packages: string | null;
  /** "each (package of 200)": the unit typed in and the package (adjustUnitText). */
  unitText: string;
};

const REASON_CHOICES = [{ value: "", label: "Choose a reason" }, ...ADJUST_REASON_CHOICES];

export function AdjustPanel({
  target,
  idempotencyKey,
  errors,
  formError,
  typed,
  cancelTo,
  busy,
}: {
  target: AdjustPanelTarget;
  idempotencyKey: string;
  errors: FieldErrors;
  formError?: string | null;
  /** What was typed into a refused form, shown again. */
  typed?: Record<string, string> | null;
  cancelTo: string;
  busy: boolean;
}) {
  return (
    <Card id="adjust" title={`Adjust ${target.product} · ${target.variation}`}>
      <Form method="post" className="flex flex-col gap-4" noValidate>
        <p className="text-slate-600 text-sm">
          At {target.location}: {target.onHand} on hand now{target.packages ? ` (${target.packages})` : ""}. Every
          adjustment is recorded with its reason and your name.
        </p>
        <FormAlert message={formError} />
        <input type="hidden" name="intent" value="adjust" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <input type="hidden" name="locationId" value={target.locationId} />
        <input type="hidden" name="variationId" value={target.variationId} />
        <FieldGrid
          className="sm:grid-cols-2"
          idPrefix="adjust-"
          values={{ quantity: typed?.quantity, reason: typed?.reason ?? "" }}
          errors={errors}
          hints={{
            quantity: `In ${target.baseUnit}, not packages: positive to add (like 5), negative to remove (like -5).`,
          }}
          fields={[
            { label: `Change in ${target.unitText}`, name: "quantity", autoComplete: "off", placeholder: "-5" },
            { label: "Reason", name: "reason", options: REASON_CHOICES },
          ]}
        />
        <TextareaField
          label="Note"
          note="needed for other"
          name="note"
          idPrefix="adjust-"
          rows={2}
          maxLength={ADJUST_NOTE_MAX}
          required={false}
          defaultValue={typed?.note}
          error={errors.note}
          hint="What happened, e.g. which shelf was recounted."
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button disabled={busy}>Save adjustment</Button>
          <Link to={cancelTo} className="text-sky-800 text-sm hover:underline">
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}

/** The list as it was (search, filters, page) without the open form: where Cancel and a saved adjustment go. */
export function listWithout(searchParams: URLSearchParams): string {
  const params = new URLSearchParams(searchParams);
  for (const key of ["adjust", "at", "index"]) params.delete(key);
  const rest = params.toString();
  return rest ? `/stock-levels?${rest}` : "/stock-levels";
}

/** A row's "Adjust" link: the same list with the form open for its level, scrolled to it. */
export function adjustLink(searchParams: URLSearchParams, level: { locationId: string; variationId: string }) {
  const params = new URLSearchParams(searchParams);
  params.set("adjust", level.variationId);
  params.set("at", level.locationId);
  return `/stock-levels?${params}#adjust`;
}
