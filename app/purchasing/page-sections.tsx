// The parts of an order's page that change it: a draft's lines (packages, unit cost, the vendor's
// SKU, expected date; or removed), and the revision of a submitted order (each line's packages and
// cost, lines removed, the reason). Plain forms, posting the page's intents (./intents.server.ts).
import { Form } from "@remix-run/react";
import { Button, Card, Field, FormAlert, TextareaField } from "~/ui/form";
import { MAX_PACKAGES_A_LINE, REASON_MAX, VENDOR_SKU_MAX } from "./constants";
import type { OrderLineView } from "./order-document";

/** What the page's action answered when it stayed (./intents.server.ts OrderAnswer). */
export interface OrderFormAnswer {
  intent: string;
  formError: string | null;
  lineId: string | null;
  typed: Record<string, string>;
}

interface SectionProps {
  lines: readonly OrderLineView[];
  version: number;
  answer: OrderFormAnswer | null;
  busy: boolean;
}

const errorOf = (answer: OrderFormAnswer | null, intent: string) =>
  answer?.intent === intent ? answer.formError : null;

export function DraftLinesCard({ lines, version, answer, busy }: SectionProps) {
  return (
    <Card title="Change lines">
      <FormAlert message={errorOf(answer, "change-line") ?? errorOf(answer, "remove-line")} />
      <ul className="flex flex-col divide-y divide-slate-100">
        {lines.map((l) => {
          const mine = answer?.lineId === l.id && answer.intent === "change-line";
          return (
            <li key={l.id} className="py-3">
              <p className="mb-2 font-medium text-sm">
                {l.product} · {l.variation}
              </p>
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="lineId" value={l.id} />
                <input type="hidden" name="version" value={version} />
                <div className="w-24">
                  <Field
                    idPrefix={`line-${l.id}-`}
                    label="Packages"
                    name="packages"
                    inputMode="numeric"
                    defaultValue={mine ? answer.typed.packages : l.packages}
                    maxLength={6}
                  />
                </div>
                <div className="w-32">
                  <Field
                    idPrefix={`line-${l.id}-`}
                    label="Unit cost ($)"
                    name="unitCostCents"
                    inputMode="decimal"
                    defaultValue={mine ? answer.typed.unitCostCents : l.unitCostInput}
                    maxLength={14}
                  />
                </div>
                <div className="w-36">
                  <Field
                    idPrefix={`line-${l.id}-`}
                    label="Vendor SKU"
                    name="vendorSku"
                    required={false}
                    defaultValue={mine ? answer.typed.vendorSku : (l.vendorSku ?? "")}
                    maxLength={VENDOR_SKU_MAX}
                  />
                </div>
                <div className="w-40">
                  <Field
                    idPrefix={`line-${l.id}-`}
                    label="Expected"
                    name="expectedOn"
                    type="date"
                    required={false}
                    defaultValue={mine ? answer.typed.expectedOn : (l.expectedOn ?? "")}
                  />
                </div>
                <Button tone="secondary" name="intent" value="change-line" disabled={busy}>
                  Save
                </Button>
                <Button tone="danger" name="intent" value="remove-line" disabled={busy}>
                  Remove
                </Button>
              </Form>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

export function ReviseCard({ lines, version, answer, busy, reviseKey }: SectionProps & { reviseKey: string }) {
  const typed = (name: string) => (answer?.intent === "revise" ? answer.typed[name] : undefined);
  return (
    <Card title="Revise this order">
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="revise" />
        <input type="hidden" name="version" value={version} />
        <input type="hidden" name="idempotencyKey" value={reviseKey} />
        <p className="text-slate-600 text-sm">
          Change what the vendor confirmed. A line never goes below what arrived; a line part of which arrived stays on
          the order.
        </p>
        <ul className="flex flex-col divide-y divide-slate-100">
          {lines.map((l) => (
            <li key={l.id} className="flex flex-wrap items-end gap-2 py-2">
              <p className="w-full font-medium text-sm">
                {l.product} · {l.variation}
                {l.received > 0 && <span className="font-normal text-slate-600"> · {l.received} arrived</span>}
              </p>
              <div className="w-24">
                <Field
                  idPrefix={`revise-${l.id}-`}
                  label="Packages"
                  name={`packages:${l.id}`}
                  inputMode="numeric"
                  maxLength={6}
                  defaultValue={typed(`packages:${l.id}`) ?? l.packages}
                  hint={`${l.received} to ${MAX_PACKAGES_A_LINE.toLocaleString("en-US")}`}
                />
              </div>
              <div className="w-32">
                <Field
                  idPrefix={`revise-${l.id}-`}
                  label="Unit cost ($)"
                  name={`unitCostCents:${l.id}`}
                  inputMode="decimal"
                  maxLength={14}
                  defaultValue={typed(`unitCostCents:${l.id}`) ?? l.unitCostInput}
                />
              </div>
              {l.received === 0 ? (
                <label className="flex min-h-10 items-center gap-2 text-sm">
                  <input type="checkbox" name="remove" value={l.id} className="size-4" />
                  Remove this line
                </label>
              ) : (
                <p className="min-h-10 py-2 text-slate-500 text-xs">Part of it arrived: it stays.</p>
              )}
            </li>
          ))}
        </ul>
        <TextareaField
          idPrefix="revise-"
          label="Reason"
          name="reason"
          rows={2}
          maxLength={REASON_MAX}
          hint="Kept in the order's history, e.g. the vendor is short on one product."
          defaultValue={typed("reason")}
        />
        <FormAlert message={errorOf(answer, "revise")} />
        <div>
          <Button disabled={busy}>Record revision</Button>
        </div>
      </Form>
    </Card>
  );
}
