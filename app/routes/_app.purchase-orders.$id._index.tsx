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
import { reachesAt } from "~/access/scope.server";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { ReceiveAgainstOrder, WhatArrived } from "~/purchasing/arrivals";
import {
  addItemsPath,
  linesCsvPath,
  PURCHASE_ORDER_STATUS_LABELS,
  purchaseOrderPath,
  REASON_MAX,
} from "~/purchasing/constants";
import { ORDER_INTENT_HANDLERS, ORDER_INTENTS } from "~/purchasing/intents.server";
import { OrderDocument, RevisionHistory } from "~/purchasing/order-document";
import { orderView } from "~/purchasing/order-view.server";
import { PURCHASING_REFUSALS } from "~/purchasing/outcome";
import { DraftLinesCard, ReviseCard } from "~/purchasing/page-sections";
import { mayWrite, readOrderPage } from "~/purchasing/read.server";
import { area } from "~/shell/areas";
import { Button, Card, FormAlert, LINK_BUTTON, TextareaField } from "~/ui/form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.order.number ?? "Purchase Order"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/purchase-orders/{id}").permission);
  const read = await orOutage(readOrderPage(args.context.db, actor, args.params.id ?? ""));
  if (!read) throw data(PURCHASING_REFUSALS.not_found, { status: 404 });
  const { order, arrivals } = read;
  const url = new URL(args.request.url);
  return {
    ...orderView(order),
    arrivals,
    canReceive: reachesAt(actor, "WRITE_INVENTORY", order.locationId),
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
  const { order, lines, revisions, may, confirm, keys, arrivals, canReceive } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const self = purchaseOrderPath(order.id);
  const errorOf = (intent: string) => (answer?.intent === intent ? answer.formError : null);
  const typed = (intent: string, name: string) => (answer?.intent === intent ? answer.typed[name] : undefined);
  const isDraft = order.status === "draft";
  const isOpen = order.status === "submitted" || order.status === "partially_received";
  const anyArrived = lines.some((l) => l.received > 0);
  const anyOutstanding = lines.some((l) => l.outstanding > 0);

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
      <OrderDocument order={order} lines={lines} may={may} />

      {/* What arrived against it: when, who received it, its lots and expiry dates; and receiving more. */}
      <div className="flex flex-col gap-3 print:hidden">
        <ReceiveAgainstOrder orderId={order.id} status={order.status} canReceive={canReceive} />
        <WhatArrived arrivals={arrivals} />
      </div>

      <div className="flex flex-col gap-6 print:hidden">
        {!may && order.status !== "closed" && order.status !== "cancelled" && <Why>{ROLE_HERE}</Why>}
        {(order.status === "closed" || order.status === "cancelled") && (
          <Why>{`This order is ${PURCHASE_ORDER_STATUS_LABELS[order.status].toLowerCase()}: it no longer changes.`}</Why>
        )}

        {/* A draft: its lines changed or removed, then submitted. */}
        {isDraft && may && lines.length > 0 && (
          <DraftLinesCard lines={lines} version={order.version} answer={answer ?? null} busy={busy} />
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
          <ReviseCard
            lines={lines}
            version={order.version}
            answer={answer ?? null}
            busy={busy}
            reviseKey={keys.revise}
          />
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

        <RevisionHistory revisions={revisions} isDraft={isDraft} />
      </div>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
