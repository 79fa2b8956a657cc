// /usage-log: the units drawn for treatments at the location in scope (every location, with a
// location column, in organization mode), newest first, 25 a page by keyset (Previous / Next
// links carry the cursor, ADR 0018) with a capped count; filters by dates (days in the
// location's zone, UTC in organization mode), product (name or SKU; one product or variation
// exactly by id), lot, service, provider and patient reference (a GET form), and the filtered list
// as a streamed CSV. The same rows as GET /api/usage, read through app/usage in one batch.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { listedUnlessProblems, typedFilters } from "~/http/filters.server";
import { orOutage } from "~/http/outage.server";
import { recallReportPath } from "~/recalls/links";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Field } from "~/ui/form";
import { DateRangeFields, FilterSelect, ProductFilter, SearchForm } from "~/ui/search-form";
import { CELL, cursorLinks, DataRow, DataTable, Pagination } from "~/ui/table";
import { readUsageQuery, usageScreen } from "~/usage/list.server";
import { USAGE_PAGE_SIZE, usageFilterParams } from "~/usage/query";

export const meta: MetaFunction = () => [{ title: "Usage Log · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/usage-log").permission);
  const searchParams = new URL(args.request.url).searchParams;
  const { query, problems } = readUsageQuery(searchParams);
  const read = await orOutage(usageScreen(args.context.db, actor, query));
  const screen = listedUnlessProblems(read, problems);
  const now = new Date();
  const filters = usageFilterParams(query);
  const filterValues = Object.fromEntries(filters) as Record<string, string>;
  const typed = typedFilters(problems, searchParams);
  return {
    problems,
    rows: screen.items.map((e) => ({
      id: e.id,
      usedAt: showInstant(e.usedAt, e.location.timeZone, now),
      location: e.location,
      productName: e.productName,
      variationName: e.variationName,
      lot: e.lot,
      report: e.lot ? recallReportPath(e.variationId, e.lot) : null,
      units: e.unitsText,
      serviceName: e.serviceName,
      provider: e.provider,
      patientRef: e.patientRef,
      recordedBy: e.recordedBy,
    })),
    total: screen.total,
    totalExact: screen.totalExact,
    // A page size other than the screen's, asked for in the address, stays on the next and previous pages.
    ...cursorLinks(
      "/usage-log",
      { ...filterValues, pageSize: query.pageSize === USAGE_PAGE_SIZE ? "" : String(query.pageSize) },
      screen,
    ),
    services: screen.services,
    chosen: screen.chosen,
    timeZone: screen.timeZone,
    organizationMode: actor.locationId === "all",
    query: { ...filterValues, ...typed } as Partial<Record<string, string>>,
    csv: `/usage-log.csv${filters.size ? `?${filters}` : ""}`,
  };
}

const LINK = "font-medium text-sky-800 hover:underline";

export default function UsageLogScreen() {
  const {
    rows,
    total,
    totalExact,
    previous,
    next,
    services,
    chosen,
    timeZone,
    organizationMode,
    query,
    problems,
    csv,
  } = useLoaderData<typeof loader>();
  const unusable = Object.keys(problems).length > 0;
  const filtered = Object.keys(query).length > 0;
  const zoneText = organizationMode ? "UTC (organization mode)" : `the location's time zone, ${timeZone}`;
  const columns = [
    { label: "Used", key: true },
    ...(organizationMode ? ["Location"] : []),
    { label: "Product", title: true },
    "Lot",
    { label: "Units", key: true },
    "Service",
    "Provider",
    "Patient ref.",
    "Recorded by",
  ];
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Usage Log</h1>
          <p className="text-slate-600 text-sm">
            Units drawn from vials for treatments, newest first. A lot links to its trace: every use and where its
            unused vials are.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link
            to="/recalls"
            className="inline-flex min-h-10 items-center rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-sm hover:bg-slate-100"
          >
            Lot recalls
          </Link>
          <a
            href={csv}
            download
            className="inline-flex min-h-10 items-center rounded-md bg-sky-700 px-3 py-2 font-medium text-sm text-white hover:bg-sky-800"
          >
            Download CSV
          </a>
        </div>
      </div>

      <SearchForm action="/usage-log" filtered={filtered}>
        <DateRangeFields from={query.from} to={query.to} errors={problems} />
        <ProductFilter search={query.product ?? ""} chosen={chosen} error={problems.product} />
        <div className="min-w-32 flex-1">
          <Field label="Lot" name="lot" required={false} defaultValue={query.lot} error={problems.lot} />
        </div>
        <FilterSelect
          name="serviceId"
          label="Service"
          value={query.serviceId ?? ""}
          error={problems.serviceId}
          options={[{ value: "", label: "Any service" }, ...services.map((s) => ({ value: s.id, label: s.name }))]}
        />
        <div className="min-w-36 flex-1">
          <Field
            label="Provider"
            name="provider"
            required={false}
            defaultValue={query.provider}
            error={problems.provider}
          />
        </div>
        <div className="min-w-36 flex-1">
          <Field
            label="Patient reference"
            name="patientRef"
            required={false}
            defaultValue={query.patientRef}
            error={problems.patientRef}
          />
        </div>
      </SearchForm>
      <p className="-mt-4 text-slate-500 text-xs">
        Dates are whole days in {zoneText}; times below are each location's own.
      </p>

      <DataTable
        caption="Usage entries"
        columns={columns}
        rowCount={rows.length}
        empty={
          unusable
            ? "No usage listed: a filter above cannot be used. Correct it, or clear the filters."
            : filtered
              ? "No usage matches these filters. Clear them to see every entry."
              : "No units have been drawn here yet. Each draw from an open vial (Scan or Inventory) is listed here."
        }
      >
        {rows.map((r) => (
          <DataRow key={r.id}>
            <td className={`${CELL} whitespace-nowrap text-slate-700`}>
              <Time at={r.usedAt} />
            </td>
            {organizationMode && (
              <td className={`${CELL} text-slate-700`}>
                {r.location.name} <span className="text-slate-500 text-xs">{r.location.code}</span>
              </td>
            )}
            <td className={CELL}>
              <span className="font-medium">{r.productName}</span>
              <div className="text-slate-500 text-xs">{r.variationName}</div>
            </td>
            <td className={`${CELL} whitespace-nowrap`}>
              {r.report ? (
                <Link to={r.report} className={LINK} title="Trace this lot: every use and every unused vial">
                  {r.lot}
                </Link>
              ) : (
                "—"
              )}
            </td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>{r.units}</td>
            <td className={CELL}>{r.serviceName ?? "—"}</td>
            <td className={CELL}>{r.provider ?? "—"}</td>
            <td className={`${CELL} font-mono text-xs`}>{r.patientRef ?? "—"}</td>
            <td className={CELL}>{r.recordedBy ?? "—"}</td>
          </DataRow>
        ))}
      </DataTable>

      <Pagination total={total} totalExact={totalExact} previous={previous} next={next} noun="usage entries" />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
