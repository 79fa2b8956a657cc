// /inventory: the serialized items (vials, syringes, kits) at the location in scope (every location,
// with a location column, in organization mode) with their state, units left and expiry badge (live
// for open vials), and the bulk products' quantities there. Filters by state, product, lot, expiry
// within N days and recall (a GET form, so it works before JavaScript and the URL keeps it), 25 a
// page. One batch beyond the session; the rows are read as GET /api/vials and the stock levels read them.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { locationsFor } from "~/access/scope.server";
import { formatQuantity } from "~/catalog/format";
import { hasProblems, listedUnlessProblems } from "~/http/filters.server";
import { orOutage } from "~/http/outage.server";
import { inventoryScreen, readInventoryQuery } from "~/inventory/screen.server";
import { area } from "~/shell/areas";
import { ScreenErrorBoundary } from "~/shell/screen-error-boundary";
import { ExpiryBadge } from "~/stock/expiry-badge";
import { formatOnHand } from "~/stock/level-status";
import { STATE_OPTIONS, StateBadge } from "~/stock/state-badge";
import { Field } from "~/ui/form";
import { FilterSelect, ProductFilter, SearchForm } from "~/ui/search-form";
import { CELL, countText, cursorLinks, DataRow, DataTable, LocationCell, Pagination } from "~/ui/table";
import { ITEM_STATES } from "../../db/schema/stock/constants";

export const meta: MetaFunction = () => [{ title: "Inventory · Clinic Inventory" }];

const ON_THE_SHELF = "sealed,in_use";
const ANY_STATE = ITEM_STATES.join(",");

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/inventory").permission);
  const params = new URL(args.request.url).searchParams;
  const { query, problems } = readInventoryQuery(params);
  const { ids } = locationsFor(actor, "READ_INVENTORY");
  // Judged once: the badges render for this instant on the server and again on hydration.
  const now = new Date();
  const read = await orOutage(inventoryScreen(args.context.db, actor, ids, query, now));
  // A filter it cannot use is said under the filter, and nothing is listed: the rows of the other
  // filters alone would look like the answer to what was asked (issue 18.10).
  const unusable = hasProblems(problems);
  const screen = unusable
    ? {
        ...read,
        vials: listedUnlessProblems(read.vials, problems),
        bulk: null,
      }
    : read;
  return {
    problems,
    now: now.toISOString(),
    vials: screen.vials.items.map((v) => ({
      id: v.id,
      location: v.location,
      productName: v.productName,
      variationName: v.variationName,
      lot: v.lot,
      serial: v.serial,
      labelCode: v.labelCode,
      state: v.state,
      expired: v.isExpired,
      unitsLeft: formatQuantity(v.unitsRemaining, v.unitScale, v.baseUnit),
      unitsFull: formatQuantity(v.unitsPerPackage, v.unitScale, v.baseUnit),
      expiry: {
        state: v.state,
        expirationDate: v.expirationDate,
        expiresAt: v.expiresAt,
        startedAt: v.startedAt,
        receivedAt: v.receivedAt,
        recalled: v.recalled,
        location: { timeZone: v.location.timeZone },
      },
      finished: v.state === "empty" || v.state === "discarded",
    })),
    vialTotal: screen.vials.total,
    vialTotalExact: screen.vials.totalExact,
    vialCursors: { next: screen.vials.next, previous: screen.vials.previous },
    bulk: screen.bulk && {
      rows: screen.bulk.items.map((level) => ({
        key: `${level.locationId}|${level.variationId}`,
        location: level.location,
        productId: level.productId,
        productName: level.productName,
        variationName: level.variationName,
        onHand: formatOnHand(level.onHand, level.unitScale, level.baseUnit),
        packages: level.packages.whole,
      })),
      total: screen.bulk.total,
      totalExact: screen.bulk.totalExact,
      cursors: { next: screen.bulk.next, previous: screen.bulk.previous },
    },
    chosen: screen.chosen,
    filters: {
      state: query.state.join(","),
      productId: query.productId,
      product: query.product,
      lot: query.lot,
      expiringWithinDays: query.expiringWithinDays === null ? "" : String(query.expiringWithinDays),
      recalled: query.recalled === null ? "" : String(query.recalled),
      // What was typed into a filter it cannot use, shown again beside what is wrong with it.
      ...Object.fromEntries(Object.keys(problems).map((name) => [name, params.getAll(name).join(",")])),
    },
    where: actor.scope.kind === "location" ? actor.scope.name : null,
    organizationMode: actor.scope.kind === "organization",
  };
}

const LINK = "font-medium text-sky-800 hover:underline";

const UNUSABLE_FILTER = "No vials listed: a filter above cannot be used. Correct it, or clear the filters.";

