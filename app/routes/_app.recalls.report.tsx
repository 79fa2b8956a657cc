// /recalls/report?variationId=&lot=: the trace of one lot, recalled or not: every use (patient
// reference, units, service, provider, location, time, who) and where its unused vials are now, at
// the locations the reader reaches with READ_INVENTORY (every location in organization mode); a red
// banner while a recall is in force, and the report as a CSV. Without a variation: a form to name
// the lot, which opens its report (the one variation holding it; several: each one's report;
// none: the lots that differ from it only in case or spacing). Times in the location's zone.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { timeZoneHere } from "~/access/actor";
import { actorHere } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { RECALL_LOT_MAX } from "~/recalls/constants";
import { LotLookupQuery } from "~/recalls/forms";
import { recallReportPath } from "~/recalls/links";
import { findLot } from "~/recalls/list.server";
import { readRecallReport, reportQueryOf } from "~/recalls/report.server";
import { area } from "~/shell/areas";
import { StateBadge } from "~/stock/state-badge";
import { formatDate, showInstant, Time } from "~/ui/dates";
import { Button, Field } from "~/ui/form";
import { BackLink } from "~/ui/record-screen";
import { Section } from "~/ui/section";
import { CELL, DataRow, DataTable } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Recall Report · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/recalls/report").permission);
  const params = new URL(args.request.url).searchParams;
  const asked = reportQueryOf(params);
  if (!asked) {
    // A lot named without its variation (the Find lot form): the report of the one variation
    // holding it, else a choice of them, else the lots it was probably meant to be.
    const { lot } = LotLookupQuery.parse({ lot: params.get("lot") ?? "" });
    const found = lot ? await orOutage(findLot(args.context.db, actor, { lot, product: "" })) : null;
    const [only, ...more] = found?.holders ?? [];
    if (only && more.length === 0) throw redirect(recallReportPath(only.id, lot));
    return {
      report: null,
      asked: { lot },
      found: found && {
        holders: found.holders.map((h) => ({
          id: h.id,
          label: `${h.productName} · ${h.name}`,
          recalled: h.recalled,
          report: recallReportPath(h.id, lot),
        })),
        nearLots: found.nearLots.map((near) => ({
          lot: near,
          find: `/recalls/report?${new URLSearchParams({ lot: near })}`,
        })),
      },
    };
  }
  const report = await orOutage(readRecallReport(args.context.db, actor, asked));
  if (!report) throw data("That product variation does not exist in your organization.", { status: 404 });
  const now = new Date();
  // A recall is the organization's, but its times read as every other time here: in the
  // location's zone (UTC in organization mode).
  const zone = timeZoneHere(actor);
  const inForce = report.recalls.find((r) => r.inForce) ?? null;
  const lastLifted = report.recalls.find((r) => !r.inForce) ?? null;
  return {
    report: {
      title: `${report.productName} · ${report.variationName}`,
      lot: report.lot,
      status: report.status,
      recall: inForce && {
        note: inForce.note,
        at: showInstant(inForce.recalledAt, zone, now),
        by: inForce.recalledBy,
      },
      lifted: lastLifted && { at: showInstant(lastLifted.liftedAt, zone, now), by: lastLifted.liftedBy },
      uses: report.uses.map((u) => ({
        id: u.id,
        usedAt: showInstant(u.usedAt, u.location.timeZone, now),
        location: u.location,
        patientRef: u.patientRef,
        units: u.unitsText,
        serviceName: u.serviceName,
        provider: u.provider,
        recordedBy: u.recordedBy,
        labelCode: u.labelCode,
        itemId: u.itemId,
      })),
      vials: report.vials.map((v) => ({
        ...v,
        expirationDate: v.expirationDate ? formatDate(v.expirationDate) : null,
      })),
      csv: `/recalls/report.csv?${new URLSearchParams(asked)}`,
    },
    asked,
    found: null,
  };
}

const LINK = "font-medium text-sky-800 hover:underline";

function LocationCell({ location }: { location: { name: string; code: string } }) {
  return (
    <td className={CELL}>
      {location.name} <span className="text-slate-500 text-xs">{location.code}</span>
    </td>
  );
}

type Found = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["found"]>;

/**
 * No variation named: a GET form for the lot, answered here (the report of the one variation
 * holding it, else each one's report); a select of every variation was hundreds of KiB on a chain.
 */
