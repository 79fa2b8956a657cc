// /purchase-orders: the purchase orders of the location in scope (every location in organization
// mode), by status, newest first, 25 a page; READ_PURCHASING sees them (managers read, admins
// write). With WRITE_PURCHASING: "New order" (a vendor, at the location in scope or one picked in
// organization mode), which makes a draft and goes to it. The same post takes the first lines as
// repeated `variationId` + `packages` pairs (intent=create), which the reorder view posts: the
// reorder suggestions of the location in scope (organization mode: the one picked), grouped by
// default vendor, with the transfers another location offers instead (app/reorder, ADR 0032): the
// vendors with the most suggestions first, the first 10 of them unless `?vendors=all`.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { ORGANIZATION } from "~/access/permissions";
import { locationsFor, reachesAt } from "~/access/scope.server";
import { formatMoney } from "~/catalog/format";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { done, intentOf } from "~/http/outcome.server";
import { FORBIDDEN } from "~/outcome";
import {
  NOTE_MAX,
  ORDERS_PAGE_SIZE,
  PURCHASE_ORDER_STATUS_LABELS,
  PURCHASING_MESSAGES,
  purchaseOrderPath,
} from "~/purchasing/constants";
import { createPurchaseOrder } from "~/purchasing/create.server";
import { linesOfPairs, type OrderLineInput, OrderStatusFilter } from "~/purchasing/forms";
import { activeLocations, activeVendors, listOrders, orderListQueries } from "~/purchasing/read.server";
import { ALL_VENDORS_PARAM, REORDER_VENDORS_SHOWN } from "~/purchasing/reorder";
import { ReorderView } from "~/purchasing/reorder-view";
import { OrderStatusBadge } from "~/purchasing/status-badge";
import { reorderScreenOf, reorderScreenStatements } from "~/reorder/read.server";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Button, Card, FormAlert, SelectField, TextareaField } from "~/ui/form";
import { CELL, cursorLinks, DataRow, DataTable, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Purchase Orders · Clinic Inventory" }];

const INTENTS = ["create"] as const;

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/purchase-orders").permission);
  const params = new URL(args.request.url).searchParams;
  const status = OrderStatusFilter.safeParse(params.get("status")).data ?? null;
  const locationIds = locationsFor(actor, "READ_PURCHASING").ids;
  const { db } = args.context;
  const query = { locationIds, status, pageSize: ORDERS_PAGE_SIZE };
  const here = actor.locationId === ORGANIZATION ? null : actor.locationId;
  // The reorder view: the suggestions of the location in scope (in organization mode, the one
  // picked with ?reorderAt=; its statements keep to the organization), with the transfers offered
  // instead (app/reorder composes both), read beside the list.
  const asked = here ?? (params.get("reorderAt") || null);
  // The vendors with the most suggestions first, the first REORDER_VENDORS_SHOWN of them unless all are asked for.
  const allVendors = params.get(ALL_VENDORS_PARAM) === "all";
  // The list, the vendors, the locations and the reorder view's reads in one batch (a cursor this
  // list did not make reads the first page after).
  const list = orderListQueries(db, {
    ...query,
    after: params.get("after") ?? undefined,
    before: params.get("before") ?? undefined,
  });
  const results = (await orOutage(
    db.batch([
      ...(list?.statements ?? []),
      activeVendors(db, actor),
      activeLocations(db, actor),
      ...(asked ? reorderScreenStatements(db, actor, asked, allVendors ? null : REORDER_VENDORS_SHOWN) : []),
    ] as never),
  )) as unknown[];
  const listed = list ? 2 : 0;
  const page = list ? list.pageOf(results.slice(0, listed)) : await orOutage(listOrders(db, query));
  const [vendors, locations] = results.slice(listed, listed + 2) as [
    Awaited<ReturnType<typeof activeVendors>>,
    Awaited<ReturnType<typeof activeLocations>>,
  ];
  const reorderResults = results.slice(listed + 2);
  // The transfers' suggestions are worked out where none are recent (a round trip more, then).
  const reorderRead = asked ? await orOutage(reorderScreenOf(db, actor, asked, reorderResults)) : null;
  const organizationMode = actor.locationId === ORGANIZATION;
  // Where the reader may start an order: here, or any location in organization mode.
  const writable = locations.filter((l) => reachesAt(actor, "WRITE_PURCHASING", l.id));
  const reorderAt = locations.find((l) => l.id === asked)?.id ?? null;
  const reorder = reorderAt ? reorderRead : null;
  // What the page's links keep: the location picked, the status shown and whether every vendor is.
  const kept = {
    reorderAt: organizationMode && reorderAt ? reorderAt : "",
    status: status ?? "",
    [ALL_VENDORS_PARAM]: allVendors ? "all" : "",
  };
  const hrefWith = (vendors: string) => {
    const query = new URLSearchParams(Object.entries({ ...kept, [ALL_VENDORS_PARAM]: vendors }).filter(([, v]) => v));
    return `/purchase-orders${query.size ? `?${query}` : ""}`;
  };
  return {
    reorderAt,
    reorderAtName: locations.find((l) => l.id === reorderAt)?.name ?? null,
    reorderChoices: organizationMode ? locations.map((l) => ({ value: l.id, label: `${l.name} (${l.code})` })) : [],
    reorder,
    vendorLinks: { all: hrefWith("all"), first: hrefWith(""), allShown: allVendors },
    canOrderThere: reorderAt !== null && reachesAt(actor, "WRITE_PURCHASING", reorderAt),
    organizationMode,
    here,
    hereName: locations.find((l) => l.id === here)?.name ?? null,
    status,
    vendors: vendors.map((v) => ({ value: v.id, label: v.name })),
    writable: writable.map((l) => ({ value: l.id, label: `${l.name} (${l.code})` })),
    orders: (page?.items ?? []).map((o) => ({
      id: o.id,
      number: o.number,
      status: o.status,
      vendor: o.vendorName,
      location: o.locationName,
      created: showInstant(o.createdAt, o.timezone),
      submitted: showInstant(o.submittedAt, o.timezone),
      who: o.createdBy,
      lines: o.lines,
      total: formatMoney(o.totalCents),
      outstanding: o.outstandingPackages,
    })),
    total: page?.total ?? 0,
    totalExact: page?.totalExact ?? true,
    links: cursorLinks("/purchase-orders", kept, page ?? { next: null, previous: null }),
    createKey: newIdempotencyKey(),
  };
}

