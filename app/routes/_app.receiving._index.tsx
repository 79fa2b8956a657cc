// /receiving: the deliveries checked in at the location in scope (every location in organization
// mode), open ones first, 25 a page; READ_INVENTORY sees them. With WRITE_INVENTORY there, "Start
// receiving" opens a receipt (organization mode asks at which location) and goes to its lines; a
// purchase order awaiting delivery may be chosen instead (WRITE_INVENTORY and READ_PURCHASING at its
// location), or posted from the order's page (`purchaseOrderId`): the receipt is then the order's.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { reachesAt } from "~/access/scope.server";
import { fieldErrorsOf } from "~/forms/field-errors";
import { orOutage } from "~/http/outage.server";
import { done, refused } from "~/http/outcome.server";
import {
  addProductsPath,
  NOTES_MAX,
  OPEN_MESSAGES,
  printLabelsPath,
  RECEIPT_STATUS_FILTERS,
  RECEIPT_STATUS_LABELS,
  REFERENCE_MAX,
} from "~/receiving/constants";
import { OpenReceiptForm, ReceiptListQuery } from "~/receiving/forms";
import { listReceipts } from "~/receiving/list.server";
import { openReceipt } from "~/receiving/open.server";
import { openReceiptFromOrder } from "~/receiving/open-from-order.server";
import { ReceiptStatusBadge } from "~/receiving/receipt-status";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Button, Card, Field, FormAlert, SelectField, TextareaField } from "~/ui/form";
import { CELL, DataRow, DataTable, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Receiving · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/receiving").permission);
  const { scope } = actor;
  const query = ReceiptListQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const list = await orOutage(listReceipts(args.context.db, actor, query));
  return {
    receipts: list.receipts.map((r) => ({
      id: r.id,
      status: r.status,
      started: showInstant(r.createdAt, r.timezone),
      completed: showInstant(r.completedAt, r.timezone),
      location: `${r.location} (${r.locationCode})`,
      vendor: r.vendor,
      orderNumber: can(actor, "READ_PURCHASING", r.locationId) ? r.orderNumber : null,
      reference: r.reference,
      lines: Number(r.lines),
      packages: Number(r.packages),
      openedBy: r.openedBy,
    })),
    total: list.total,
    page: list.page,
    pageCount: list.pageCount,
    status: query.status,
    vendors: list.vendors,
    orders: list.orders.map((o) => ({
      id: o.id,
      label: `${o.number} · ${o.vendor}${actor.scope.kind === "organization" ? ` (${o.locationCode})` : ""}`,
    })),
    organizationMode: list.organizationMode,
    here: scope.kind === "location" ? scope.name : null,
    // Where a new receipt may be opened: the location in scope, or (organization mode) any of them.
    receivingAt: actor.locationRoles
      .filter((r) => reachesAt(actor, "WRITE_INVENTORY", r.locationId))
      .map((r) => ({ id: r.locationId, name: `${r.location.name} (${r.location.code})` })),
  };
}

interface Failure {
  fieldErrors: Record<string, string>;
  formError: string | null;
  typed: Record<string, string>;
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_INVENTORY");
  const form = Object.fromEntries(await args.request.formData());
  const typed = Object.fromEntries(
    ["locationId", "vendorId", "purchaseOrderId", "reference", "notes"].map((k) => [
      k,
      typeof form[k] === "string" ? form[k] : "",
    ]),
  );
  const parsed = OpenReceiptForm.safeParse(form);
  if (!parsed.success) {
    return data<Failure>({ fieldErrors: fieldErrorsOf(parsed.error), formError: null, typed }, { status: 400 });
  }
  // Against a purchase order: the order names the location and the vendor.
  const { purchaseOrderId, reference, notes } = parsed.data;
  if (purchaseOrderId) {
    const opened = await orOutage(openReceiptFromOrder(args.context.db, actor, { purchaseOrderId, reference, notes }));
    // Said above the form: posted from the order's page, the order may not be among the choices.
    if (!opened.ok) return refused(opened, { typed });
    return done(addProductsPath(opened.receiptId), {
      title: "Receiving started",
      description: "What the order still expects is listed: scan or add what arrived, then complete the receipt.",
    });
  }
  // At a location, the receipt is for it; organization mode names one.
  const locationId =
    actor.scope.kind === "organization"
      ? parsed.data.locationId
      : actor.scope.kind === "location"
        ? actor.scope.locationId
        : null;
  if (!locationId) {
    return data<Failure>(
      { fieldErrors: { locationId: OPEN_MESSAGES.location }, formError: null, typed },
      { status: 400 },
    );
  }
  const result = await orOutage(openReceipt(args.context.db, actor, { ...parsed.data, locationId }));
  if (!result.ok) {
    // A vendor gone is said under the vendor; any other refusal is about the location.
    const field = (refusal: string) => (refusal === "vendor_unavailable" ? "vendorId" : "locationId");
    return refused(result, { typed }, { fields: field });
  }
  return done(addProductsPath(result.receiptId), {
    title: "Receiving started",
    description: "Scan or add what arrived, then complete the receipt.",
  });
}

