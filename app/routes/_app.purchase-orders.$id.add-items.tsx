// /purchase-orders/:id/add-items: search the catalogue (product or variation name, SKU, GTIN) for
// what to put on the order, the order's vendor's products first (or only theirs), and add the
// ones given packages in one post (intent=addLines, repeated `variationId` + `packages` pairs; a
// product left blank is skipped). A draft gains the lines; a submitted or partly received order
// gains them only as a revision, with its reason. READ_PURCHASING sees the page; WRITE_PURCHASING
// at the order's location adds.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { formatMoney, formatQuantity, type UnitScale } from "~/catalog/format";
import { searchText } from "~/forms/text";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { done, intentOf } from "~/http/outcome.server";
import { FORBIDDEN } from "~/outcome";
import { readAddItems } from "~/purchasing/add-items.server";
import { AddItemsSuggestions } from "~/purchasing/add-items-suggestions";
import { addOrderLines } from "~/purchasing/add-lines.server";
import { ADD_ITEMS_LIMIT, purchaseOrderPath, REASON_MAX } from "~/purchasing/constants";
import { linesOfPairs, type OrderLineInput } from "~/purchasing/forms";
import { PURCHASING_REFUSALS } from "~/purchasing/outcome";
import { mayWrite, readOrder } from "~/purchasing/read.server";
import { shownSuggestion } from "~/purchasing/reorder";
import { revisePurchaseOrder } from "~/purchasing/revise.server";
import { area } from "~/shell/areas";
import { Button, Card, Field, FormAlert, TextareaField } from "~/ui/form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Add items to ${data?.order.number ?? "a purchase order"} · Clinic Inventory` },
];

const INTENTS = ["addLines"] as const;

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/purchase-orders/{id}/add-items").permission);
  const params = new URL(args.request.url).searchParams;
  const q = searchText(100).parse(params.get("q") ?? "");
  // "all" widens a search to every vendor's products; by default the order's vendor's come alone.
  const onlyVendor = params.get("vendor") !== "all";
  // The order, the catalogue's choices and its vendor's reorder suggestions at its location, in one batch.
  const read = await orOutage(readAddItems(args.context.db, actor, args.params.id ?? "", { q, onlyVendor }));
  if (!read) throw data(PURCHASING_REFUSALS.not_found, { status: 404 });
  const { order, choices, suggestions } = read;
  return {
    suggestions: suggestions.map(shownSuggestion),
    order: {
      id: order.id,
      number: order.number,
      status: order.status,
      vendor: order.vendorName,
      location: order.locationName,
      lines: order.lines.length,
    },
    may: mayWrite(actor, order),
    q,
    onlyVendor,
    choices: choices.map((c) => ({
      variationId: c.variationId,
      name: `${c.product} · ${c.variation}`,
      sku: c.sku,
      gtin: c.gtin,
      perPackage: formatQuantity(Number(c.unitsPerPackage), Number(c.unitScale) as UnitScale, c.baseUnit),
      cost: c.costCents === null ? null : formatMoney(Number(c.costCents)),
      vendor: c.vendorName,
      ofVendor: Boolean(Number(c.ofVendor)),
      onOrder: Boolean(Number(c.onOrder)),
    })),
    key: newIdempotencyKey(),
  };
}

interface Failure {
  formError: string;
  typed: Record<string, string>;
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_PURCHASING");
  const form = await args.request.formData();
  intentOf(form, INTENTS);
  const orderId = args.params.id ?? "";
  const text = (v: FormDataEntryValue | null) => (typeof v === "string" ? v : "");
  const variationIds = form.getAll("variationId");
  const counts = form.getAll("packages");
  const typed: Record<string, string> = { reason: text(form.get("reason")) };
  variationIds.forEach((v, n) => {
    typed[`packages:${text(v)}`] = text(counts[n] ?? null);
  });
  const pairs = linesOfPairs(variationIds, counts);
  if (!pairs.ok) return data<Failure>({ formError: pairs.message, typed }, { status: 400 });
  if (pairs.lines.length === 0) {
    return data<Failure>({ formError: "Enter the packages of at least one product to add.", typed }, { status: 400 });
  }
  const lines = pairs.lines as OrderLineInput[];
  const order = await orOutage(readOrder(args.context.db, actor, orderId));
  if (!order) throw data(PURCHASING_REFUSALS.not_found, { status: 404 });
  const idempotencyKey = text(form.get("idempotencyKey")) || null;
  const result =
    order.status === "draft"
      ? await orOutage(addOrderLines(args.context.db, actor, { orderId, lines, idempotencyKey }))
      : await orOutage(
          revisePurchaseOrder(args.context.db, actor, {
            orderId,
            reason: text(form.get("reason")),
            version: order.version,
            add: lines,
            idempotencyKey,
          }),
        );
  if (!result.ok) {
    if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
    if (result.refusal === "not_found") throw data(result.message, { status: 404 });
    return data<Failure>({ formError: result.message, typed }, { status: result.refusal === "invalid" ? 400 : 409 });
  }
  const n = pairs.lines.length;
  return done(
    purchaseOrderPath(orderId),
    order.status === "draft" ? "Added" : "Revision recorded",
    `${n} ${n === 1 ? "line" : "lines"} added to ${order.number}.`,
  );
}

