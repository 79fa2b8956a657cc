// The add-items page's suggestions (issue 23.5): this vendor's reorder suggestions for the order's
// location, taken all at once (one form with every variationId + packages pair) or one by one
// (each row its own form, its packages editable), both posting intent=addLines to the page, so it
// works before JavaScript loads. A form of pairs cannot carry checkboxes without JavaScript (an
// unchecked box sends nothing while its quantity still would, and the pairs would slip), so a
// pick is its own small form. A suggestion on a draft already, or capped to nothing, shows its why
// and is not offered.
import { Form } from "@remix-run/react";
import { Fragment } from "react";
import { Button, INPUT } from "~/ui/form";
import { MAX_PACKAGES_A_LINE } from "../../db/schema/purchasing/constants";
import { ADD_LINES_INTENT, type ShownSuggestion } from "./reorder";
import { packagesToOrder } from "./reorder-view";
import { packageWord } from "./suggest-rule";

export function AddItemsSuggestions({
  vendorName,
  suggestions,
  orderId,
  canEdit,
  idempotencyKey,
}: {
  vendorName: string;
  /** The vendor's suggestions for the order's location (reorderSuggestions with its vendorId). */
  suggestions: readonly ShownSuggestion[];
  /** The order the lines go on (a draft): on it already is not offered again. */
  orderId: string;
  /** Whether the order can take lines (a draft, WRITE_PURCHASING); else why is the caller's to say. */
  canEdit: boolean;
  idempotencyKey?: string;
}) {
  const offered = suggestions.filter((s) => s.packages > 0 && !s.onDraft);
  const held = suggestions.filter((s) => !offered.includes(s));
  const onThis = (s: ShownSuggestion) => s.onDraft?.id === orderId;
  return (
    <section
      aria-labelledby="add-suggestions-title"
      data-testid="add-items-suggestions"
      className="flex flex-col gap-3"
    >
      <div>
        <h2 id="add-suggestions-title" className="font-semibold text-lg">
          Suggested from {vendorName}
        </h2>
        <p className="text-slate-600 text-sm">What this location is at or under its reorder point for.</p>
      </div>
      {offered.length === 0 && held.length === 0 ? (
        <p className="text-slate-600 text-sm">Nothing from {vendorName} is at or under its reorder point here.</p>
      ) : null}
      {offered.length > 0 && canEdit ? (
        <Form method="post" className="flex">
          <input type="hidden" name="intent" value={ADD_LINES_INTENT} />
          {idempotencyKey && <input type="hidden" name="idempotencyKey" value={`${idempotencyKey}-all`} />}
          {offered.map((s) => (
            <Fragment key={s.variationId}>
              <input type="hidden" name="variationId" value={s.variationId} />
              <input type="hidden" name="packages" value={s.packages} />
            </Fragment>
          ))}
          <Button>
            Add all {offered.length.toLocaleString("en-US")} {offered.length === 1 ? "suggestion" : "suggestions"}
          </Button>
        </Form>
      ) : null}
      <ul className="flex flex-col gap-2">
        {offered.map((s) => {
          const fieldId = `add-packages-${s.variationId}`;
          return (
            <li key={s.variationId} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-3">
              <span className="font-medium">
                {s.productName} · {s.variationName}
              </span>
              <p className="text-slate-600 text-sm" data-testid="reorder-why">
                {s.why}
              </p>
              {canEdit ? (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value={ADD_LINES_INTENT} />
                  {idempotencyKey && (
                    <input type="hidden" name="idempotencyKey" value={`${idempotencyKey}-${s.variationId}`} />
                  )}
                  <input type="hidden" name="variationId" value={s.variationId} />
                  <label htmlFor={fieldId} className="flex flex-col text-sm">
                    <span>{packageWord(s.variationName, s.tracking, 2).replace(/^./, (c) => c.toUpperCase())}</span>
                    <input
                      id={fieldId}
                      name="packages"
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={MAX_PACKAGES_A_LINE}
                      step={1}
                      required
                      defaultValue={s.packages}
                      className={`${INPUT} w-24`}
                    />
                  </label>
                  <Button tone="secondary">Add</Button>
                </Form>
              ) : (
                <p className="text-sm">{packagesToOrder(s)}</p>
              )}
            </li>
          );
        })}
        {held.map((s) => (
          <li key={s.variationId} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-slate-50 p-3">
            <span className="font-medium">
              {s.productName} · {s.variationName}
            </span>
            <p className="text-slate-600 text-sm" data-testid="reorder-why">
              {onThis(s) ? `${s.why} (this order)` : s.why}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