export default function ReceivingScreen() {
  const { receipts, total, page, pageCount, status, vendors, orders, organizationMode, here, receivingAt } =
    useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors = failure?.fieldErrors ?? {};
  const pageLink = (n: number) =>
    `/receiving?${new URLSearchParams({ ...(status !== "all" ? { status } : {}), page: String(n) })}`;
  const canReceive = receivingAt.length > 0;

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="font-semibold text-2xl">Receiving</h1>
        <p className="text-slate-600 text-sm">
          Deliveries checked in {organizationMode ? "at every location" : here ? `at ${here}` : ""}: scan or add what
          arrived, then complete the receipt to put it in stock and print its labels.
        </p>
      </div>

      {canReceive && (
        <Card title="Start receiving">
          <Form method="post" className="flex flex-col gap-4" noValidate>
            <FormAlert message={failure?.formError} />
            <div className="grid gap-4 sm:grid-cols-2">
              {orders.length > 0 && (
                <SelectField
                  name="purchaseOrderId"
                  label="Purchase order"
                  options={[{ value: "", label: "No order" }, ...orders.map((o) => ({ value: o.id, label: o.label }))]}
                  defaultValue={failure?.typed.purchaseOrderId ?? ""}
                  hint="Receiving an order takes its location and vendor, and lists what it still expects."
                  error={errors.purchaseOrderId}
                />
              )}
              {organizationMode && (
                <SelectField
                  name="locationId"
                  label="Location"
                  options={[
                    { value: "", label: "Choose a location" },
                    ...receivingAt.map((l) => ({ value: l.id, label: l.name })),
                  ]}
                  defaultValue={failure?.typed.locationId ?? ""}
                  error={errors.locationId}
                />
              )}
              <SelectField
                name="vendorId"
                label="Vendor"
                options={[{ value: "", label: "No vendor" }, ...vendors.map((v) => ({ value: v.id, label: v.name }))]}
                defaultValue={failure?.typed.vendorId ?? ""}
                error={errors.vendorId}
              />
              <Field
                label="Reference"
                note="optional"
                name="reference"
                required={false}
                maxLength={REFERENCE_MAX}
                autoComplete="off"
                defaultValue={failure?.typed.reference}
                hint="The packing slip or invoice number."
                error={errors.reference}
              />
            </div>
            <TextareaField
              label="Notes"
              note="optional"
              name="notes"
              rows={2}
              maxLength={NOTES_MAX}
              defaultValue={failure?.typed.notes}
              error={errors.notes}
            />
            <div>
              <Button disabled={busy}>Start receiving</Button>
            </div>
          </Form>
        </Card>
      )}

      <Form method="get" action="/receiving" className="flex flex-wrap items-end gap-2">
        <SelectField
          label="Show"
          name="status"
          defaultValue={status}
          options={RECEIPT_STATUS_FILTERS.map((s) => ({ value: s, label: RECEIPT_STATUS_LABELS[s] }))}
        />
        <Button tone="secondary">Filter</Button>
      </Form>

      <DataTable
        caption="Receipts"
        columns={[
          "Started",
          ...(organizationMode ? ["Location"] : []),
          "Vendor",
          "Reference",
          "Lines",
          { label: "Status", key: true },
          "Opened by",
          "",
        ]}
        rowCount={receipts.length}
        empty={
          status !== "all"
            ? `No ${RECEIPT_STATUS_LABELS[status].toLowerCase()} receipts.`
            : canReceive
              ? "Nothing received yet. When a delivery arrives, use Start receiving."
              : "Nothing received yet."
        }
      >
        {receipts.map((r) => (
          <DataRow key={r.id}>
            <td className={`${CELL} whitespace-nowrap`}>
              <Link to={addProductsPath(r.id)} className="font-medium text-sky-800 hover:underline">
                <Time at={r.started} />
              </Link>
            </td>
            {organizationMode && <td className={`${CELL} text-slate-700`}>{r.location}</td>}
            <td className={`${CELL} text-slate-700`}>
              {r.vendor ?? "—"}
              {r.orderNumber && <span className="block text-slate-500 text-xs">Order {r.orderNumber}</span>}
            </td>
            <td className={`${CELL} font-mono text-slate-700`}>{r.reference ?? "—"}</td>
            <td className={`${CELL} text-slate-700`}>
              {r.lines} {r.lines === 1 ? "line" : "lines"}
              {r.lines > 0 && ` · ${r.packages} ${r.packages === 1 ? "package" : "packages"}`}
            </td>
            <td className={CELL}>
              <ReceiptStatusBadge status={r.status} />
              {r.completed && (
                <span className="ml-2 text-slate-500 text-xs">
                  <Time at={r.completed} />
                </span>
              )}
            </td>
            <td className={`${CELL} text-slate-700`}>{r.openedBy ?? "—"}</td>
            <td className={CELL}>
              {r.status === "open" && (
                <Link to={addProductsPath(r.id)} className="text-sky-800 hover:underline">
                  Add products
                </Link>
              )}
              {r.status === "completed" && (
                <Link to={printLabelsPath(r.id)} className="text-sky-800 hover:underline">
                  Print labels
                </Link>
              )}
            </td>
          </DataRow>
        ))}
      </DataTable>

      <Pagination page={page} pageCount={pageCount} total={total} noun="receipts" pageLink={pageLink} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