function LotPicker({ lot, found }: { lot: string; found: Found | null }) {
  return (
    <div className="flex flex-col gap-3">
      <Form key={lot} method="get" action="/recalls/report" className="flex flex-wrap items-end gap-3">
        <div className="min-w-40 flex-1">
          <Field label="Lot" name="lot" maxLength={RECALL_LOT_MAX} defaultValue={lot} />
        </div>
        <Button tone="secondary">Find lot</Button>
      </Form>
      {found && found.holders.length > 0 && (
        <ul aria-label={`Reports of lot ${lot}`} className="flex flex-col divide-y divide-slate-200">
          {found.holders.map((h) => (
            <li key={h.id} className="flex flex-wrap items-center gap-2 py-2">
              <Link to={h.report} className={LINK}>
                {h.label}
              </Link>
              {h.recalled && <span className="text-red-800 text-xs">Recalled</span>}
            </li>
          ))}
        </ul>
      )}
      {found && found.holders.length === 0 && (
        <p role="status" className="rounded-md bg-amber-50 p-3 text-amber-900 text-sm">
          Lot {lot} was not found at your organization. Check it is typed exactly as printed on the vials.
          {found.nearLots.length > 0 && (
            <>
              {" "}
              Lots that differ only in case or spacing:{" "}
              {found.nearLots.map((near, index) => (
                <span key={near.lot}>
                  {index > 0 && ", "}
                  <Link to={near.find} className={`${LINK} font-mono`}>
                    {near.lot}
                  </Link>
                </span>
              ))}
              .
            </>
          )}
        </p>
      )}
    </div>
  );
}

export default function RecallReportScreen() {
  const { report, asked, found } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <div>
        <BackLink to="/recalls" label="Lot Recalls" />
        <h1 className="font-semibold text-2xl">Recall Report</h1>
        {!report && (
          <p className="text-slate-600 text-sm">
            Trace a lot, recalled or not: every patient it was used for and where its unused vials are.
          </p>
        )}
      </div>
      {!report ? (
        <LotPicker lot={asked.lot} found={found} />
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 className="font-semibold text-lg">{report.title}</h2>
              <p className="text-slate-700 text-sm">
                Lot <span className="font-mono">{report.lot}</span>
                {report.status === "never" && " · never recalled"}
                {report.status === "lifted" && report.lifted && (
                  <>
                    {" "}
                    · recall lifted <Time at={report.lifted.at} />
                    {report.lifted.by && ` by ${report.lifted.by}`}
                  </>
                )}
              </p>
            </div>
            <a
              href={report.csv}
              download
              className="inline-flex min-h-10 items-center rounded-md bg-sky-700 px-3 py-2 font-medium text-sm text-white hover:bg-sky-800"
            >
              Download CSV
            </a>
          </div>
          {report.recall && (
            <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
              <p className="font-semibold">Recalled: every vial of this lot is quarantined at every location.</p>
              <p className="text-sm">
                Marked <Time at={report.recall.at} />
                {report.recall.by && ` by ${report.recall.by}`}: {report.recall.note}
              </p>
            </div>
          )}

          <Section id="uses" title={`Uses (${report.uses.length})`}>
            <DataTable
              caption="Uses of this lot"
              columns={[
                { label: "Patient ref.", title: true },
                { label: "Used", key: true },
                { label: "Units", key: true },
                "Location",
                "Service",
                "Provider",
                "Recorded by",
                "Vial",
              ]}
              rowCount={report.uses.length}
              empty="No units of this lot were drawn at the locations you can see."
            >
              {report.uses.map((u) => (
                <DataRow key={u.id}>
                  <td className={`${CELL} font-medium font-mono`}>{u.patientRef ?? "—"}</td>
                  <td className={`${CELL} whitespace-nowrap`}>
                    <Time at={u.usedAt} />
                  </td>
                  <td className={`${CELL} whitespace-nowrap tabular-nums`}>{u.units}</td>
                  <LocationCell location={u.location} />
                  <td className={CELL}>{u.serviceName ?? "—"}</td>
                  <td className={CELL}>{u.provider ?? "—"}</td>
                  <td className={CELL}>{u.recordedBy ?? "—"}</td>
                  <td className={`${CELL} font-mono text-xs`}>
                    {u.labelCode ? (
                      <Link to={`/inventory/${u.itemId}`} className={LINK}>
                        {u.labelCode}
                      </Link>
                    ) : (
                      "—"
                    )}
                  </td>
                </DataRow>
              ))}
            </DataTable>
          </Section>

          <Section id="vials" title={`Unused vials (${report.vials.length})`}>
            <DataTable
              caption="Unused vials of this lot"
              columns={[
                { label: "Vial", title: true },
                { label: "State", key: true },
                "Location",
                "Units left",
                "Expiration",
              ]}
              rowCount={report.vials.length}
              empty="No sealed, open or in-transit vial of this lot at the locations you can see."
            >
              {report.vials.map((v) => (
                <DataRow key={v.id}>
                  <td className={`${CELL} font-mono`}>
                    <Link to={`/inventory/${v.id}`} className={LINK}>
                      {v.labelCode}
                    </Link>
                  </td>
                  <td className={CELL}>
                    <StateBadge state={v.state} />
                  </td>
                  <LocationCell location={v.location} />
                  <td className={`${CELL} tabular-nums`}>{v.unitsText}</td>
                  <td className={CELL}>{v.expirationDate ?? "—"}</td>
                </DataRow>
              ))}
            </DataTable>
          </Section>
        </>
      )}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
