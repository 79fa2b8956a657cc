// /stock-levels: on hand per variation at the location in scope (every location, with a location
// column, in organization mode), 25 a page by cursor with a count capped at 1,000 (ADR 0018), against its par level, with the nearest expiry of its
// sealed items. Search by product or variation, filter by category and status (GET form). The
// same rows as GET /api/stock-levels, read through the same module in one batch. A bulk row's
// "Adjust" opens the adjustment form for it (?adjust=…, server-rendered) for whoever may write
// inventory at its location; the action posts it through adjustStock.

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { timeZoneHere } from "~/access/actor";
import { actorAtPickedLocation, actorHere } from "~/access/door.server";
import { locationsFor, reachesAt } from "~/access/scope.server";
import type { UnitScale } from "~/catalog/format";
import { listedUnlessProblems, typedFilters } from "~/http/filters.server";
import { newIdempotencyKey } from "~/http/idempotency.server";
import { orOutage } from "~/http/outage.server";
import { done, intentOf, invalid, refused } from "~/http/outcome.server";
import { typedValues } from "~/products/forms";
import { area } from "~/shell/areas";
import { adjustStock } from "~/stock/adjust.server";
import { AdjustForm } from "~/stock/adjust-form";
import { adjustedText, adjustUnitText } from "~/stock/adjust-labels";
import { AdjustPanel, adjustLink, listWithout } from "~/stock/adjust-panel";
import { daysLeftText, EXPIRING_SOON_DAYS, expirationUrgency } from "~/stock/expiry";
import {
  formatOnHand,
  packagesOf,
  STOCK_LEVELS_PAGE_SIZE,
  STOCK_STATUS_LABELS,
  STOCK_STATUSES,
  type StockStatus,
} from "~/stock/level-status";
import { readStockLevelQuery, stockLevelsScreen } from "~/stock/levels.server";
import { formatDate } from "~/ui/dates";
import { CategoryFilter, FilterSelect, SearchBox, SearchForm } from "~/ui/search-form";
import { CELL, cursorLinks, DataRow, DataTable, LocationCell, NameCell, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Stock Levels · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/stock-levels").permission);
  const searchParams = new URL(args.request.url).searchParams;
  const read = readStockLevelQuery(searchParams);
  const { problems } = read;
  const query = { ...read.query, pageSize: STOCK_LEVELS_PAGE_SIZE };
  const { ids: locationIds } = locationsFor(actor, "READ_INVENTORY");
  // Judged once, so the expired split and the badges agree and the page hydrates as rendered.
  const now = new Date();
  // ?adjust=<variation>&at=<location> opens the adjustment form (the location in scope by default).
  const variationId = searchParams.get("adjust");
  const adjusting = variationId
    ? { variationId, locationId: searchParams.get("at") || (actor.locationId ?? "") }
    : null;
  const levels = await orOutage(stockLevelsScreen(args.context.db, actor, locationIds, query, now, adjusting));
  const screen = listedUnlessProblems(levels, problems);
  const target = screen.adjusting;
  return {
    problems,
    adjust: target
      ? {
          target: {
            ...target,
            onHand: formatOnHand(target.onHand, target.unitScale, target.baseUnit),
            packages: packagesText(target),
            unitText: adjustUnitText(target.baseUnit, target.unitsPerPackage, target.unitScale),
          },
          idempotencyKey: newIdempotencyKey(),
          cancelTo: listWithout(searchParams),
        }
      : null,
    rows: screen.items.map((level) => ({
      key: `${level.locationId}|${level.variationId}`,
      location: level.location,
      productId: level.productId,
      productName: level.productName,
      variationName: level.variationName,
      category: level.category,
      usable: formatOnHand(level.usable, level.unitScale, level.baseUnit),
      expired: level.expired ? formatOnHand(level.expired, level.unitScale, level.baseUnit) : null,
      packages: level.packages.whole,
      remainder: level.packages.remainder
        ? formatOnHand(level.packages.remainder, level.unitScale, level.baseUnit)
        : null,
      parLevel: level.parLevel,
      status: level.status,
      // Formatted here: date-fns stays on the server, out of this page's JavaScript.
      nearestExpiry: level.nearestExpiry ? formatDate(level.nearestExpiry) : null,
      // The days left in words, as the inventory's badges say them (ADR 0019), in the location's zone.
      left: daysLeftText(level.nearestExpiry, now, timeZoneHere(actor)),
      expiry: expirationUrgency(level.nearestExpiry, now),
      // Bulk stock is corrected here by whoever may write inventory at the row's location.
      adjustTo:
        level.tracking === "bulk" && reachesAt(actor, "WRITE_INVENTORY", level.locationId)
          ? adjustLink(searchParams, level)
          : null,
    })),
    total: screen.total,
    totalExact: screen.totalExact,
    cursors: { next: screen.next, previous: screen.previous },
    categories: screen.categories,
    query: {
      q: query.q,
      category: query.category,
      status: query.status,
      ...typedFilters(problems, searchParams),
    },
    where: actor.scope.kind === "location" ? actor.scope.name : null,
    organizationMode: actor.scope.kind === "organization",
  };
}