export default function InventoryScreen() {
  const {
    now,
    vials,
    vialTotal,
    vialTotalExact,
    vialCursors,
    bulk,
    chosen,
    filters,
    problems,
    where,
    organizationMode,
  } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const filtered = Boolean(
    filters.state !== ON_THE_SHELF ||
      filters.productId ||
      filters.product ||
      filters.lot ||
      filters.expiringWithinDays ||
      filters.recalled,
  );
  // Each list pages by its own cursor and keeps the other's: the vials by after/before, the bulk
  // quantities by bulkAfter/bulkBefore.
  const here = Object.fromEntries(new URLSearchParams(search));
  const keep = (names: string[]) => Object.fromEntries(names.filter((n) => here[n]).map((n) => [n, here[n] ?? ""]));
  const vialLinks = cursorLinks("/inventory", { ...filters, ...keep(["bulkAfter", "bulkBefore"]) }, vialCursors);
  const bulkLinks = cursorLinks(
    "/inventory",
    { ...filters, ...keep(["after", "before"]) },
    bulk?.cursors ?? { next: null, previous: null },
    {
      after: "bulkAfter",
      before: "bulkBefore",
    },
  );
  const locationColumn = organizationMode ? ["Location"] : [];
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="font-semibold text-2xl">Inventory</h1>
        <p className="text-slate-600 text-sm">
          {where ? `Vials and stock at ${where}` : "Vials and stock at every location"}: soonest expiry first. Open a
          vial to start it, draw from it, empty or discard it, and see its history.
        </p>
      </div>

      <SearchForm action="/inventory" filtered={filtered}>
        <FilterSelect
          name="state"
          label="State"
          value={filters.state}
          error={problems.state}
          options={[
            { value: ON_THE_SHELF, label: "Sealed or in use" },
            ...STATE_OPTIONS,
            { value: ANY_STATE, label: "Any state" },
          ]}
        />
        <ProductFilter search={filters.product} chosen={chosen} error={problems.product} />
        <div className="min-w-32 flex-1">
          <Field
            label="Lot"
            name="lot"
            required={false}
            defaultValue={filters.lot}
            autoComplete="off"
            error={problems.lot}
          />
        </div>
        <div className="min-w-32 flex-1">
          <Field
            label="Expiring within (days)"
            name="expiringWithinDays"
            type="number"
            inputMode="numeric"
            min={0}
            max={3650}
            required={false}
            defaultValue={filters.expiringWithinDays}
            error={problems.expiringWithinDays}
          />
        </div>
        <FilterSelect
          name="recalled"
          label="Recall"
          narrow
          value={filters.recalled}
          error={problems.recalled}
          options={[
            { value: "", label: "Any" },
            { value: "true", label: "Recalled lots only" },
            { value: "false", label: "Not recalled" },
          ]}
        />
      </SearchForm>

      <section aria-labelledby="vials-title" className="flex flex-col gap-3">
        <h2 id="vials-title" className="font-semibold text-lg">
          Vials and other serialized items{" "}
          <span className="font-normal text-slate-500 text-sm">({countText(vialTotal, vialTotalExact, "vials")})</span>
        </h2>
        <DataTable
          caption="Vials"
          columns={[
            ...locationColumn,
            { label: "Product", title: true },
            { label: "State", key: true },
            { label: "Expiry", key: true },
            "Units left",
            "Lot / serial",
            "Label",
          ]}
          rowCount={vials.length}
          empty={
            Object.keys(problems).length > 0 ? (
              UNUSABLE_FILTER
            ) : filtered ? (
              "No vials match these filters. Clear them to see every sealed and open vial."
            ) : (
              <>
                No vials here yet. Vials appear once a delivery is received: check one in on{" "}
                <Link to="/receiving" className={LINK}>
                  Receiving
                </Link>
                .
              </>
            )
          }
        >
          {vials.map((v) => (
            <DataRow key={v.id}>
              {organizationMode && <LocationCell location={v.location} />}
              <td className={CELL}>
                <Link to={`/inventory/${v.id}`} className={LINK}>
                  {v.productName}
                </Link>
                <div className="text-slate-500 text-xs">{v.variationName}</div>
              </td>
              <td className={CELL}>
                <StateBadge state={v.state} expired={v.expired} />
              </td>
              <td className={CELL}>
                {v.finished ? <span className="text-slate-500">—</span> : <ExpiryBadge item={v.expiry} now={now} />}
              </td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>
                {v.unitsLeft} <span className="text-slate-500 text-xs">of {v.unitsFull}</span>
              </td>
              <td className={`${CELL} text-slate-700`}>
                {v.lot ?? "—"}
                {v.serial && <div className="text-slate-500 text-xs">Serial {v.serial}</div>}
              </td>
              <td className={`${CELL} font-mono text-slate-700 text-xs`}>{v.labelCode}</td>
            </DataRow>
          ))}
        </DataTable>
        <Pagination total={vialTotal} totalExact={vialTotalExact} noun="vials" {...vialLinks} />
      </section>

      {bulk && (
        <section aria-labelledby="bulk-title" className="flex flex-col gap-3">
          <h2 id="bulk-title" className="font-semibold text-lg">
            Bulk stock{" "}
            <span className="font-normal text-slate-500 text-sm">
              ({countText(bulk.total, bulk.totalExact, "bulk products")})
            </span>
          </h2>
          <DataTable
            caption="Bulk stock"
            columns={[
              ...locationColumn,
              { label: "Product", title: true },
              { label: "On hand", key: true },
              "Packages",
            ]}
            rowCount={bulk.rows.length}
            empty="No bulk products here. Gauze, syringes by the box and other products counted by quantity show here once received."
          >
            {bulk.rows.map((r) => (
              <DataRow key={r.key}>
                {organizationMode && <LocationCell location={r.location} />}
                <td className={CELL}>
                  <Link to={`/products/${r.productId}`} className={LINK}>
                    {r.productName}
                  </Link>
                  <div className="text-slate-500 text-xs">{r.variationName}</div>
                </td>
                <td className={`${CELL} whitespace-nowrap tabular-nums`}>{r.onHand}</td>
                <td className={`${CELL} whitespace-nowrap text-slate-700 tabular-nums`}>{r.packages}</td>
              </DataRow>
            ))}
          </DataTable>
          <Pagination total={bulk.total} totalExact={bulk.totalExact} noun="bulk products" {...bulkLinks} />
        </section>
      )}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary };
