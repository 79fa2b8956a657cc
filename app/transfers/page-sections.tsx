// The parts of a transfer's page (/transfers/:id) that are long enough to stand on their own: its
// lines (with each discrepancy, its resolution or the form that resolves it, and Remove on a draft)
// and the receive card (a scan that receives a vial, and every pending line marked as it arrived,
// asking before a loss is booked). Browser-safe.
import { Form } from "@remix-run/react";
import { StateBadge } from "~/stock/state-badge";
import { type ShownInstant, Time } from "~/ui/dates";
import { Button, Card, Field, SelectField } from "~/ui/form";
import { CELL, DataRow, DataTable } from "~/ui/table";
import type { ItemState } from "../../db/schema/stock/constants";
import { REASON_MAX, type TransferLineStatus } from "./constants";
import { LineStatusBadge } from "./status-badge";

/** A line as the page shows it. */
export interface PageLine {
  id: string;
  vial: string | null;
  product: string;
  lot: string | null;
  expires: string | null;
  amount: string;
  received: string | null;
  status: TransferLineStatus;
  reason: string | null;
  resolvedBy: string | null;
  resolvedAt: ShownInstant | null;
  resolutionNote: string | null;
  itemState: ItemState | null;
  quarantined: boolean;
  /** A sealed vial past its expiration date, on a draft. */
  expired: boolean;
  isBulk: boolean;
}

/** What the page's action answered, as these parts read it. */
export interface PageAnswer {
  intent: string;
  fieldErrors: Record<string, string>;
  lineId: string | null;
  typed: Record<string, string>;
  ask: string | null;
}

const RECEIVE_OPTIONS = [
  { value: "", label: "Not yet" },
  { value: "received", label: "Received" },
  { value: "missing", label: "Missing" },
  { value: "damaged", label: "Damaged" },
];
const BULK_RECEIVE_OPTIONS = [...RECEIVE_OPTIONS, { value: "short", label: "Short" }];

export function TransferLines({
  lines,
  open,
  may,
  busy,
  answer,
}: {
  lines: readonly PageLine[];
  /** A request or a draft: its lines can still change. */
  open: boolean;
  may: { fill: boolean; resolve: boolean };
  busy: boolean;
  answer: PageAnswer | undefined;
}) {
  return (
    <DataTable
      caption="Lines"
      columns={["Vial", "Product", "Lot", "Expires", "Quantity", { label: "Status", key: true }, "Discrepancy", ""]}
      rowCount={lines.length}
      empty={open ? "Nothing added yet: the sender fills it with vials and bulk quantities." : "No lines."}
    >
      {lines.map((l) => (
        <DataRow key={l.id}>
          <td className={`${CELL} font-mono`}>{l.vial ?? "Bulk"}</td>
          <td className={CELL}>{l.product}</td>
          <td className={`${CELL} font-mono`}>{l.lot ?? "—"}</td>
          <td className={CELL}>{l.expires ?? "—"}</td>
          <td className={CELL}>
            {l.amount}
            {l.received !== null && l.status === "short" && (
              <span className="text-slate-600"> · {l.received} arrived</span>
            )}
          </td>
          <td className={CELL}>
            <span className="flex flex-wrap gap-1">
              <LineStatusBadge status={l.status} draft={open} />
              {!open && l.itemState && l.itemState !== "sealed" && <StateBadge state={l.itemState} />}
              {l.quarantined && <span className="font-medium text-red-800 text-xs">Quarantined: lot recalled</span>}
              {l.expired && <span className="font-medium text-red-800 text-xs">Expired: remove it before sending</span>}
            </span>
          </td>
          <td className={`${CELL} text-sm`}>
            {l.reason ? (
              <div className="flex flex-col gap-1">
                <span>{l.reason}</span>
                {l.resolvedAt ? (
                  <span className="text-emerald-800">
                    Resolved by {l.resolvedBy ?? "—"}, <Time at={l.resolvedAt} />: {l.resolutionNote}
                  </span>
                ) : may.resolve ? (
                  <Form method="post" className="flex flex-col gap-2">
                    <input type="hidden" name="intent" value="resolve" />
                    <input type="hidden" name="lineId" value={l.id} />
                    <Field
                      label="How it was resolved"
                      name="note"
                      idPrefix={`resolve-${l.id}-`}
                      maxLength={REASON_MAX}
                      defaultValue={
                        answer?.intent === "resolve" && answer.lineId === l.id ? answer.typed.note : undefined
                      }
                      error={
                        answer?.intent === "resolve" && answer.lineId === l.id ? answer.fieldErrors.note : undefined
                      }
                    />
                    <div>
                      <Button tone="secondary" disabled={busy}>
                        Resolve
                      </Button>
                    </div>
                  </Form>
                ) : (
                  <span className="font-medium text-red-800">
                    Open: a manager or an administrator at either location resolves it.
                  </span>
                )}
              </div>
            ) : (
              "—"
            )}
          </td>
          <td className={CELL}>
            {open && may.fill && (
              <Form method="post">
                <input type="hidden" name="intent" value="remove-line" />
                <input type="hidden" name="lineId" value={l.id} />
                <Button tone="secondary" disabled={busy}>
                  Remove
                </Button>
              </Form>
            )}
          </td>
        </DataRow>
      ))}
    </DataTable>
  );
}