/** On hand in the packages the par levels count: "6 packages + 5 each"; null when a package is one unit. */
function packagesText(level: { onHand: number; unitsPerPackage: number; unitScale: UnitScale; baseUnit: string }) {
  if (level.unitsPerPackage === level.unitScale || level.unitsPerPackage <= 0) return null;
  const { whole, remainder } = packagesOf(level.onHand, level.unitsPerPackage);
  const packages = `${whole} ${whole === 1 ? "package" : "packages"}`;
  return remainder ? `${packages} + ${formatOnHand(remainder, level.unitScale, level.baseUnit)}` : packages;
}

export async function action(args: ActionFunctionArgs) {
  const form = Object.fromEntries(await args.request.formData());
  intentOf(form, ["adjust"] as const);
  // The location in scope, or in organization mode the row's: WRITE_INVENTORY there (else 403).
  const { actor } = await actorAtPickedLocation(args, "WRITE_INVENTORY", String(form.locationId ?? ""));
  const typed = typedValues(form);
  const parsed = AdjustForm.safeParse(form);
  if (!parsed.success) return invalid(parsed.error, { typed });
  const outcome = await orOutage(adjustStock(args.context.db, actor, parsed.data));
  if (!outcome.ok) {
    return refused(outcome, { typed }, { fields: { invalid: "quantity", not_enough_stock: "quantity" } });
  }
  return done(listWithout(new URL(args.request.url).searchParams), {
    title: "Stock adjusted",
    description: adjustedText(outcome),
  });
}

const _LABEL = "font-medium text-sm";
const BADGE = "inline-flex items-center rounded px-1.5 py-0.5 font-medium text-xs ring-1 ring-inset";
const STATUS_TONES: Record<StockStatus, string> = {
  below_reorder: "bg-red-50 text-red-800 ring-red-600/20",
  below_par: "bg-amber-50 text-amber-800 ring-amber-600/20",
  ok: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  no_par: "bg-slate-100 text-slate-600 ring-slate-500/20",
};

