// /vendors: who the clinic buys from, 25 a page, searchable, active or archived. Everyone with
// READ_VENDORS at the location in scope sees them; WRITE_VENDORS adds and edits them.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { area } from "~/shell/areas";
import { Button, Field, LINK_BUTTON, SelectField, StatusBadge } from "~/ui/form";
import { CELL, DataRow, DataTable, NameCell, Pagination } from "~/ui/table";
import { VENDOR_STATUS_FILTERS, VENDOR_STATUS_LABELS } from "~/vendors/constants";
import { VendorListQuery } from "~/vendors/forms";
import { listVendors } from "~/vendors/list.server";

export const meta: MetaFunction = () => [{ title: "Vendors · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/vendors").permission);
  const query = VendorListQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const list = await orOutage(listVendors(args.context.db, actor, query));
  return {
    ...list,
    q: query.q,
    status: query.status,
    canWrite: can(actor, "WRITE_VENDORS", actor.locationId),
  };
}

export default function VendorsScreen() {
  const { vendors, total, page, pageCount, q, status, canWrite } = useLoaderData<typeof loader>();
  const pageLink = (n: number) =>
    `/vendors?${new URLSearchParams({ ...(q ? { q } : {}), ...(status !== "active" ? { status } : {}), page: String(n) })}`;
  const which = status === "all" ? "" : `${status} `;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Vendors</h1>
          <p className="text-slate-600 text-sm">
            Who the clinic buys from.{" "}
            {canWrite ? "Archived vendors keep their history and their products." : "You can view vendors here."}
          </p>
        </div>
        {canWrite && (
          <Link to="/vendors/new" className={LINK_BUTTON}>
            New vendor
          </Link>
        )}
      </div>

      <Form method="get" action="/vendors" role="search" className="flex flex-wrap items-end gap-2">
        <div className="min-w-64 flex-1">
          <Field
            label="Search by name, account number, contact or email"
            name="q"
            type="search"
            required={false}
            defaultValue={q}
          />
        </div>
        <SelectField
          label="Show"
          name="status"
          defaultValue={status}
          options={VENDOR_STATUS_FILTERS.map((s) => ({ value: s, label: VENDOR_STATUS_LABELS[s] }))}
        />
        <Button tone="secondary">Search</Button>
      </Form>

      <DataTable
        caption="Vendors"
        columns={[
          "Name",
          "Account number",
          "Contact",
          "Email",
          "Phone",
          "Lead time",
          "Products",
          { label: "Status", key: true },
        ]}
        rowCount={vendors.length}
        empty={
          q
            ? `No ${which}vendor matches “${q}”.`
            : status === "archived"
              ? "No vendor is archived."
              : canWrite
                ? "No vendors yet. Add the clinic's suppliers with New vendor."
                : "No vendors yet."
        }
      >
        {vendors.map((v) => (
          <DataRow key={v.id}>
            <NameCell to={`/vendors/${v.id}`} name={v.name} />
            <td className={`${CELL} font-mono text-slate-700`}>{v.accountNumber ?? "—"}</td>
            <td className={`${CELL} text-slate-700`}>{v.contactName ?? "—"}</td>
            <td className={`${CELL} text-slate-700`}>{v.email ?? "—"}</td>
            <td className={`${CELL} text-slate-700`}>{v.phone ?? "—"}</td>
            <td className={`${CELL} text-slate-700`}>
              {v.leadTimeDays === null ? "—" : `${v.leadTimeDays} ${v.leadTimeDays === 1 ? "day" : "days"}`}
            </td>
            <td className={`${CELL} text-slate-700`}>{v.products}</td>
            <td className={CELL}>
              <StatusBadge active={v.active} labels={["Active", "Archived"]} />
            </td>
          </DataRow>
        ))}
      </DataTable>

      <Pagination page={page} pageCount={pageCount} total={total} noun="vendors" pageLink={pageLink} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
