// The dashboard's widgets as they render (the data comes from ./dashboard.server.ts through the
// route's loader; each sits in its own section boundary, ./section.tsx). Numbers carry their raw
// value in `data-value`, so a test compares the page with the API figure for figure.
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatMoney, formatQuantity } from "~/catalog/format";
import { Countdown } from "~/stock/countdown";
import { EXPIRING_SOON_DAYS } from "~/stock/expiry";
import { STOCK_STATUS_LABELS } from "~/stock/level-status";
import { BADGE } from "~/stock/state-badge";
import { showInstant, Time } from "~/ui/dates";
import type { RecentActivity } from "./activity.server";
import type { BackupLine } from "./backups.server";
import type { OpenVial } from "./in-use.server";
import { monthName } from "./month";
import type { ParStatus } from "./par-status.server";
import type { StockStats } from "./stats.server";
import { WASTE_REASON_NAMES } from "./waste";
import type { Waste } from "./waste.server";

const LINK = "text-sky-800 underline decoration-sky-300 underline-offset-2 hover:decoration-sky-700";
const count = (n: number) => n.toLocaleString("en-US");

function Figure({
  name,
  label,
  value,
  shown,
  tone = "",
  children,
}: {
  name: string;
  label: string;
  value: number;
  shown: string;
  tone?: string;
  children?: ReactNode;
}) {
  return (
    <div data-stat={name} className={`flex min-w-0 flex-col gap-0.5 rounded-md border border-slate-100 p-3 ${tone}`}>
      <dt className="text-slate-600 text-sm">{label}</dt>
      <dd data-value={value} className="font-semibold text-2xl tabular-nums">
        {shown}
      </dd>
      {children && <dd className="text-slate-600 text-xs">{children}</dd>}
    </div>
  );
}

/**
 * Said above the organization's figures when they are the jobs worker's (worked out every minute)
 * rather than summed for this view: how old they are.
 */
export function FiguresAsOf({
  asOf,
  now,
  timeZone,
  organization,
}: {
  asOf: number;
  now: number;
  timeZone: string;
  organization: boolean;
}) {
  return (
    <p data-testid="figures-as-of" data-value={asOf} className="mb-2 text-slate-600 text-xs">
      {organization ? "Every location, as of" : "As of"} <Time at={showInstant(asOf, timeZone, new Date(now))} />:
      worked out every minute.
    </p>
  );
}

export function StatsFigures({ stats }: { stats: StockStats }) {
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      <Figure name="vialsOnHand" label="Vials on hand" value={stats.vialsOnHand} shown={count(stats.vialsOnHand)}>
        <Link className={LINK} to="/inventory">
          Sealed and in use
        </Link>
      </Figure>
      <Figure name="inUse" label="In use" value={stats.inUse} shown={count(stats.inUse)}>
        <Link className={LINK} to="/inventory?state=in_use">
          Open vials
        </Link>
      </Figure>
      <Figure
        name="expiringSoon"
        label={`Expiring within ${EXPIRING_SOON_DAYS} days`}
        value={stats.expiringSoon}
        shown={count(stats.expiringSoon)}
        tone={stats.expiringSoon > 0 ? "bg-amber-50" : ""}
      >
        <span data-stat="expiringSoonValueCents" data-value={stats.expiringSoonValueCents}>
          {formatMoney(stats.expiringSoonValueCents)} at risk
        </span>{" "}
        ·{" "}
        <Link className={LINK} to={`/inventory?expiringWithinDays=${EXPIRING_SOON_DAYS}`}>
          soonest first
        </Link>
      </Figure>
      <Figure
        name="expired"
        label="Expired, not discarded"
        value={stats.expired}
        shown={count(stats.expired)}
        tone={stats.expired > 0 ? "bg-red-50" : ""}
      >
        Past their deadline: discard them
      </Figure>
      <Figure
        name="recalled"
        label="Recalled, on the shelf"
        value={stats.recalled}
        shown={count(stats.recalled)}
        tone={stats.recalled > 0 ? "bg-red-50" : ""}
      >
        <Link className={LINK} to="/inventory?recalled=true">
          Quarantined vials
        </Link>
      </Figure>
      <Figure name="belowPar" label="Below par" value={stats.belowPar} shown={count(stats.belowPar)}>
        <Link className={LINK} to="/stock-levels?status=below_reorder">
          {count(stats.belowReorder)} to reorder
        </Link>{" "}
        ·{" "}
        <Link className={LINK} to="/stock-levels?status=below_par">
          {count(stats.belowParOnly)} below par
        </Link>
      </Figure>
      <Figure
        name="stockValueCents"
        label="Stock value at cost"
        value={stats.stockValueCents}
        shown={formatMoney(stats.stockValueCents)}
      >
        Vials and bulk on hand
      </Figure>
      <Figure
        name="inTransitToHere"
        label="In transit to here"
        value={stats.inTransitToHere}
        shown={count(stats.inTransitToHere)}
      >
        <Link className={LINK} to="/transfers?status=in_transit">
          Vials and bulk on the way
        </Link>
      </Figure>
      <Figure
        name="openDiscrepancies"
        label="Open discrepancies"
        value={stats.openDiscrepancies}
        shown={count(stats.openDiscrepancies)}
        tone={stats.openDiscrepancies > 0 ? "bg-amber-50" : ""}
      >
        <Link className={LINK} to="/transfers">
          Missing, damaged or short
        </Link>
      </Figure>
    </dl>
  );
}