export function ReceiveCard({
  transfer,
  lines,
  busy,
  answer,
  receiveKey,
}: {
  transfer: { to: string };
  /** The receive form's idempotency key: a double tap receives once. */
  receiveKey: string;
  lines: readonly PageLine[];
  busy: boolean;
  answer: PageAnswer | undefined;
}) {
  const pending = lines.filter((l) => l.status === "pending");
  const errorsFor = (intent: string) => (answer?.intent === intent ? answer.fieldErrors : {});
  const typed = (intent: string, name: string) => (answer?.intent === intent ? answer.typed[name] : undefined);
  return (
    <Card title="Receive">
      <div className="flex flex-col gap-4">
        {lines.some((l) => l.status === "pending" && !l.isBulk) && (
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="receive-scan" />
            <Field
              label="Scan a vial as it arrives"
              name="labelCode"
              idPrefix="arrived-"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              error={errorsFor("receive-scan").labelCode}
            />
            <Button tone="secondary" disabled={busy}>
              Received
            </Button>
          </Form>
        )}
        <Form method="post" className="flex flex-col gap-4">
          <input type="hidden" name="intent" value="receive" />
          <input type="hidden" name="idempotencyKey" value={receiveKey} />
          <p className="text-slate-600 text-sm">
            Mark each line as it arrived. Missing, damaged or short lines need a reason; what did not arrive is booked
            as lost at {transfer.to}.
          </p>
          {pending.map((l) => (
            <fieldset key={l.id} className="grid gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-3">
              <legend className="px-1 font-medium text-sm">
                {l.vial ? `Vial ${l.vial}` : "Bulk"} · {l.product} · {l.amount}
              </legend>
              <SelectField
                label="Arrived"
                name={`status:${l.id}`}
                id={`status-${l.id}`}
                options={l.isBulk ? BULK_RECEIVE_OPTIONS : RECEIVE_OPTIONS}
                defaultValue={typed("receive", `status:${l.id}`) ?? ""}
                error={errorsFor("receive")[`status:${l.id}`]}
              />
              {l.isBulk && (
                <Field
                  label="Quantity that arrived"
                  note="if short"
                  name={`quantity:${l.id}`}
                  id={`quantity-${l.id}`}
                  inputMode="numeric"
                  required={false}
                  defaultValue={typed("receive", `quantity:${l.id}`)}
                  error={errorsFor("receive")[`quantity:${l.id}`]}
                />
              )}
              <Field
                label="Reason"
                note="if not received"
                name={`reason:${l.id}`}
                id={`reason-${l.id}`}
                required={false}
                maxLength={REASON_MAX}
                defaultValue={typed("receive", `reason:${l.id}`)}
                error={errorsFor("receive")[`reason:${l.id}`]}
              />
            </fieldset>
          ))}
          {answer?.intent === "receive" && answer.ask ? (
            <div className="flex flex-col gap-2 rounded-md border border-red-200 bg-red-50 p-3" role="alert">
              <p className="text-red-900 text-sm">{answer.ask}</p>
              <div>
                <Button tone="danger" name="confirm" value="yes" disabled={busy}>
                  Book it
                </Button>
              </div>
            </div>
          ) : (
            <div>
              <Button disabled={busy}>Receive marked lines</Button>
            </div>
          )}
        </Form>
      </div>
    </Card>
  );
}