interface Failure {
  fieldErrors: Record<string, string>;
  formError: string | null;
  typed: Record<string, string>;
}

const failure = (status: number, parts: Partial<Failure>) =>
  data<Failure>({ fieldErrors: {}, formError: null, typed: {}, ...parts }, { status });

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_PURCHASING");
  const form = await args.request.formData();
  intentOf(form, INTENTS);
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const typed = { locationId: text("locationId"), vendorId: text("vendorId"), note: text("note") };
  const here = actor.locationId === ORGANIZATION ? null : actor.locationId;
  const locationId = text("locationId") || here || "";
  const fieldErrors: Record<string, string> = {};
  if (!locationId) fieldErrors.locationId = PURCHASING_MESSAGES.location;
  if (!text("vendorId")) fieldErrors.vendorId = PURCHASING_MESSAGES.vendor;
  const pairs = linesOfPairs(form.getAll("variationId"), form.getAll("packages"));
  if (!pairs.ok) return failure(400, { formError: pairs.message, typed });
  if (Object.keys(fieldErrors).length > 0) return failure(400, { fieldErrors, typed });
  const result = await orOutage(
    createPurchaseOrder(args.context.db, actor, {
      locationId,
      vendorId: text("vendorId"),
      note: text("note"),
      lines: pairs.lines as OrderLineInput[],
      idempotencyKey: text("idempotencyKey") || null,
    }),
  );
  if (!result.ok) {
    if (result.refusal === "forbidden") throw data(FORBIDDEN, { status: 403 });
    const field =
      result.refusal === "vendor_unavailable"
        ? "vendorId"
        : result.refusal === "location_unavailable"
          ? "locationId"
          : result.message === PURCHASING_MESSAGES.note
            ? "note"
            : null;
    return failure(result.refusal === "invalid" ? 400 : 409, {
      fieldErrors: field ? { [field]: result.message } : {},
      formError: field ? null : result.message,
      typed,
    });
  }
  return done(
    purchaseOrderPath(result.orderId),
    `${result.number} started`,
    result.lines > 0
      ? `A draft with ${result.lines} ${result.lines === 1 ? "line" : "lines"}. Check it, then submit it.`
      : "A draft: add the items to order, then submit it.",
  );
}

const STATUS_FILTERS = [
  { value: "", label: "All" },
  ...Object.entries(PURCHASE_ORDER_STATUS_LABELS).map(([value, label]) => ({ value, label })),
];