export function WasteSummary({ waste }: { waste: Waste }) {
  const deadline = waste.byReason.find((r) => r.reason === "beyond_use_deadline");
  const shown = waste.byReason.filter((r) => r.thisMonth.count > 0 || r.lastMonth.count > 0);
  return (
    <>
      <dl className="grid grid-cols-2 gap-2">
        <Figure
          name="wasteThisMonth"
          label={`This month (${monthName(waste.months.thisMonth)})`}
          value={waste.thisMonth.cents}
          shown={formatMoney(waste.thisMonth.cents)}
        >
          <span data-stat="wasteThisMonthUnits" data-value={waste.thisMonth.units}>
            {count(waste.thisMonth.count)} wasted, {count(waste.thisMonth.units)} units
          </span>
        </Figure>
        <Figure
          name="wasteLastMonth"
          label={`Last month (${monthName(waste.months.lastMonth)})`}
          value={waste.lastMonth.cents}
          shown={formatMoney(waste.lastMonth.cents)}
        >
          {count(waste.lastMonth.count)} wasted, {count(waste.lastMonth.units)} units
        </Figure>
      </dl>
      {deadline && (
        <p
          data-testid="deadline-waste"
          className={`rounded-md p-3 text-sm ${deadline.thisMonth.cents > 0 ? "bg-red-50 text-red-900" : "bg-emerald-50 text-emerald-900"}`}
        >
          {deadline.thisMonth.count > 0 ? (
            <>
              <strong>{formatMoney(deadline.thisMonth.cents)}</strong> left in {count(deadline.thisMonth.count)} opened{" "}
              {deadline.thisMonth.count === 1 ? "vial" : "vials"} at the Use-By Deadline this month (
              {formatMoney(deadline.lastMonth.cents)} last month): the largest loss a clinic can avoid, by opening a
              vial only when its treatments will use it.
            </>
          ) : (
            <>Nothing was left in an opened vial at its Use-By Deadline this month.</>
          )}
        </p>
      )}
      {shown.length === 0 ? (
        <p className="text-slate-600 text-sm">Nothing was wasted this month or last.</p>
      ) : (
        <table className="w-full text-sm" aria-label="Waste by reason">
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col" className="py-1 pr-2 font-medium">
                Reason
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                This month
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Last month
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.reason} data-reason={r.reason} className="border-slate-100 border-t">
                <th scope="row" className="py-1 pr-2 text-left font-normal">
                  {WASTE_REASON_NAMES[r.reason]}
                </th>
                <td className="py-1 pr-2 text-right tabular-nums" data-value={r.thisMonth.cents}>
                  {formatMoney(r.thisMonth.cents)}
                  <span className="block text-slate-500 text-xs">{count(r.thisMonth.units)} units</span>
                </td>
                <td className="py-1 text-right tabular-nums" data-value={r.lastMonth.cents}>
                  {formatMoney(r.lastMonth.cents)}
                  <span className="block text-slate-500 text-xs">{count(r.lastMonth.units)} units</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {waste.top.length > 0 && (
        <div className="flex flex-col gap-1">
          <h3 className="font-medium text-sm">Wasting the most this month</h3>
          <ol className="flex flex-col gap-1 text-sm">
            {waste.top.map((p) => (
              <li key={p.productId} className="flex flex-wrap justify-between gap-x-2">
                <Link className={LINK} to={`/products/${p.productId}`}>
                  {p.productName}
                </Link>
                <span className="tabular-nums">
                  {formatMoney(p.cents)} · {formatQuantity(p.units, p.unitScale, p.baseUnit)}
                  {p.deadlineCents > 0 && (
                    <span className="text-red-800"> ({formatMoney(p.deadlineCents)} at the deadline)</span>
                  )}
                </span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </>
  );
}

const STATUS_TONES = {
  below_reorder: "bg-red-50 text-red-900 ring-red-600/40",
  below_par: "bg-amber-50 text-amber-900 ring-amber-600/40",
} as const;

export function ParStatusList({ par, organizationMode }: { par: ParStatus; organizationMode: boolean }) {
  return (
    <>
      <p className="text-sm">
        <Link
          className={LINK}
          to="/stock-levels?status=below_reorder"
          data-stat="parBelowReorder"
          data-value={par.belowReorder}
        >
          {count(par.belowReorder)} at or under the reorder point
        </Link>
        {" · "}
        <Link
          className={LINK}
          to="/stock-levels?status=below_par"
          data-stat="parBelowPar"
          data-value={par.belowParOnly}
        >
          {count(par.belowParOnly)} below par
        </Link>
      </p>
      {par.items.length === 0 ? (
        <p className="text-slate-600 text-sm">Every par level here is met.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-100 text-sm">
          {par.items.map((row) => (
            <li
              key={`${row.locationId}:${row.variationId}`}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2"
            >
              <span className="min-w-0 flex-1">
                <Link className={LINK} to={`/products/${row.productId}`}>
                  {row.productName} {row.variationName}
                </Link>
                {organizationMode && <span className="text-slate-500"> · {row.location.code}</span>}
                <span className="block text-slate-600 text-xs">
                  {formatQuantity(row.usable, row.unitScale, row.baseUnit)} usable · par {row.parLevel?.par}
                  {row.parLevel?.max != null && `, max ${row.parLevel.max}`} packages
                </span>
              </span>
              <span
                className={`${BADGE} ${row.status === "below_reorder" ? STATUS_TONES.below_reorder : STATUS_TONES.below_par}`}
              >
                {STOCK_STATUS_LABELS[row.status]}
              </span>
              <span className="font-medium tabular-nums" data-reorder={row.reorderPackages}>
                Order {count(row.reorderPackages)} {row.reorderPackages === 1 ? "package" : "packages"}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function OpenVials({
  vials,
  now,
  organizationMode,
}: {
  vials: OpenVial[];
  now: number;
  organizationMode: boolean;
}) {
  if (vials.length === 0) return <p className="text-slate-600 text-sm">No vial is open.</p>;
  return (
    <ul className="flex flex-col divide-y divide-slate-100 text-sm">
      {vials.map((vial) => (
        <li key={vial.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
          <span className="min-w-0 flex-1">
            <Link className={LINK} to={`/inventory/${vial.id}`}>
              {vial.productName} {vial.variationName}
            </Link>
            <span className="block text-slate-600 text-xs">
              {formatQuantity(vial.unitsRemaining, vial.unitScale, vial.baseUnit)} left
              {vial.lot && ` · lot ${vial.lot}`}
              {organizationMode && ` · ${vial.location.code}`}
            </span>
          </span>
          <Countdown
            deadline={vial.expiresAt}
            now={now}
            className="rounded bg-slate-100 px-2 py-0.5 font-medium text-xs tabular-nums data-[expired]:bg-red-100 data-[expired]:text-red-900"
          />
        </li>
      ))}
    </ul>
  );
}

export function ActivityList({ rows, now, timeZone }: { rows: RecentActivity[]; now: number; timeZone: string }) {
  if (rows.length === 0) return <p className="text-slate-600 text-sm">Nothing has been recorded yet.</p>;
  return (
    <ul className="flex flex-col divide-y divide-slate-100 text-sm">
      {rows.map((row) => (
        <li key={row.id} data-action={row.action} className="flex flex-col gap-0.5 py-2">
          {row.href ? (
            <Link className={LINK} to={row.href}>
              {row.text}
            </Link>
          ) : (
            <span>{row.text}</span>
          )}
          <span className="text-slate-600 text-xs">
            <Time at={showInstant(row.at, row.location?.timeZone ?? timeZone, new Date(now))} />
            {row.userName && ` · ${row.userName}`}
            {row.location && ` · ${row.location.code}`}
          </span>
        </li>
      ))}
    </ul>
  );
}

function bytes(n: number | null): string {
  if (n === null) return "";
  if (n < 1024 * 1024) return `${Math.max(1, Math.round(n / 1024))} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

export function BackupStatus({ line, now, timeZone }: { line: BackupLine; now: number; timeZone: string }) {
  const at = (ms: number) => <Time at={showInstant(ms, timeZone, new Date(now))} />;
  return (
    <dl className="flex flex-col gap-2 text-sm">
      <div data-testid="last-backup">
        <dt className="text-slate-600">Last backup</dt>
        <dd className="font-medium">
          {line.lastBackup ? (
            <>
              {at(line.lastBackup.finishedAt ?? line.lastBackup.requestedAt)}
              {line.lastBackup.sizeBytes !== null && (
                <span className="font-normal text-slate-600"> · {bytes(line.lastBackup.sizeBytes)}</span>
              )}
            </>
          ) : (
            "No backup yet"
          )}
        </dd>
        {line.failedSince && (
          <dd className="text-red-800">
            The backup asked for {at(line.failedSince.requestedAt)} failed
            {line.failedSince.error ? `: ${line.failedSince.error}` : "."}
          </dd>
        )}
      </div>
      <div data-testid="last-verified-restore">
        <dt className="text-slate-600">Last verified restore</dt>
        <dd className="font-medium">
          {line.lastVerifiedRestore ? (
            <>
              {at(line.lastVerifiedRestore.rehearsedAt)}
              <span className="font-normal text-slate-600">
                {" "}
                · the backup of {at(line.lastVerifiedRestore.requestedAt)} restored and checked
              </span>
            </>
          ) : (
            "No restore verified yet"
          )}
        </dd>
      </div>
    </dl>
  );
}