export default function StockLevelsScreen() {
  const { rows, total, totalExact, cursors, categories, query, problems, where, organizationMode, adjust } =
    useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const canAdjustAny = rows.some((r) => r.adjustTo);
  const hasProblem = Object.keys(problems).length > 0;
  const filtered = Boolean(query.q || query.category || query.status || hasProblem);
  const links = cursorLinks("/stock-levels", query, cursors);
  const columns = [
    ...(organizationMode ? ["Location"] : []),
    { label: "Product", title: true },
    { label: "Usable on hand", key: true },
    "Packages",
    "Par / reorder",
    { label: "Status", key: true },
    { label: "Nearest expiry", key: true },
    ...(canAdjustAny ? [{ label: "" }] : []),
  ];
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="font-semibold text-2xl">Stock Levels</h1>
        <p className="text-slate-600 text-sm">
          {where ? `On hand at ${where}` : "On hand at every location"}, against par levels; par and reorder point count
          packages. Expired vials are shown apart and never count as usable stock.
        </p>
      </div>

      {adjust && (
        <AdjustPanel
          // A fresh form (and key) once an adjustment is saved and the page reloads.
          key={adjust.idempotencyKey}
          target={adjust.target}
          idempotencyKey={adjust.idempotencyKey}
          errors={failure?.fieldErrors ?? {}}
          formError={failure?.formError}
          typed={failure?.typed}
          cancelTo={adjust.cancelTo}
          busy={busy}
        />
      )}

      <SearchForm action="/stock-levels" filtered={filtered}>
        <SearchBox value={query.q} placeholder="Product or variation name, or SKU" error={problems.q} />
        <CategoryFilter value={query.category} categories={categories} error={problems.category} />
        <FilterSelect
          name="status"
          label="Status"
          value={query.status}
          error={problems.status}
          options={[
            { value: "", label: "Any status" },
            ...STOCK_STATUSES.map((s) => ({ value: s, label: STOCK_STATUS_LABELS[s] })),
          ]}
        />
      </SearchForm>

      <DataTable
        caption="Stock levels"
        columns={columns}
        rowCount={rows.length}
        empty={
          hasProblem ? (
            "No stock listed: a filter above cannot be used. Correct it, or clear the filters."
          ) : filtered ? (
            "No stock matches this search and these filters. Clear them to see every level."
          ) : (
            <>
              No stock here yet. Stock appears once a delivery is received: check one in on{" "}
              <Link to="/receiving" className="font-medium text-sky-800 hover:underline">
                Receiving
              </Link>
              .
            </>
          )
        }
      >
        {rows.map((r) => (
          <DataRow key={r.key}>
            {organizationMode && <LocationCell location={r.location} />}
            <NameCell to={`/products/${r.productId}`} name={r.productName}>
              <div className="text-slate-500 text-xs">
                {r.variationName} · {r.category}
              </div>
            </NameCell>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              {r.usable}
              {r.expired && (
                <div>
                  <span
                    className={`${BADGE} bg-red-50 text-red-800 ring-red-600/20`}
                    title="Past its deadline: not counted as usable. Discard it or return it to the vendor."
                  >
                    {`+ ${r.expired} expired`}
                  </span>
                </div>
              )}
            </td>
            <td className={`${CELL} whitespace-nowrap text-slate-700 tabular-nums`}>
              {r.packages}
              {r.remainder && <span className="text-slate-500"> + {r.remainder}</span>}
            </td>
            <td className={`${CELL} whitespace-nowrap text-slate-700 tabular-nums`}>
              {r.parLevel ? `${r.parLevel.par} / ${r.parLevel.reorderPoint}` : "—"}
            </td>
            <td className={CELL}>
              <span className={`${BADGE} ${STATUS_TONES[r.status]}`}>{STOCK_STATUS_LABELS[r.status]}</span>
            </td>
            <td className={`${CELL} whitespace-nowrap`}>
              {r.nearestExpiry ? (
                <span className="flex flex-wrap items-center gap-1.5">
                  <span className="text-slate-700">{r.nearestExpiry}</span>
                  {r.left && <span className="text-slate-500 text-xs">· {r.left}</span>}
                  {r.expiry === "expired" && (
                    <span className={`${BADGE} bg-red-50 text-red-800 ring-red-600/20`}>expired</span>
                  )}
                  {r.expiry === "soon" && (
                    <span
                      className={`${BADGE} bg-amber-50 text-amber-800 ring-amber-600/20`}
                      title={`Expires within ${EXPIRING_SOON_DAYS} days`}
                    >
                      expiring soon
                    </span>
                  )}
                </span>
              ) : (
                <span className="text-slate-500">—</span>
              )}
            </td>
            {canAdjustAny && (
              <td className={`${CELL} whitespace-nowrap`}>
                {r.adjustTo && (
                  <Link
                    to={r.adjustTo}
                    aria-label={`Adjust ${r.productName} · ${r.variationName}${organizationMode ? ` at ${r.location.name}` : ""}`}
                    className="inline-flex min-h-10 items-center rounded-md border border-slate-300 bg-white px-3 font-medium text-sm hover:bg-slate-100"
                  >
                    Adjust
                  </Link>
                )}
              </td>
            )}
          </DataRow>
        ))}
      </DataTable>

      <Pagination total={total} totalExact={totalExact} noun="stock levels" {...links} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