export default function PurchaseOrdersScreen() {
  const {
    organizationMode,
    hereName,
    status,
    vendors,
    writable,
    orders,
    total,
    totalExact,
    links,
    createKey,
    reorderAt,
    reorderAtName,
    reorderChoices,
    reorder,
    vendorLinks,
    canOrderThere,
  } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const canWrite = writable.length > 0;
  const only = writable.length === 1 ? writable[0] : null;

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="font-semibold text-2xl">Purchase Orders</h1>
        <p className="text-slate-600 text-sm">
          What the clinic orders from its vendors
          {organizationMode ? ", at every location" : hereName ? ` for ${hereName}` : ""}.
        </p>
      </div>

      {canWrite ? (
        <Card title="New order">
          <Form method="post" className="flex flex-col gap-3 sm:max-w-md">
            <input type="hidden" name="intent" value="create" />
            <input type="hidden" name="idempotencyKey" value={createKey} />
            {only && !organizationMode ? (
              <input type="hidden" name="locationId" value={only.value} />
            ) : (
              <SelectField
                idPrefix="new-"
                name="locationId"
                label="Ship to"
                options={[{ value: "", label: "Choose a location" }, ...writable]}
                defaultValue={failed?.typed.locationId ?? ""}
                error={failed?.fieldErrors.locationId}
              />
            )}
            <SelectField
              idPrefix="new-"
              name="vendorId"
              label="Vendor"
              options={[{ value: "", label: "Choose a vendor" }, ...vendors]}
              defaultValue={failed?.typed.vendorId ?? ""}
              error={failed?.fieldErrors.vendorId}
            />
            <TextareaField
              idPrefix="new-"
              label="Note for the vendor"
              note="optional"
              name="note"
              rows={2}
              required={false}
              maxLength={NOTE_MAX}
              defaultValue={failed?.typed.note}
              error={failed?.fieldErrors.note}
            />
            <FormAlert message={failed?.formError} />
            <div>
              <Button disabled={busy}>New order</Button>
            </div>
          </Form>
        </Card>
      ) : (
        <p className="rounded-md bg-slate-50 p-3 text-slate-700 text-sm" data-testid="no-new-order">
          Your role here can read purchase orders but not start one: an administrator does.
        </p>
      )}

      {organizationMode && (
        <Form method="get" action="/purchase-orders" className="flex flex-wrap items-end gap-2">
          <SelectField
            idPrefix="reorder-"
            label="Reorder suggestions for"
            name="reorderAt"
            defaultValue={reorderAt ?? ""}
            options={[{ value: "", label: "Choose a location" }, ...reorderChoices]}
          />
          <Button tone="secondary">Show suggestions</Button>
        </Form>
      )}
      {reorder && reorderAt && reorderAtName && (
        <ReorderView
          locationId={reorderAt}
          locationName={reorderAtName}
          suggestions={reorder.suggestions}
          offers={reorder.offers}
          vendors={reorder.vendors}
          vendorLinks={vendorLinks}
          canOrder={canOrderThere}
          idempotencyKey={createKey}
        />
      )}

      <Form method="get" action="/purchase-orders" className="flex flex-wrap items-end gap-2">
        <SelectField label="Show" name="status" defaultValue={status ?? ""} options={STATUS_FILTERS} />
        <Button tone="secondary">Filter</Button>
      </Form>

      <DataTable
        caption="Purchase orders"
        columns={[
          "Number",
          "Vendor",
          ...(organizationMode ? ["Ship to"] : []),
          { label: "Status", key: true },
          "Lines",
          "Total",
          "Started",
          "By",
        ]}
        rowCount={orders.length}
        empty={
          status
            ? `No purchase orders ${PURCHASE_ORDER_STATUS_LABELS[status].toLowerCase()}.`
            : "No purchase orders yet."
        }
      >
        {orders.map((o) => (
          <DataRow key={o.id}>
            <td className={`${CELL} whitespace-nowrap`}>
              <Link to={purchaseOrderPath(o.id)} className="font-medium text-sky-800 hover:underline">
                {o.number}
              </Link>
            </td>
            <td className={`${CELL} text-slate-700`}>{o.vendor}</td>
            {organizationMode && <td className={`${CELL} text-slate-700`}>{o.location}</td>}
            <td className={CELL}>
              <OrderStatusBadge status={o.status} />
            </td>
            <td className={`${CELL} text-slate-700`}>
              {o.lines}
              {(o.status === "submitted" || o.status === "partially_received") && o.outstanding > 0
                ? ` · ${o.outstanding} ${o.outstanding === 1 ? "package" : "packages"} to come`
                : ""}
            </td>
            <td className={`${CELL} text-slate-700 tabular-nums`}>{o.total}</td>
            <td className={`${CELL} whitespace-nowrap`}>
              <Time at={o.created} />
            </td>
            <td className={`${CELL} text-slate-700`}>{o.who ?? "—"}</td>
          </DataRow>
        ))}
      </DataTable>
      <Pagination
        total={total}
        totalExact={totalExact}
        noun="purchase orders"
        previous={links.previous}
        next={links.next}
      />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
