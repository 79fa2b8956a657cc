// /transfers/:id: one transfer (READ_TRANSFERS at its sending or receiving location): from → to,
// status, who created, asked, sent, received or cancelled it and when; its lines (vial label,
// product, lot, expiry, units or bulk quantity, status, discrepancy and its resolution); and the
// actions the reader may take there (add by label code or by searching the catalogue, remove, send,
// receive line by line, resolve, cancel, recall). An action not offered says why where it would be.
// Sending and recalling ask first on the page (`?confirm=`), receiving a loss asks in the action.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { actorHere } from "~/access/door.server";
import { formatQuantity, type UnitScale } from "~/catalog/format";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { useScanField } from "~/scanner/scan-field";
import { area } from "~/shell/areas";
import { NOTE_MAX, REASON_MAX, transferPath } from "~/transfers/constants";
import { permissionOf, TRANSFER_INTENT_HANDLERS, TRANSFER_INTENTS } from "~/transfers/intents.server";
import { ReceiveCard, TransferLines } from "~/transfers/page-sections";
import { bulkChoices, mayOn, readTransfer } from "~/transfers/read.server";
import { TransferStatusBadge } from "~/transfers/status-badge";
import { formatDate, showInstant, Time } from "~/ui/dates";
import { Button, Card, Facts, Field, FormAlert, LINK_BUTTON, TextareaField } from "~/ui/form";
import type { ItemState } from "../../db/schema/stock/constants";

export const meta: MetaFunction = () => [{ title: "Transfer · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/transfers/{id}").permission);
  const id = args.params.id ?? "";
  const transfer = await orOutage(readTransfer(args.context.db, actor, id));
  if (!transfer) throw data("That transfer does not exist at this location.", { status: 404 });
  const url = new URL(args.request.url);
  const may = mayOn(actor, transfer);
  const open = transfer.status === "draft" || transfer.status === "requested";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const choices =
    open && may.fill && q ? await orOutage(bulkChoices(args.context.db, actor, transfer.fromLocationId, q)) : [];
  const tz = transfer.timezone;
  const at = (ms: number | null) => showInstant(ms, tz);
  const vials = transfer.lines.filter((l) => l.itemId);
  const bulk = transfer.lines.filter((l) => !l.itemId);
  const amount = (l: (typeof transfer.lines)[number]) =>
    formatQuantity(l.quantity, l.unitScale as UnitScale, l.baseUnit);
  // "Send 3 vials and 40 each of Alcohol prep pads to Westside? They leave Downtown's stock now."
  const what = [
    vials.length > 0 ? `${vials.length} ${vials.length === 1 ? "vial" : "vials"}` : null,
    ...bulk.map((l) => `${amount(l)} of ${l.product}`),
  ].filter(Boolean);
  const listed = what.length > 1 ? `${what.slice(0, -1).join(", ")} and ${what[what.length - 1]}` : (what[0] ?? "");
  return {
    transfer: {
      id: transfer.id,
      status: transfer.status,
      from: transfer.fromName,
      to: transfer.toName,
      note: transfer.note,
      createdBy: transfer.createdBy,
      created: at(transfer.createdAt),
      requestedBy: transfer.requestedBy,
      requested: at(transfer.requestedAt),
      sentBy: transfer.sentBy,
      sent: at(transfer.sentAt),
      received: at(transfer.receivedAt),
      // Who received its lines (a transfer may be received in parts, by more than one person).
      receivedBy:
        [...new Set(transfer.lines.map((l) => l.receivedBy).filter((n): n is string => n !== null))].join(", ") || null,
      cancelledBy: transfer.cancelledBy,
      cancelled: at(transfer.cancelledAt),
      recalled: transfer.recalledAt !== null,
      cancelReason: transfer.cancelReason,
    },
    lines: transfer.lines.map((l) => ({
      id: l.id,
      vial: l.labelCode,
      product: `${l.product} · ${l.variation}`,
      lot: l.lot,
      expires: l.expirationDate ? formatDate(l.expirationDate) : null,
      amount: amount(l),
      quantity: l.quantity,
      received:
        l.quantityReceived === null ? null : formatQuantity(l.quantityReceived, l.unitScale as UnitScale, l.baseUnit),
      status: l.status,
      reason: l.reason,
      receivedBy: l.receivedBy,
      receivedAt: at(l.receivedAt),
      resolvedBy: l.resolvedBy,
      resolvedAt: at(l.resolvedAt),
      resolutionNote: l.resolutionNote,
      itemState: l.itemState as ItemState | null,
      quarantined: l.recalled && l.itemState === "sealed",
      // A sealed vial past its expiration date on a draft: sending refuses it until it is removed.
      expired: open && l.expired && l.itemState === "sealed",
      isBulk: l.itemId === null,
    })),
    may,
    // Where the reader stands: at the sender, at the destination, or elsewhere (organization mode).
    side:
      actor.locationId === transfer.fromLocationId
        ? "from"
        : actor.locationId === transfer.toLocationId
          ? "to"
          : "other",
    confirm: url.searchParams.get("confirm"),
    q,
    choices: choices.map((c) => ({ ...c, onHand: Number(c.onHand) })),
    sendQuestion: `Send ${listed} to ${transfer.toName}? ${vials.length + bulk.length === 1 ? "It leaves" : "They leave"} ${transfer.fromName}'s stock now.`,
    recallQuestion: `Recall this transfer to ${transfer.fromName}? ${listed} ${vials.length + bulk.length === 1 ? "goes" : "go"} back on ${transfer.fromName}'s stock, and ${transfer.toName} will not receive it.`,
    keys: { send: newIdempotencyKey(), receive: newIdempotencyKey() },
  };
}

