// /reconciliation: where the product went. Per variation at the location in scope (every location
// in organization mode) over a period of whole days (default the last 30, in the location's zone):
// expected usage (services sold × recipes, retail packages sold), actual usage (drawn, wasted,
// discarded, adjusted and counted out, sold), the stock change, the variance in units, percent and
// dollars, and its split into recipe drift, waste and unexplained loss. Rows past the threshold are
// flagged and listed first; 25 a page; each row opens its drill-down; the whole table as a CSV.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { formatMoney } from "~/catalog/format";
import { typedFilters } from "~/http/filters.server";
import { orOutage } from "~/http/outage.server";
import { DEFAULT_THRESHOLD, periodParams, RECONCILIATION_PAGE_SIZE } from "~/reconciliation/query";
import { readReconciliationAsk } from "~/reconciliation/screen.server";
import { percentText, qty, signedMoney, signedQty } from "~/reconciliation/show";
import { reconciliationView } from "~/reconciliation/worked-out.server";
import { area } from "~/shell/areas";
import { formatDate, showInstant, Time } from "~/ui/dates";
import { Field } from "~/ui/form";
import { DateRangeFields, SearchForm } from "~/ui/search-form";
import { CELL, DataRow, DataTable, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Reconciliation · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/reconciliation").permission);
  const url = new URL(args.request.url);
  const ask = readReconciliationAsk(actor, url.searchParams);
  const { period, threshold, problems, query } = ask;
  const params = periodParams(period, threshold, query.locationId || null);
  if (query.format === "csv") throw redirect(`/reconciliation.csv?${params}`);
  const unusable = Object.keys(problems).length > 0;
  const table = unusable
    ? { rows: [], total: 0, flagged: 0, varianceCents: 0, page: 1, pages: 1, computedAt: null }
    : await orOutage(reconciliationView(args.context.db, ask.scope, threshold, query.page));
  const pageLink = (page: number) => {
    const p = new URLSearchParams(params);
    if (page > 1) p.set("page", String(page));
    return `/reconciliation?${p}`;
  };
  const location = actor.locationRoles.find((r) => r.locationId === (ask.scope.locationId ?? ""));
  return {
    problems,
    query: {
      from: period.from,
      to: period.to,
      threshold: query.threshold === "" ? "" : String(query.threshold),
      ...typedFilters(problems, url.searchParams),
    } as Record<string, string>,
    periodText: `${formatDate(period.from)} – ${formatDate(period.to)}`,
    zoneText: ask.scope.locationId ? ask.scope.timeZone : "UTC (organization mode)",
    organizationMode: actor.locationId === "all",
    locationId: location ? query.locationId : "",
    threshold,
    rows: table.rows.map((r) => ({
      variationId: r.variationId,
      product: r.product,
      variation: r.variation,
      expected: qty(r, r.expected),
      actual: qty(r, r.actual),
      change: signedQty(r, r.change),
      variance: signedQty(r, r.variance.units),
      percent: percentText(r.variance.percent),
      cents: signedMoney(r.variance.cents),
      drift: signedQty(r, r.split.recipeDrift),
      waste: qty(r, r.split.waste),
      unexplained: signedQty(r, r.split.unexplained),
      flagged: r.flagged,
      detail: `/reconciliation/${encodeURIComponent(r.variationId)}?${params}`,
    })),
    total: table.total,
    flagged: table.flagged,
    varianceCents: table.varianceCents,
    // Worked out by the jobs worker at this instant (the standard periods), else summed now.
    asOf: table.computedAt === null ? null : showInstant(new Date(table.computedAt), ask.scope.timeZone, new Date()),
    page: table.page,
    pages: table.pages,
    csv: `/reconciliation.csv?${params}`,
    pageLinkBase: pageLink(1),
  };
}

const LINK = "font-medium text-sky-800 hover:underline";