export default function AddItemsScreen() {
  const { order, may, q, onlyVendor, choices, key, suggestions } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const revising = order.status === "submitted" || order.status === "partially_received";
  const open = order.status === "draft" || revising;
  const addable = choices.filter((c) => !c.onOrder);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <Link to={purchaseOrderPath(order.id)} className="text-sky-800 text-sm hover:underline">
          ← {order.number}
        </Link>
        <h1 className="font-semibold text-2xl">Add items to {order.number}</h1>
        <p className="text-slate-600 text-sm">
          {order.vendor}, for {order.location} · {order.lines} {order.lines === 1 ? "line" : "lines"} so far
        </p>
      </div>

      {!may ? (
        <p className="rounded-md bg-slate-50 p-3 text-slate-700 text-sm">
          Your role here can read this order but not add to it: an administrator does.
        </p>
      ) : !open ? (
        <p className="rounded-md bg-slate-50 p-3 text-slate-700 text-sm">
          This order is no longer taking items: only a draft, or a submitted order by a revision, gains lines.
        </p>
      ) : null}

      <AddItemsSuggestions
        vendorName={order.vendor}
        suggestions={suggestions}
        orderId={order.id}
        canEdit={may && order.status === "draft"}
        idempotencyKey={key}
      />

      <Card title="Search the catalogue">
        <Form method="get" className="flex flex-wrap items-end gap-2">
          {/* The whole row on a phone: beside the box and the button it would shrink to nothing. */}
          <div className="min-w-0 basis-full sm:max-w-sm sm:flex-1 sm:basis-auto">
            <Field
              label="Product, SKU or GTIN"
              name="q"
              required={false}
              defaultValue={q}
              maxLength={100}
              autoComplete="off"
            />
          </div>
          <label className="flex min-h-10 items-center gap-2 text-sm">
            <input type="checkbox" name="vendor" value="all" defaultChecked={!onlyVendor} className="size-4" />
            Every vendor's products
          </label>
          <Button tone="secondary">Search</Button>
        </Form>
        <p className="mt-2 text-slate-500 text-xs">
          {q
            ? onlyVendor
              ? `${order.vendor}'s products matching "${q}".`
              : `Every vendor's products matching "${q}", ${order.vendor}'s first.`
            : `${order.vendor}'s products. Search to find others.`}{" "}
          At most {ADD_ITEMS_LIMIT} are shown.
        </p>
      </Card>

      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="addLines" />
        <input type="hidden" name="idempotencyKey" value={key} />
        {choices.length === 0 ? (
          <p className="text-slate-600 text-sm">
            {q ? `Nothing matches "${q}".` : `No active products name ${order.vendor} as their vendor.`}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {choices.map((c) => (
              <li key={c.variationId} className="flex flex-wrap items-end justify-between gap-3 p-3">
                <div className="min-w-0 flex-1 text-sm">
                  <p className="font-medium">{c.name}</p>
                  <p className="text-slate-600 text-xs">
                    {c.perPackage} a package · {c.cost ?? "no cost set"}
                    {c.sku ? ` · SKU ${c.sku}` : ""}
                    {c.gtin ? ` · GTIN ${c.gtin}` : ""}
                    {!c.ofVendor ? ` · ${c.vendor ?? "no vendor"}` : ""}
                  </p>
                </div>
                {c.onOrder ? (
                  <p className="text-slate-600 text-sm">On the order</p>
                ) : (
                  may &&
                  open && (
                    <div className="w-28">
                      <input type="hidden" name="variationId" value={c.variationId} />
                      <Field
                        idPrefix={`add-${c.variationId}-`}
                        label="Packages"
                        name="packages"
                        inputMode="numeric"
                        required={false}
                        maxLength={6}
                        defaultValue={failed?.typed[`packages:${c.variationId}`] ?? ""}
                      />
                    </div>
                  )
                )}
              </li>
            ))}
          </ul>
        )}
        {may && open && addable.length > 0 && (
          <>
            {revising && (
              <TextareaField
                label="Reason for the revision"
                name="reason"
                rows={2}
                maxLength={REASON_MAX}
                hint="This order was submitted: what it gains is recorded as a revision, with this reason."
                defaultValue={failed?.typed.reason}
              />
            )}
            <FormAlert message={failed?.formError} />
            <div>
              <Button disabled={busy}>{revising ? "Add as a revision" : "Add to order"}</Button>
            </div>
          </>
        )}
      </Form>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
