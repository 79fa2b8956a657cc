// An order's page actions (/purchase-orders/:id), one small handler per intent: read the form, call
// one purchasing verb (which parses it with its schema from ./forms), answer with the shared glue
// (app/http/outcome.server.ts): a success goes on with a toast, a refusal stays on the page with
// its message where the form is.
import { data } from "@remix-run/cloudflare";
import type { ScopedActor } from "~/access/actor";
import type { Database } from "~/db/client.server";
import { orOutage } from "~/http/outage.server";
import { done, type FormAnswer } from "~/http/outcome.server";
import { FORBIDDEN } from "~/outcome";
import { cancelPurchaseOrder } from "./cancel.server";
import { changeOrderLine } from "./change-line.server";
import { closePurchaseOrder } from "./close.server";
import { purchaseOrderPath } from "./constants";
import type { PurchasingRefused } from "./outcome";
import { removeOrderLine } from "./remove-line.server";
import { revisePurchaseOrder } from "./revise.server";
import { submitPurchaseOrder } from "./submit.server";

export const ORDER_INTENTS = ["change-line", "remove-line", "submit", "revise", "cancel", "close"] as const;
export type OrderIntent = (typeof ORDER_INTENTS)[number];

export interface OrderIntentArgs {
  db: Database;
  actor: ScopedActor;
  orderId: string;
  form: FormData;
}

/** What the action answers when the page stays: which form, its message, what was typed. */
export interface OrderAnswer {
  intent: OrderIntent;
  formError: string | null;
  /** The line a per-line form was about. */
  lineId: string | null;
  typed: Record<string, string>;
}

const text = (v: FormDataEntryValue | null | undefined) => (typeof v === "string" ? v : "");

function typedOf(form: FormData): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (k !== "intent" && typeof v === "string") typed[k] = v;
  return typed;
}

function refused(intent: OrderIntent, result: PurchasingRefused, form: FormData, lineId: string | null = null) {
  if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
  if (result.refusal === "not_found") throw data(result.message, { status: 404 });
  const status = result.refusal === "invalid" ? 400 : 409;
  return data<OrderAnswer>({ intent, formError: result.message, lineId, typed: typedOf(form) }, { status });
}

const here = (orderId: string) => purchaseOrderPath(orderId);
const keyOf = (form: FormData) => text(form.get("idempotencyKey")) || null;

async function changeLine({ db, actor, orderId, form }: OrderIntentArgs) {
  const lineId = text(form.get("lineId"));
  const result = await orOutage(
    changeOrderLine(db, actor, {
      orderId,
      lineId,
      packages: text(form.get("packages")),
      unitCostCents: text(form.get("unitCostCents")),
      vendorSku: text(form.get("vendorSku")),
      expectedOn: text(form.get("expectedOn")),
      version: text(form.get("version")),
    }),
  );
  if (!result.ok) return refused("change-line", result, form, lineId);
  if (!result.changed) return done(here(orderId), "Nothing changed", `${result.product} is as it was.`);
  return done(here(orderId), "Line changed", `${result.product}.`);
}

async function removeLine({ db, actor, orderId, form }: OrderIntentArgs) {
  const lineId = text(form.get("lineId"));
  const result = await orOutage(removeOrderLine(db, actor, { orderId, lineId, version: text(form.get("version")) }));
  if (!result.ok) return refused("remove-line", result, form, lineId);
  return done(here(orderId), "Line removed", `${result.product} is no longer on this order.`);
}

async function submit({ db, actor, orderId, form }: OrderIntentArgs) {
  const result = await orOutage(
    submitPurchaseOrder(db, actor, { orderId, version: text(form.get("version")), idempotencyKey: keyOf(form) }),
  );
  if (!result.ok) return refused("submit", result, form);
  return done(
    here(orderId),
    "Order submitted",
    `${result.number} is on order. Print it or download its lines for the vendor.`,
  );
}

/** The revise form: `packages:<lineId>` and `unitCostCents:<lineId>` for each line, `remove` ticked lines, a reason. */
async function revise({ db, actor, orderId, form }: OrderIntentArgs) {
  const remove = form.getAll("remove").map(text).filter(Boolean);
  const lines: { lineId: string; packages: string; unitCostCents: string }[] = [];
  for (const [name, value] of form.entries()) {
    if (!name.startsWith("packages:")) continue;
    const lineId = name.slice("packages:".length);
    if (remove.includes(lineId)) continue;
    lines.push({ lineId, packages: text(value), unitCostCents: text(form.get(`unitCostCents:${lineId}`)) });
  }
  const result = await orOutage(
    revisePurchaseOrder(db, actor, {
      orderId,
      reason: text(form.get("reason")),
      version: text(form.get("version")),
      lines,
      remove,
      add: [],
      idempotencyKey: keyOf(form),
    }),
  );
  if (!result.ok) return refused("revise", result, form);
  return done(
    here(orderId),
    `Revision ${result.revision} recorded`,
    `${result.changes} ${result.changes === 1 ? "change" : "changes"} to ${result.number}, with the reason, in its history.`,
  );
}

async function cancel({ db, actor, orderId, form }: OrderIntentArgs) {
  const result = await orOutage(
    cancelPurchaseOrder(db, actor, { orderId, reason: text(form.get("reason")), idempotencyKey: keyOf(form) }),
  );
  if (!result.ok) return refused("cancel", result, form);
  return done(here(orderId), "Order cancelled", `${result.number} is kept as history.`);
}

async function close({ db, actor, orderId, form }: OrderIntentArgs) {
  const result = await orOutage(
    closePurchaseOrder(db, actor, { orderId, reason: text(form.get("reason")), idempotencyKey: keyOf(form) }),
  );
  if (!result.ok) return refused("close", result, form);
  const left =
    result.outstandingPackages > 0
      ? ` ${result.outstandingPackages} ${result.outstandingPackages === 1 ? "package" : "packages"} no longer on order.`
      : "";
  return done(here(orderId), "Order closed", `${result.number} is done with.${left}`);
}

export const ORDER_INTENT_HANDLERS: Record<OrderIntent, (args: OrderIntentArgs) => FormAnswer<OrderAnswer>> = {
  "change-line": changeLine,
  "remove-line": removeLine,
  submit,
  revise,
  cancel,
  close,
};
