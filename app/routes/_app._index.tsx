// The dashboard (/): for the location in scope, or every location in organization mode, the stock
// figures, the waste of this month and last, the par status, the open vials with their countdowns,
// the recent activity (READ_ACTIVITY) and the last backup and verified restore (READ_BACKUPS). The
// reads are app/dashboard's, all in one batch after the session (one round trip); each widget sits
// in its own section boundary, so one that fails leaves the others working.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { signedIn } from "~/access/door.server";
import { canHere } from "~/access/scope.server";
import { dashboardScreen } from "~/dashboard/dashboard.server";
import { placeOf } from "~/dashboard/place.server";
import { Card, Widget } from "~/dashboard/section";
import {
  ActivityList,
  BackupStatus,
  FiguresAsOf,
  OpenVials,
  ParStatusList,
  StatsFigures,
  WasteSummary,
} from "~/dashboard/widgets";
import { orOutage } from "~/http/outage.server";
import { reportError } from "~/observability/report.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Clinic Inventory" }];

/** Said where the recent activity would be, to a reader without READ_ACTIVITY (staff). */
export const ACTIVITY_NOT_YOURS = "Recent activity is for managers and admins.";

export async function loader(args: LoaderFunctionArgs) {
  const actor = await signedIn(args);
  const { scope } = actor;
  const { request, context } = args;
  const base = { name: `${actor.firstName} ${actor.lastName}`, email: actor.email, scope };
  if (scope.kind === "none" || !canHere(actor, "READ_INVENTORY")) return { ...base, dashboard: null };
  const now = new Date();
  const place = placeOf(actor, now);
  const access = { activity: canHere(actor, "READ_ACTIVITY"), backups: canHere(actor, "READ_BACKUPS") };
  const widgets = await orOutage(
    dashboardScreen(context.db, actor, place, access, (error) =>
      reportError(error, { request, env: context.env, ctx: context.ctx }),
    ),
  );
  return {
    ...base,
    dashboard: {
      ...widgets,
      now: now.getTime(),
      timeZone: place.timeZone,
      organizationMode: scope.kind === "organization",
    },
  };
}

const LINK = "text-sky-800 text-sm underline decoration-sky-300 underline-offset-2 hover:decoration-sky-700";

export default function Dashboard() {
  const { name, email, scope, dashboard } = useLoaderData<typeof loader>();
  const asOf = dashboard?.asOf ? (
    <FiguresAsOf
      asOf={dashboard.asOf}
      now={dashboard.now}
      timeZone={dashboard.timeZone}
      organization={dashboard.organizationMode}
    />
  ) : null;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h1 className="font-semibold text-2xl">Dashboard</h1>
        <p className="text-sm">
          Signed in as <strong data-testid="signed-in-user">{name}</strong>{" "}
          <span className="text-slate-600">({email})</span>
        </p>
        <p data-testid="dashboard-scope" className="text-slate-700 text-sm">
          {scope.kind === "organization" && "Viewing all locations of the organization."}
          {scope.kind === "location" && `Working at ${scope.name} (${scope.code}).`}
          {scope.kind === "none" &&
            "You have no locations yet. Ask your administrator to give you a role at a location to see its stock."}
        </p>
      </div>
      {dashboard && (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 2xl:grid-cols-3">
          <Widget
            id="stats"
            title="Stock"
            className="lg:col-span-2 2xl:col-span-3"
            loaded={dashboard.stats}
            render={(stats) => (
              <>
                {asOf}
                <StatsFigures stats={stats} />
              </>
            )}
          />
          <Widget
            id="waste"
            title="Waste"
            loaded={dashboard.waste}
            render={(waste) => (
              <>
                {asOf}
                <WasteSummary waste={waste} />
              </>
            )}
          />
          <Widget
            id="par-status"
            title="Par status"
            action={
              <Link className={LINK} to="/stock-levels">
                Stock Levels
              </Link>
            }
            loaded={dashboard.parStatus}
            render={(par) => <ParStatusList par={par} organizationMode={dashboard.organizationMode} />}
          />
          <Widget
            id="in-use"
            title="Open vials"
            action={
              <Link className={LINK} to="/inventory?state=in_use">
                All open vials
              </Link>
            }
            loaded={dashboard.inUse}
            render={(vials) => (
              <OpenVials vials={vials} now={dashboard.now} organizationMode={dashboard.organizationMode} />
            )}
          />
          {dashboard.activity ? (
            <Widget
              id="activity"
              title="Recent activity"
              action={
                <Link className={LINK} to="/activity-log">
                  Activity Log
                </Link>
              }
              loaded={dashboard.activity}
              render={(rows) => <ActivityList rows={rows} now={dashboard.now} timeZone={dashboard.timeZone} />}
            />
          ) : (
            <Card id="activity" title="Recent activity">
              <p className="text-slate-600 text-sm">{ACTIVITY_NOT_YOURS}</p>
            </Card>
          )}
          {dashboard.backups && (
            <Widget
              id="backups"
              title="Backups"
              action={
                <Link className={LINK} to="/backup-restore">
                  Backup &amp; Restore
                </Link>
              }
              loaded={dashboard.backups}
              render={(line) => <BackupStatus line={line} now={dashboard.now} timeZone={dashboard.timeZone} />}
            />
          )}
        </div>
      )}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
