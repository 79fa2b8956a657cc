// /reconciliation/<variationId>?from=&to=&threshold=&locationId=: one variation's reconciliation,
// with what is behind each figure: the split (recipe drift by provider, waste and losses by reason),
// the sales lines that make the expected usage and the ledger's movements that make the actual
// usage (all, or those behind one figure: ?kind=drawn|waste|loss|sale), 25 a page each; the draws
// themselves in the usage log. Read as the table is: READ_REPORTS where the reader stands.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { formatMoney } from "~/catalog/format";
import { WASTE_REASON_NAMES, wasteReasonOf } from "~/dashboard/waste";
import { orOutage } from "~/http/outage.server";
import { reconciliationDetail } from "~/reconciliation/detail.server";
import { MOVEMENT_KINDS, type MovementKind, periodParams } from "~/reconciliation/query";
import { readReconciliationAsk } from "~/reconciliation/screen.server";
import { percentText, qty, signedMoney, signedQty } from "~/reconciliation/show";
import { area } from "~/shell/areas";
import { formatDate, showInstant, Time } from "~/ui/dates";
import { BackLink } from "~/ui/record-screen";
import { Section } from "~/ui/section";
import { CELL, DataRow, DataTable, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Reconciliation Detail · Clinic Inventory" }];

const KIND_NAMES: Record<MovementKind, string> = {
  all: "All movements",
  drawn: "Drawn",
  waste: "Waste",
  loss: "Unexplained",
  sale: "Sold",
};

const TYPE_NAMES: Record<string, string> = {
  RECEIVE: "Received",
  START: "Started",
  USE: "Drawn",
  EMPTY: "Emptied",
  DISCARD: "Discarded",
  WASTE: "Wasted",
  ADJUST: "Adjusted",
  COUNT: "Counted",
  TRANSFER_OUT: "Sent",
  TRANSFER_IN: "Arrived",
  SALE: "Sold",
};

const ADJUST_NAMES: Record<string, string> = {
  count_correction: "Count correction",
  damaged: "Damaged",
  expired: "Expired",
  donated: "Donated",
  other: "Other",
};

function reasonText(type: string, reason: string | null): string {
  if (type === "WASTE" || type === "DISCARD") return WASTE_REASON_NAMES[wasteReasonOf(type, reason)];
  if (type === "ADJUST") return ADJUST_NAMES[reason ?? ""] ?? reason ?? "—";
  if (type === "COUNT") return "Found short in a count";
  return reason ?? "—";
}

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/reconciliation/{variationId}").permission);
  const variationId = args.params.variationId ?? "";
  const url = new URL(args.request.url);
  const ask = readReconciliationAsk(actor, url.searchParams);
  const { period, threshold, query, problems } = ask;
  if (Object.keys(problems).length > 0) {
    throw data(`${Object.values(problems).join(" ")} Go back to the reconciliation and pick the dates again.`, {
      status: 400,
    });
  }
  const detail = await orOutage(
    reconciliationDetail(args.context.db, actor, ask.scope, {
      variationId,
      threshold,
      page: query.page,
      mpage: query.mpage,
      kind: query.kind,
    }),
  );
  if (!detail) throw data("That product variation does not exist in your organization.", { status: 404 });
  const params = periodParams(period, threshold, query.locationId || null);
  const here = (extra: Record<string, string>, hash: string) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries({
      page: String(query.page),
      mpage: String(query.mpage),
      kind: query.kind,
      ...extra,
    })) {
      if (v && v !== "1" && v !== "all") p.set(k, v);
    }
    return `/reconciliation/${encodeURIComponent(variationId)}?${p}#${hash}`;
  };
  const { row, variation: v } = detail;
  const now = new Date();
  const usageLog = new URLSearchParams({ variationId, from: period.from, to: period.to });
  return {
    title: `${v.product} · ${v.variation}`,
    periodText: `${formatDate(period.from)} – ${formatDate(period.to)}`,
    back: `/reconciliation?${params}`,
    usageLog: `/usage-log?${usageLog}`,
    organizationMode: actor.locationId === "all" && !ask.scope.locationId,
    threshold,
    figures: {
      expected: qty(v, row.expected),
      actual: qty(v, row.actual),
      change: signedQty(v, row.change),
      variance: signedQty(v, row.variance.units),
      percent: percentText(row.variance.percent),
      cents: signedMoney(row.variance.cents),
      drift: signedQty(v, row.split.recipeDrift),
      waste: qty(v, row.split.waste),
      unexplained: signedQty(v, row.split.unexplained),
      flagged: row.flagged,
      cost:
        v.costCents === null
          ? "no cost recorded"
          : `${formatMoney(v.costCents)} a package of ${qty(v, v.unitsPerPackage)}`,
      expectedServices: qty(v, row.sums.expectedServices),
      expectedRetail: qty(v, row.sums.expectedRetail),
      drawn: qty(v, row.sums.drawn),
      soldUnits: qty(v, row.sums.sold),
    },
    parts: detail.parts.map((p) => ({
      key: `${p.type}:${p.reason ?? ""}`,
      what: `${TYPE_NAMES[p.type] ?? p.type}: ${reasonText(p.type, p.reason)}`,
      units: qty(v, p.units),
      movements: p.movements,
      part: p.part === "waste" ? "Waste" : "Unexplained",
    })),
    retailShort:
      row.sums.expectedRetail !== 0 || row.sums.sold !== 0
        ? signedQty(v, row.sums.sold - row.sums.expectedRetail)
        : null,
    providers: detail.providers.map((p) => ({
      provider: p.provider ?? "No provider recorded",
      entries: p.entries,
      drawn: qty(v, p.drawn),
      recipe: qty(v, p.recipe),
      drift: signedQty(v, p.drift),
    })),
    driftElsewhere: signedQty(v, detail.driftElsewhere),
    sales: {
      rows: detail.sales.rows.map((s) => ({
        id: s.id,
        soldAt: showInstant(new Date(s.soldAt), s.timeZone, now),
        location: s.location,
        item: s.item,
        kind: s.kind === "service" ? "Service" : "Retail",
        quantity: s.quantity,
        units: signedQty(v, s.units),
        net: s.netCents < 0 ? `−${formatMoney(-s.netCents)}` : formatMoney(s.netCents),
        transactionRef: s.transactionRef ?? "—",
        provider: s.provider ?? "—",
      })),
      total: detail.sales.total,
      page: detail.sales.page,
      pages: detail.sales.pages,
    },
    movements: {
      rows: detail.movements.rows.map((m) => ({
        id: m.id,
        at: showInstant(new Date(m.occurredAt), m.timeZone, now),
        location: m.location,
        type: TYPE_NAMES[m.type] ?? m.type,
        reason:
          m.type === "USE" || m.type === "RECEIVE" || m.type.startsWith("TRANSFER")
            ? "—"
            : reasonText(m.type, m.reason),
        quantity: signedQty(v, m.quantity),
        lot: m.lot ?? "—",
        vial: m.itemId ? `/inventory/${encodeURIComponent(m.itemId)}` : null,
      })),
      total: detail.movements.total,
      page: detail.movements.page,
      pages: detail.movements.pages,
    },
    kind: query.kind,
    kinds: MOVEMENT_KINDS.map((k) => ({
      kind: k,
      name: KIND_NAMES[k],
      href: here({ kind: k, mpage: "1" }, "movements"),
    })),
    links: {
      salesPage: here({ page: "__P__" }, "sales"),
      movementsPage: here({ mpage: "__P__" }, "movements"),
    },
  };
}

