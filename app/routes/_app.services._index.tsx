// /services: the organization's services (active or archived), 25 a page, searchable by name,
// code or category, with price, duration and recipe size. Editors add services from here.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { canWriteCatalog } from "~/access/may-change";
import { formatDuration } from "~/catalog/amounts";
import { formatMoney } from "~/catalog/format";
import { orOutage } from "~/http/outage.server";
import { ServiceListQuery } from "~/services/forms";
import { listServices } from "~/services/list.server";
import { area } from "~/shell/areas";
import { Button, Field, LINK_BUTTON, SelectField } from "~/ui/form";
import { CELL, DataRow, DataTable, NameCell, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Services · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/services").permission);
  const query = ServiceListQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const list = await orOutage(listServices(args.context.db, actor, query));
  return { ...list, q: query.q, status: query.status, canWrite: canWriteCatalog(actor) };
}

export default function ServicesScreen() {
  const { services, total, page, pageCount, q, status, canWrite } = useLoaderData<typeof loader>();
  const pageLink = (n: number) =>
    `/services?${new URLSearchParams({ ...(q ? { q } : {}), ...(status === "archived" ? { status } : {}), page: String(n) })}`;
  const which = status === "archived" ? "archived services" : "active services";

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Services</h1>
          <p className="text-slate-600 text-sm">
            Treatments the clinics sell, and what one of each consumes. Shared by every location.
          </p>
        </div>
        {canWrite && (
          <Link to="/services/new" className={LINK_BUTTON}>
            New service
          </Link>
        )}
      </div>

      <Form method="get" action="/services" role="search" className="flex flex-wrap items-end gap-2">
        <div className="min-w-64 flex-1">
          <Field label="Search by name, code or category" name="q" type="search" required={false} defaultValue={q} />
        </div>
        <SelectField
          label="Status"
          name="status"
          defaultValue={status}
          options={[
            { value: "active", label: "Active" },
            { value: "archived", label: "Archived" },
          ]}
        />
        <Button tone="secondary">Search</Button>
      </Form>

      <DataTable
        caption={`Services: ${which}`}
        columns={["Name", "Code", "Category", { label: "Price", key: true }, "Duration", "Recipe"]}
        rowCount={services.length}
        empty={
          q
            ? `No ${which} match “${q}”.`
            : status === "archived"
              ? "No archived services."
              : canWrite
                ? "No services yet. Add the treatments you sell with New service."
                : "No services yet."
        }
      >
        {services.map((s) => (
          <DataRow key={s.id}>
            <NameCell to={`/services/${s.id}`} name={s.name} />
            <td className={`${CELL} font-mono`}>{s.code}</td>
            <td className={`${CELL} text-slate-700`}>{s.category ?? "—"}</td>
            <td className={`${CELL} text-slate-700 tabular-nums`}>{formatMoney(s.priceCents)}</td>
            <td className={`${CELL} text-slate-700`}>
              {s.durationMinutes === null ? "—" : formatDuration(s.durationMinutes)}
            </td>
            <td className={`${CELL} text-slate-700`}>
              {s.lines === 0 ? "No recipe" : `${s.lines} ${s.lines === 1 ? "line" : "lines"}`}
            </td>
          </DataRow>
        ))}
      </DataTable>

      <Pagination page={page} pageCount={pageCount} total={total} noun="services" pageLink={pageLink} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