export async function action(args: ActionFunctionArgs) {
  const form = Object.fromEntries(await args.request.formData());
  const intent = intentOf(form, TRANSFER_INTENTS);
  const actor = await actorHere(args, permissionOf(intent));
  return TRANSFER_INTENT_HANDLERS[intent]({ db: args.context.db, actor, transferId: args.params.id ?? "", form });
}

function Why({ children }: { children: string }) {
  return <p className="rounded-md bg-slate-50 p-3 text-slate-700 text-sm">{children}</p>;
}

export default function TransferScreen() {
  const { transfer, lines, may, side, confirm, q, choices, sendQuestion, recallQuestion, keys } =
    useLoaderData<typeof loader>();
  const ROLE_HERE = "Your role here can see this transfer but not change it: a manager or an administrator does.";
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errorsFor = (intent: string) => (answer?.intent === intent ? answer.fieldErrors : {});
  const typed = (intent: string, name: string) => (answer?.intent === intent ? answer.typed[name] : undefined);
  const open = transfer.status === "draft" || transfer.status === "requested";
  const partlyReceived = lines.some((l) => l.status !== "pending");
  const self = transferPath(transfer.id);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <Link to="/transfers" className="text-sky-800 text-sm hover:underline">
          ← Transfers
        </Link>
        <h1 className="font-semibold text-2xl">
          {transfer.from} → {transfer.to}
        </h1>
        <div>
          <TransferStatusBadge status={transfer.status} recalled={transfer.recalled} />
        </div>
      </div>

      <Card title="Details">
        <Facts
          items={[
            ...(transfer.requested
              ? ([
                  [
                    "Asked",
                    <span key="r">
                      {transfer.requestedBy ?? "—"}, <Time at={transfer.requested} />
                    </span>,
                  ],
                ] as [string, ReactNode][])
              : []),
            ["Note", transfer.note ?? "—"],
            [
              "Created",
              <span key="c">
                {transfer.createdBy ?? "—"}, <Time at={transfer.created} />
              </span>,
            ],
            [
              "Sent",
              transfer.sent ? (
                <span key="s">
                  {transfer.sentBy ?? "—"}, <Time at={transfer.sent} />
                </span>
              ) : (
                "Not yet"
              ),
            ],
            [
              "Received",
              transfer.received ? (
                <span key="d">
                  {transfer.receivedBy ?? "—"}, <Time at={transfer.received} />
                </span>
              ) : transfer.receivedBy ? (
                `In part, by ${transfer.receivedBy}`
              ) : (
                "Not yet"
              ),
            ],
            ...(transfer.cancelled
              ? ([
                  [
                    transfer.recalled ? "Recalled" : "Cancelled",
                    <span key="x">
                      {transfer.cancelledBy ?? "—"}, <Time at={transfer.cancelled} />
                      {transfer.cancelReason ? ` · ${transfer.cancelReason}` : ""}
                    </span>,
                  ],
                ] as [string, ReactNode][])
              : []),
          ]}
        />
      </Card>

      <FormAlert message={answer?.formError} />

      {/* Filling: a request or a draft, at its sender. */}
      {open &&
        (may.fill ? (
          <div className="grid gap-4 lg:grid-cols-2">
            <Card title="Add a vial">
              {/* Keyed by the lines: after a vial is added the field is empty again, ready for the next scan. */}
              <AddVialForm
                key={lines.length}
                typed={typed("add-vial", "labelCode")}
                error={errorsFor("add-vial").labelCode}
                busy={busy}
              />
            </Card>
            <Card title="Add a bulk quantity">
              <Form method="get" className="flex flex-wrap items-end gap-2">
                <Field
                  label="Search the catalogue"
                  name="q"
                  required={false}
                  defaultValue={q}
                  hint="Bulk products on hand at the sender."
                />
                <Button tone="secondary">Search</Button>
              </Form>
              {q && choices.length === 0 && (
                <p className="mt-2 text-slate-600 text-sm">No bulk product matching "{q}" is on hand here.</p>
              )}
              <ul className="mt-3 flex flex-col gap-3">
                {choices.map((c) => (
                  <li key={c.variationId}>
                    <Form method="post" className="flex flex-wrap items-end gap-2">
                      <input type="hidden" name="intent" value="add-bulk" />
                      <input type="hidden" name="variationId" value={c.variationId} />
                      <Field
                        label={`${c.product} · ${c.variation}`}
                        name="quantity"
                        inputMode="numeric"
                        idPrefix={`bulk-${c.variationId}-`}
                        hint={`${c.onHand} ${c.baseUnit} on hand`}
                        defaultValue={
                          answer?.intent === "add-bulk" && answer.lineId === c.variationId
                            ? answer.typed.quantity
                            : undefined
                        }
                        error={
                          answer?.intent === "add-bulk" && answer.lineId === c.variationId
                            ? answer.fieldErrors.quantity
                            : undefined
                        }
                      />
                      <Button tone="secondary" disabled={busy}>
                        Add
                      </Button>
                    </Form>
                  </li>
                ))}
              </ul>
            </Card>
          </div>
        ) : (
          <Why>
            {side === "from"
              ? ROLE_HERE
              : `Only ${transfer.from} fills and sends this transfer: a manager or an administrator there adds its vials and quantities.`}
          </Why>
        ))}

      <TransferLines lines={lines} open={open} may={may} busy={busy} answer={answer} />

      {/* Sending: a draft with lines, at its sender; asked first. */}
      {transfer.status === "draft" &&
        (!may.send ? (
          <Why>{side === "from" ? ROLE_HERE : `${transfer.from} sends this transfer once it is filled.`}</Why>
        ) : lines.length === 0 ? (
          <Why>Add a vial or a bulk quantity before sending.</Why>
        ) : confirm === "send" ? (
          <Card title="Send this transfer?">
            <Form method="post" className="flex flex-col gap-3">
              <input type="hidden" name="intent" value="send" />
              <input type="hidden" name="idempotencyKey" value={keys.send} />
              <p className="text-sm">{sendQuestion}</p>
              <div className="flex flex-wrap gap-2">
                <Button disabled={busy}>Send now</Button>
                <Link to={self} className="inline-flex min-h-10 items-center px-3 text-sky-800 text-sm hover:underline">
                  Keep editing
                </Link>
              </div>
            </Form>
          </Card>
        ) : (
          <div>
            <Link to={`${self}?confirm=send`} className={LINK_BUTTON}>
              Send…
            </Link>
          </div>
        ))}

      {/* Receiving: a transfer on its way, at its destination. */}
      {transfer.status === "in_transit" &&
        (may.receive ? (
          <ReceiveCard transfer={transfer} lines={lines} busy={busy} answer={answer} receiveKey={keys.receive} />
        ) : (
          <Why>{`${transfer.to} receives this transfer when it arrives.`}</Why>
        ))}

      {/* Recall: on its way, nothing received yet, at its sender. */}
      {transfer.status === "in_transit" &&
        may.recall &&
        (partlyReceived ? (
          <Why>{`It can no longer be recalled: ${transfer.to} has received part of it.`}</Why>
        ) : confirm === "recall" ? (
          <Card title="Recall this transfer?">
            <Form method="post" className="flex flex-col gap-3">
              <input type="hidden" name="intent" value="recall" />
              <p className="text-sm">{recallQuestion}</p>
              <Field
                label="Reason"
                note="optional"
                name="reason"
                required={false}
                maxLength={REASON_MAX}
                error={errorsFor("recall").reason}
              />
              <div className="flex flex-wrap gap-2">
                <Button tone="danger" disabled={busy}>
                  Recall it
                </Button>
                <Link to={self} className="inline-flex min-h-10 items-center px-3 text-sky-800 text-sm hover:underline">
                  Keep it on its way
                </Link>
              </div>
            </Form>
          </Card>
        ) : (
          <div>
            <Link to={`${self}?confirm=recall`} className="text-red-700 text-sm hover:underline">
              Recall to {transfer.from}…
            </Link>
          </div>
        ))}

      {/* Cancel: a request or a draft, at either end. */}
      {open &&
        (may.cancel ? (
          <Card title={transfer.status === "requested" ? "Cancel this request" : "Cancel this draft"}>
            <Form method="post" className="flex flex-col gap-3">
              <input type="hidden" name="intent" value="cancel" />
              <TextareaField
                label="Reason"
                note="optional"
                name="reason"
                idPrefix="cancel-"
                rows={2}
                required={false}
                maxLength={NOTE_MAX}
                defaultValue={typed("cancel", "reason")}
                error={errorsFor("cancel").reason}
              />
              <div>
                <Button tone="danger" disabled={busy}>
                  Cancel transfer
                </Button>
              </div>
            </Form>
          </Card>
        ) : (
          <Why>A manager or an administrator at either location can cancel it.</Why>
        ))}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";

/** A vial scanned into the transfer: the field takes the focus for the next scan, unless a person is typing elsewhere. */
function AddVialForm({ typed, error, busy }: { typed: string | undefined; error: string | undefined; busy: boolean }) {
  const { ref, ...freshOnFocus } = useScanField({ takesFocus: true });
  return (
    <Form method="post" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="add-vial" />
      <Field
        {...freshOnFocus}
        inputRef={ref}
        label="Vial label code"
        name="labelCode"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        hint="Scan the vial's label, or type its code (sealed vials only)."
        defaultValue={typed}
        error={error}
      />
      <div>
        <Button disabled={busy}>Add vial</Button>
      </div>
    </Form>
  );
}