const LINK = "font-medium text-sky-800 hover:underline";

function Figure({ label, value, href }: { label: string; value: string; href?: string }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white p-3">
      <dt className="text-slate-500 text-xs">{label}</dt>
      <dd className="font-semibold text-lg tabular-nums">
        {href ? (
          <Link to={href} className={LINK}>
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}

export default function ReconciliationDetailScreen() {
  const d = useLoaderData<typeof loader>();
  const f = d.figures;
  const pageOf = (template: string) => (page: number) => template.replace("__P__", String(page));
  return (
    <div className="flex flex-col gap-6">
      <BackLink to={d.back} label="Reconciliation" />
      <div>
        <h1 className="font-semibold text-2xl">
          {d.title}
          {f.flagged && (
            <span className="ml-2 inline-flex items-center rounded bg-red-50 px-1.5 py-0.5 align-middle font-medium text-red-800 text-xs ring-1 ring-red-600/20 ring-inset">
              Flagged
            </span>
          )}
        </h1>
        <p className="text-slate-600 text-sm">
          {d.periodText}
          {d.organizationMode ? ", every location" : ""}. Valued at {f.cost}.
        </p>
      </div>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Expected usage" value={f.expected} href="#sales" />
        <Figure label="Actual usage" value={f.actual} href="#movements" />
        <Figure label="Variance" value={`${f.variance} (${f.percent})`} />
        <Figure label="Variance at cost" value={f.cents} />
        <Figure label="Recipe drift" value={f.drift} href="#drift" />
        <Figure label="Waste" value={f.waste} href="#waste" />
        <Figure label="Unexplained loss" value={f.unexplained} href="#waste" />
        <Figure label="Stock change" value={f.change} href="#movements" />
      </dl>
      <p className="text-slate-600 text-sm">
        Expected: {f.expectedServices} for services sold, {f.expectedRetail} sold as retail. Drawn for treatments:{" "}
        {f.drawn} (
        <Link to={d.usageLog} className={LINK}>
          the draws in the usage log
        </Link>
        ).
      </p>

      <Section id="drift" title="Recipe drift by provider">
        <p className="mb-2 text-slate-600 text-sm">
          Each draw recorded for a service, against what that service's recipe calls for.
        </p>
        <DataTable
          caption="Recipe drift by provider"
          columns={[{ label: "Provider", title: true }, { label: "Drift", key: true }, "Draws", "Drawn", "Recipe"]}
          rowCount={d.providers.length}
          empty="No draw of this variation was recorded for a service in this period."
        >
          {d.providers.map((p) => (
            <DataRow key={p.provider}>
              <td className={CELL}>{p.provider}</td>
              <td className={`${CELL} whitespace-nowrap font-medium tabular-nums`}>{p.drift}</td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{p.entries}</td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{p.drawn}</td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{p.recipe}</td>
            </DataRow>
          ))}
        </DataTable>
        <p className="mt-2 text-slate-600 text-sm">
          Not tied to a draw for a service (draws with no service, services sold with no draw recorded):{" "}
          {d.driftElsewhere}.
        </p>
      </Section>

      <Section id="waste" title="Waste and unexplained loss">
        <DataTable
          caption="Waste and losses by reason"
          columns={[{ label: "What", title: true }, { label: "Units", key: true }, "Movements", "Counted as"]}
          rowCount={d.parts.length}
          empty="Nothing was wasted, discarded, adjusted or counted out in this period."
        >
          {d.parts.map((p) => (
            <DataRow key={p.key}>
              <td className={CELL}>{p.what}</td>
              <td className={`${CELL} whitespace-nowrap font-medium tabular-nums`}>{p.units}</td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{p.movements}</td>
              <td className={CELL}>{p.part}</td>
            </DataRow>
          ))}
        </DataTable>
        {d.retailShort && (
          <p className="mt-2 text-slate-600 text-sm">
            Sold as retail: {f.soldUnits} left the shelf against {f.expectedRetail} sold; the difference,{" "}
            {d.retailShort}, is counted as unexplained.
          </p>
        )}
      </Section>

      <Section id="sales" title="Sales behind the expected usage">
        <DataTable
          caption="Sales lines"
          columns={[
            { label: "Sold", key: true },
            ...(d.organizationMode ? ["Location"] : []),
            { label: "Item", title: true },
            "Quantity",
            "Units expected",
            "Net",
            "Transaction",
            "Provider",
          ]}
          rowCount={d.sales.rows.length}
          empty="No sale of a service using it, nor of it as retail, in this period."
        >
          {d.sales.rows.map((s) => (
            <DataRow key={s.id}>
              <td className={CELL}>
                <Time at={s.soldAt} />
              </td>
              {d.organizationMode && <td className={CELL}>{s.location}</td>}
              <td className={CELL}>
                {s.item} <span className="text-slate-500 text-xs">{s.kind}</span>
              </td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{s.quantity}</td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{s.units}</td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{s.net}</td>
              <td className={CELL}>{s.transactionRef}</td>
              <td className={CELL}>{s.provider}</td>
            </DataRow>
          ))}
        </DataTable>
        <Pagination
          total={d.sales.total}
          noun="sales lines"
          page={d.sales.page}
          pageCount={d.sales.pages}
          pageLink={pageOf(d.links.salesPage)}
        />
      </Section>

      <Section id="movements" title="Movements behind the actual usage">
        <nav aria-label="Which movements" className="mb-2 flex flex-wrap gap-2 text-sm">
          {d.kinds.map((k) =>
            k.kind === d.kind ? (
              <span key={k.kind} aria-current="true" className="rounded-md bg-slate-800 px-2.5 py-1 text-white">
                {k.name}
              </span>
            ) : (
              <Link key={k.kind} to={k.href} className="rounded-md border border-slate-300 bg-white px-2.5 py-1">
                {k.name}
              </Link>
            ),
          )}
        </nav>
        <DataTable
          caption="Movements"
          columns={[
            { label: "When", key: true },
            ...(d.organizationMode ? ["Location"] : []),
            { label: "Movement", title: true },
            "Reason",
            "Units",
            "Lot",
          ]}
          rowCount={d.movements.rows.length}
          empty="No movement of this kind in this period."
        >
          {d.movements.rows.map((m) => (
            <DataRow key={m.id}>
              <td className={CELL}>
                <Time at={m.at} />
              </td>
              {d.organizationMode && <td className={CELL}>{m.location}</td>}
              <td className={CELL}>
                {m.vial ? (
                  <Link to={m.vial} className={LINK}>
                    {m.type}
                  </Link>
                ) : (
                  m.type
                )}
              </td>
              <td className={CELL}>{m.reason}</td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>{m.quantity}</td>
              <td className={CELL}>{m.lot}</td>
            </DataRow>
          ))}
        </DataTable>
        <Pagination
          total={d.movements.total}
          noun="movements"
          page={d.movements.page}
          pageCount={d.movements.pages}
          pageLink={pageOf(d.links.movementsPage)}
        />
      </Section>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