export default function ReconciliationScreen() {
  const d = useLoaderData<typeof loader>();
  const unusable = Object.keys(d.problems).length > 0;
  const columns = [
    { label: "Product", title: true },
    { label: "Variance", key: true },
    "Variance %",
    "Variance $",
    "Expected",
    "Actual",
    "Recipe drift",
    "Waste",
    "Unexplained",
    "Stock change",
  ];
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Reconciliation</h1>
          <p className="text-slate-600 text-sm">
            What the sales say should have been used, against what the ledger says went: drawn, wasted, discarded,
            adjusted, counted and sold. Days are read in {d.zoneText}.
          </p>
        </div>
        <a
          href={d.csv}
          download
          className="inline-flex min-h-10 items-center rounded-md bg-sky-700 px-3 py-2 font-medium text-sm text-white hover:bg-sky-800"
        >
          Download CSV
        </a>
      </div>

      <SearchForm action="/reconciliation" filtered={d.query.threshold !== "" || d.page > 1}>
        {d.locationId && <input type="hidden" name="locationId" value={d.locationId} />}
        <DateRangeFields from={d.query.from} to={d.query.to} errors={d.problems} />
        <div className="min-w-28 flex-1">
          <Field
            label="Flag over (%)"
            name="threshold"
            type="number"
            required={false}
            defaultValue={d.query.threshold || String(DEFAULT_THRESHOLD)}
            error={d.problems.threshold}
          />
        </div>
      </SearchForm>

      {!unusable && (
        <p className="text-slate-700 text-sm" aria-live="polite">
          {d.periodText}: {d.total.toLocaleString("en-US")} variations, <strong>{d.flagged} flagged</strong> (variance
          over {d.threshold}% of expected); variance at cost {d.varianceCents < 0 ? "−" : ""}
          {formatMoney(Math.abs(d.varianceCents))}.
          {d.asOf && (
            <>
              {" "}
              As of <Time at={d.asOf} />: worked out every 10 minutes; sales imported since show within 10 minutes, and
              any other dates are summed as you ask.
            </>
          )}
        </p>
      )}

      <DataTable
        caption="Expected and actual usage per variation"
        columns={columns}
        rowCount={d.rows.length}
        empty={
          unusable
            ? "Correct the dates or the threshold above to see the figures."
            : d.page > 1
              ? "This page is past the last one: go back to the first page."
              : "Nothing was sold or moved in this period: pick other dates, or import the period's sales first."
        }
      >
        {d.rows.map((r) => (
          <DataRow key={r.variationId}>
            <td className={CELL}>
              <Link to={r.detail} className={LINK}>
                {r.product} · {r.variation}
              </Link>
              {r.flagged && (
                <span className="ml-2 inline-flex items-center rounded bg-red-50 px-1.5 py-0.5 font-medium text-red-800 text-xs ring-1 ring-red-600/20 ring-inset">
                  Flagged
                </span>
              )}
            </td>
            <td className={`${CELL} whitespace-nowrap font-medium tabular-nums`}>{r.variance}</td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>{r.percent}</td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>{r.cents}</td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              <Link to={`${r.detail}#sales`} className={LINK}>
                {r.expected}
              </Link>
            </td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              <Link to={`${r.detail}#movements`} className={LINK}>
                {r.actual}
              </Link>
            </td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              <Link to={`${r.detail}&kind=drawn#drift`} className={LINK}>
                {r.drift}
              </Link>
            </td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              <Link to={`${r.detail}&kind=waste#movements`} className={LINK}>
                {r.waste}
              </Link>
            </td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              <Link to={`${r.detail}&kind=loss#movements`} className={LINK}>
                {r.unexplained}
              </Link>
            </td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>{r.change}</td>
          </DataRow>
        ))}
      </DataTable>
      <Pagination
        total={d.total}
        noun="variations"
        page={d.page}
        pageCount={d.pages}
        pageLink={(page) => {
          const url = new URL(d.pageLinkBase, "http://x");
          if (page > 1) url.searchParams.set("page", String(page));
          else url.searchParams.delete("page");
          return `${url.pathname}?${url.searchParams}`;
        }}
      />
      <p className="text-slate-500 text-xs">
        {RECONCILIATION_PAGE_SIZE} variations a page, flagged first, then by the variance's value. Recipe drift: units
        drawn for treatments beyond (or short of) what the services sold call for. Waste: left at the Use-By Deadline,
        expired, damaged, contaminated, recalled. Unexplained: count losses, vials missing or lost in transit, other
        adjustments, and retail sold beyond what the shelf had.
      </p>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
