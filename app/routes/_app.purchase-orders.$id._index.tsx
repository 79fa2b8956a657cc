// /purchase-orders/:id: one purchase order (READ_PURCHASING at its location): its number, vendor,
// ship-to location, status, who made and submitted it; its lines (the vendor's SKU, product,
// packages, unit cost, line total, expected date, what arrived) with the order's total; the actions
// its status allows the reader (WRITE_PURCHASING): a draft's lines changed or removed, items added,
// submit, a revision with its reason, cancel, close; its revisions. An action not offered says why
// where it would have been; cancelling and closing ask first (`?confirm=`). The page prints as a
// clean document for the vendor (the shell, the actions and the history are left off the paper).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { centsInput, formatMoney, formatQuantity, type UnitScale } from "~/catalog/format";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import {
  addItemsPath,
  linesCsvPath,
  MAX_PACKAGES_A_LINE,
  PURCHASE_ORDER_STATUS_LABELS,
  purchaseOrderPath,
  REASON_MAX,
  VENDOR_SKU_MAX,
} from "~/purchasing/constants";
import { ORDER_INTENT_HANDLERS, ORDER_INTENTS } from "~/purchasing/intents.server";
import { PURCHASING_REFUSALS } from "~/purchasing/outcome";
import { lineTotal, mayWrite, orderTotal, outstanding, readOrder } from "~/purchasing/read.server";
import type { RevisionChange } from "~/purchasing/revise.server";
import { OrderStatusBadge } from "~/purchasing/status-badge";
import { area } from "~/shell/areas";
import { calendarDayIn, formatDate, showInstant, Time } from "~/ui/dates";
import { Button, Card, Field, FormAlert, LINK_BUTTON, TextareaField } from "~/ui/form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.order.number ?? "Purchase Order"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/purchase-orders/{id}").permission);
  const order = await orOutage(readOrder(args.context.db, actor, args.params.id ?? ""));
  if (!order) throw data(PURCHASING_REFUSALS.not_found, { status: 404 });
  const url = new URL(args.request.url);
  const tz = order.timezone;
  const at = (ms: number | null) => showInstant(ms, tz);
  // h3 ("what arrived"): the receipts against this order, when, with which lots and expiry dates
  // and who received them, are read here (app/purchasing/arrivals*.ts) and passed to the section below.
  const terms = (c: { packages: number; unitCostCents: number } | null) =>
    c ? `${c.packages} × ${formatMoney(c.unitCostCents)}` : null;
  return {
    order: {
      id: order.id,
      number: order.number,
      status: order.status,
      revision: order.revision,
      version: order.version,
      location: order.locationName,
      locationCode: order.locationCode,
      address: order.locationAddress,
      vendor: order.vendorName,
      vendorAccount: order.vendorAccount,
      vendorContact: order.vendorContact,
      vendorEmail: order.vendorEmail,
      vendorPhone: order.vendorPhone,
      note: order.note,
      createdBy: order.createdBy,
      created: at(order.createdAt),
      createdDay: formatDate(calendarDayIn(new Date(order.createdAt), tz)),
      submittedBy: order.submittedBy,
      submitted: at(order.submittedAt),
      closedBy: order.closedBy,
      closed: at(order.closedAt),
      closeReason: order.closeReason,
      cancelledBy: order.cancelledBy,
      cancelled: at(order.cancelledAt),
      cancelReason: order.cancelReason,
      total: formatMoney(orderTotal(order.lines)),
    },
    lines: order.lines.map((l) => ({
      id: l.id,
      product: l.product,
      variation: l.variation,
      vendorSku: l.vendorSku,
      packages: l.packagesOrdered,
      received: l.packagesReceived,
      outstanding: outstanding(l),
      perPackage: formatQuantity(l.unitsPerPackage, l.unitScale as UnitScale, l.baseUnit),
      unitCost: formatMoney(l.unitCostCents),
      unitCostInput: centsInput(l.unitCostCents),
      total: formatMoney(lineTotal(l)),
      expectedOn: l.expectedOn,
      expected: l.expectedOn ? formatDate(l.expectedOn) : null,
    })),
    revisions: order.revisions.map((r) => ({
      revision: r.revision,
      reason: r.reason,
      by: r.revisedBy,
      at: at(r.createdAt),
      changes: (JSON.parse(r.changes) as RevisionChange[]).map((c) => ({
        what: c.what,
        product: c.product,
        before: terms(c.before),
        after: terms(c.after),
      })),
    })),
    may: mayWrite(actor, order),
    confirm: url.searchParams.get("confirm"),
    keys: {
      submit: newIdempotencyKey(),
      revise: newIdempotencyKey(),
      cancel: newIdempotencyKey(),
      close: newIdempotencyKey(),
    },
  };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = intentOf(form, ORDER_INTENTS);
  const actor = await actorHere(args, "WRITE_PURCHASING");
  return ORDER_INTENT_HANDLERS[intent]({ db: args.context.db, actor, orderId: args.params.id ?? "", form });
}

function Why({ children }: { children: string }) {
  return <p className="rounded-md bg-slate-50 p-3 text-slate-700 text-sm print:hidden">{children}</p>;
}

const LINK = "inline-flex min-h-10 items-center px-3 text-sky-800 text-sm hover:underline";
const SECONDARY =
  "inline-flex min-h-10 items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-slate-800 text-sm hover:bg-slate-100";

/** Prints the page (with JavaScript); the browser's own Print gives the same document without it. */
function PrintButton() {
  return (
    <button type="button" onClick={() => window.print()} className={SECONDARY}>
      Print
    </button>
  );
}

const ROLE_HERE = "Your role here can read this order but not change it: an administrator does.";

export default function PurchaseOrderScreen() {
  const { order, lines, revisions, may, confirm, keys } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const self = purchaseOrderPath(order.id);
  const errorOf = (intent: string) => (answer?.intent === intent ? answer.formError : null);
  const typed = (intent: string, name: string) => (answer?.intent === intent ? answer.typed[name] : undefined);
  const isDraft = order.status === "draft";
  const isOpen = order.status === "submitted" || order.status === "partially_received";
  const anyArrived = lines.some((l) => l.received > 0);
  const anyOutstanding = lines.some((l) => l.outstanding > 0);
  const showReceived = !isDraft && order.status !== "cancelled";

  return (
    <div className="flex flex-col gap-6 print:gap-4">
      <div className="flex flex-col gap-2 print:hidden">
        <Link to="/purchase-orders" className="text-sky-800 text-sm hover:underline">
          ← Purchase Orders
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <PrintButton />
          <a href={linesCsvPath(order.id)} className={SECONDARY} download>
            Download lines (CSV)
          </a>
          {isDraft && may && (
            <Link to={addItemsPath(order.id)} className={LINK_BUTTON}>
              Add items
            </Link>
          )}
        </div>
        <p className="text-slate-500 text-xs">
          Print gives a clean order for the vendor (your browser's Print does the same).
        </p>
      </div>

      {/* The order as the vendor reads it: on screen, and alone on paper. */}
      <article
        aria-labelledby="order-title"
        className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm print:border-0 print:p-0 print:shadow-none"
      >
        <header className="flex flex-wrap items-start justify-between gap-3 border-slate-200 border-b pb-3">
          <div>
            <p className="text-slate-600 text-sm">Purchase order</p>
            <h1 id="order-title" className="font-semibold text-2xl">
              {order.number}
            </h1>
            {order.revision > 0 && <p className="text-slate-600 text-sm">Revision {order.revision}</p>}
          </div>
          <div className="flex flex-col items-start gap-1 text-sm sm:items-end">
            <OrderStatusBadge status={order.status} />
            <span className="text-slate-600">Dated {order.createdDay}</span>
          </div>
        </header>

        <div className="grid gap-4 py-3 text-sm sm:grid-cols-2 print:grid-cols-2">
          <section aria-label="Vendor">
            <h2 className="font-medium text-slate-600">Vendor</h2>
            <p className="font-medium">{order.vendor}</p>
            {order.vendorAccount && <p>Account {order.vendorAccount}</p>}
            {order.vendorContact && <p>{order.vendorContact}</p>}
            {order.vendorEmail && <p>{order.vendorEmail}</p>}
            {order.vendorPhone && <p>{order.vendorPhone}</p>}
          </section>
          <section aria-label="Ship to">
            <h2 className="font-medium text-slate-600">Ship to</h2>
            <p className="font-medium">
              {order.location} ({order.locationCode})
            </p>
            {order.address && <p>{order.address}</p>}
          </section>
        </div>
        {order.note && (
          <p className="pb-3 text-sm">
            <span className="font-medium text-slate-600">Note: </span>
            {order.note}
          </p>
        )}

        {/* On a phone, each line reads as a short block; from a tablet up, and on paper, as a table. */}
        <ul className="flex flex-col divide-y divide-slate-100 sm:hidden print:hidden" data-testid="order-lines-phone">
          {lines.map((l) => (
            <li key={l.id} className="py-2 text-sm">
              <p className="font-medium">
                {l.product} · {l.variation}
              </p>
              <p className="text-slate-600 text-xs">
                {l.perPackage} a package{l.vendorSku ? ` · SKU ${l.vendorSku}` : ""}
                {l.expected ? ` · expected ${l.expected}` : ""}
              </p>
              <p className="mt-1 flex justify-between gap-3">
                <span className="tabular-nums">
                  {l.packages} × {l.unitCost}
                </span>
                <span className="font-medium tabular-nums">{l.total}</span>
              </p>
              {showReceived && (
                <p className="text-slate-600 text-xs">
                  {l.received} of {l.packages} arrived
                  {l.outstanding > 0 && isOpen ? ` · ${l.outstanding} to come` : ""}
                </p>
              )}
            </li>
          ))}
          {lines.length === 0 && (
            <li className="py-6 text-center text-slate-600 text-sm">
              No lines yet.{isDraft && may ? " Add the items to order." : ""}
            </li>
          )}
          <li className="flex justify-between py-2 font-semibold text-sm">
            <span>Total</span>
            <span className="tabular-nums">{order.total}</span>
          </li>
        </ul>
        <div className="hidden overflow-x-auto sm:block print:block">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Lines of {order.number}</caption>
            <thead className="border-slate-200 border-b text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Vendor SKU
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Product
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Packages
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Unit cost
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Line total
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Expected
                </th>
                {showReceived && (
                  <th scope="col" className="py-2 font-medium print:hidden">
                    Arrived
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.id} className="border-slate-100 border-b align-top">
                  <td className="py-2 pr-3 font-mono text-xs">{l.vendorSku ?? "—"}</td>
                  <td className="py-2 pr-3">
                    {l.product} · {l.variation}
                    <span className="block text-slate-500 text-xs">{l.perPackage} a package</span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{l.packages}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{l.unitCost}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{l.total}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{l.expected ?? "—"}</td>
                  {showReceived && (
                    <td className="py-2 whitespace-nowrap print:hidden">
                      {l.received} of {l.packages}
                      {l.outstanding > 0 && isOpen ? ` · ${l.outstanding} to come` : ""}
                    </td>
                  )}
                </tr>
              ))}
              {lines.length === 0 && (
                <tr>
                  <td colSpan={7} className="py-6 text-center text-slate-600">
                    No lines yet.{isDraft && may ? " Add the items to order." : ""}
                  </td>
                </tr>
              )}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={4} className="py-2 pr-3 text-right font-medium">
                  Total
                </th>
                <td className="py-2 pr-3 text-right font-semibold tabular-nums">{order.total}</td>
                <td colSpan={2} />
              </tr>
            </tfoot>
          </table>
        </div>

        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-600 text-xs print:hidden">
          <dt>Created</dt>
          <dd>
            {order.createdBy ?? "—"}, <Time at={order.created} />
          </dd>
          <dt>Submitted</dt>
          <dd>
            {order.submitted ? (
              <>
                {order.submittedBy ?? "—"}, <Time at={order.submitted} />
              </>
            ) : (
              "Not yet"
            )}
          </dd>
          {order.closed && (
            <>
              <dt>Closed</dt>
              <dd>
                {order.closedBy ?? "—"}, <Time at={order.closed} />
                {order.closeReason ? ` · ${order.closeReason}` : ""}
              </dd>
            </>
          )}
          {order.cancelled && (
            <>
              <dt>Cancelled</dt>
              <dd>
                {order.cancelledBy ?? "—"}, <Time at={order.cancelled} />
                {order.cancelReason ? ` · ${order.cancelReason}` : ""}
              </dd>
            </>
          )}
        </dl>
      </article>

      {/* h3 ("what arrived"): the arrivals section (receipts against this order, when, lots and
          expiry dates, who received them) goes here, from the loader's read above. */}

      <div className="flex flex-col gap-6 print:hidden">
        {!may && order.status !== "closed" && order.status !== "cancelled" && <Why>{ROLE_HERE}</Why>}
        {(order.status === "closed" || order.status === "cancelled") && (
          <Why>{`This order is ${PURCHASE_ORDER_STATUS_LABELS[order.status].toLowerCase()}: it no longer changes.`}</Why>
        )}

        {/* A draft: its lines changed or removed, then submitted. */}
        {isDraft && may && lines.length > 0 && (
          <Card title="Change lines">
            <FormAlert message={errorOf("change-line") ?? errorOf("remove-line")} />
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
                      <input type="hidden" name="version" value={order.version} />
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
        )}

        {isDraft &&
          may &&
          (lines.length === 0 ? (
            <Why>Add at least one item before submitting this order.</Why>
          ) : confirm === "submit" ? (
            <Card title="Submit this order?">
              <Form method="post" className="flex flex-col gap-3">
                <input type="hidden" name="intent" value="submit" />
                <input type="hidden" name="version" value={order.version} />
                <input type="hidden" name="idempotencyKey" value={keys.submit} />
                <p className="text-sm">
                  Submit {order.number} to {order.vendor}: {lines.length} {lines.length === 1 ? "line" : "lines"},{" "}
                  {order.total}? After this it changes only by a revision, with a reason.
                </p>
                <FormAlert message={errorOf("submit")} />
                <div className="flex flex-wrap gap-2">
                  <Button disabled={busy}>Submit order</Button>
                  <Link to={self} className={LINK}>
                    Keep editing
                  </Link>
                </div>
              </Form>
            </Card>
          ) : (
            <div>
              <Link to={`${self}?confirm=submit`} className={LINK_BUTTON}>
                Submit…
              </Link>
              <FormAlert message={errorOf("submit")} />
            </div>
          ))}

        {/* A submitted or partly received order: a revision, recorded with its reason. */}
        {isOpen && may && (
          <Card title="Revise this order">
            <Form method="post" className="flex flex-col gap-3">
              <input type="hidden" name="intent" value="revise" />
              <input type="hidden" name="version" value={order.version} />
              <input type="hidden" name="idempotencyKey" value={keys.revise} />
              <p className="text-slate-600 text-sm">
                Change what the vendor confirmed. A line never goes below what arrived; a line part of which arrived
                stays on the order.
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
                        defaultValue={typed("revise", `packages:${l.id}`) ?? l.packages}
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
                        defaultValue={typed("revise", `unitCostCents:${l.id}`) ?? l.unitCostInput}
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
                defaultValue={typed("revise", "reason")}
              />
              <FormAlert message={errorOf("revise")} />
              <div>
                <Button disabled={busy}>Record revision</Button>
              </div>
            </Form>
          </Card>
        )}

        {/* Cancel: a draft, or a submitted order nothing arrived of; asked first. */}
        {may &&
          (isDraft || order.status === "submitted") &&
          (anyArrived ? (
            <Why>It can no longer be cancelled: part of it arrived. Close it with a reason instead.</Why>
          ) : confirm === "cancel" ? (
            <Card title="Cancel this order?">
              <Form method="post" className="flex flex-col gap-3">
                <input type="hidden" name="intent" value="cancel" />
                <input type="hidden" name="idempotencyKey" value={keys.cancel} />
                <p className="text-sm">
                  {isDraft
                    ? `Cancel the draft ${order.number}? Nothing was sent to ${order.vendor}; it is kept as history.`
                    : `Cancel ${order.number}? Tell ${order.vendor} too: the order is kept as history.`}
                </p>
                <TextareaField
                  idPrefix="cancel-"
                  label="Reason"
                  {...(isDraft ? { note: "optional", required: false } : {})}
                  name="reason"
                  rows={2}
                  maxLength={REASON_MAX}
                  defaultValue={typed("cancel", "reason")}
                />
                <FormAlert message={errorOf("cancel")} />
                <div className="flex flex-wrap gap-2">
                  <Button tone="danger" disabled={busy}>
                    Cancel order
                  </Button>
                  <Link to={self} className={LINK}>
                    Keep it
                  </Link>
                </div>
              </Form>
            </Card>
          ) : (
            <div>
              <Link to={`${self}?confirm=cancel`} className="text-red-700 text-sm hover:underline">
                Cancel this order…
              </Link>
            </div>
          ))}

        {/* Close: a received order; one with lines outstanding only with a reason; asked first. */}
        {may &&
          (isOpen || order.status === "received") &&
          (confirm === "close" ? (
            <Card title="Close this order?">
              <Form method="post" className="flex flex-col gap-3">
                <input type="hidden" name="intent" value="close" />
                <input type="hidden" name="idempotencyKey" value={keys.close} />
                <p className="text-sm">
                  {anyOutstanding && isOpen
                    ? "Closing an order with lines outstanding asks for a reason: what has not come is no longer on order."
                    : `Close ${order.number}? Everything on it arrived.`}
                </p>
                <TextareaField
                  idPrefix="close-"
                  label="Reason"
                  {...(anyOutstanding && isOpen ? {} : { note: "optional", required: false })}
                  name="reason"
                  rows={2}
                  maxLength={REASON_MAX}
                  defaultValue={typed("close", "reason")}
                />
                <FormAlert message={errorOf("close")} />
                <div className="flex flex-wrap gap-2">
                  <Button tone="danger" disabled={busy}>
                    Close order
                  </Button>
                  <Link to={self} className={LINK}>
                    Keep it open
                  </Link>
                </div>
              </Form>
            </Card>
          ) : (
            <div>
              <Link to={`${self}?confirm=close`} className="text-sky-800 text-sm hover:underline">
                Close this order…
              </Link>
            </div>
          ))}

        <Card title="Revisions">
          {revisions.length === 0 ? (
            <p className="text-slate-600 text-sm">
              {isDraft ? "A draft is edited freely: revisions start once it is submitted." : "Not revised."}
            </p>
          ) : (
            <ol className="flex flex-col gap-3">
              {revisions.map((r) => (
                <li key={r.revision} className="text-sm">
                  <p className="font-medium">
                    Revision {r.revision}: {r.reason}
                  </p>
                  <p className="text-slate-600 text-xs">
                    {r.by ?? "—"}, <Time at={r.at} />
                  </p>
                  <ul className="mt-1 list-disc pl-5 text-slate-700">
                    {r.changes.map((c) => (
                      <li key={`${c.what}-${c.product}`}>
                        {c.what === "added"
                          ? `Added ${c.product}: ${c.after}`
                          : c.what === "removed"
                            ? `Removed ${c.product} (was ${c.before})`
                            : `${c.product}: ${c.before} → ${c.after}`}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
