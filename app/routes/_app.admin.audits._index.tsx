// /admin/audits (READ_AUDITS): the counts of the location in scope (every location in organization
// mode), newest first, by status; keyset pages. Each opens its review page.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { AUDIT_STATUSES, STATUS_LABELS } from "~/counts/constants";
import { listSessions, SessionListQuery, sessionKeyset } from "~/counts/list.server";
import { scopeWords } from "~/counts/session.server";
import { CountStatus } from "~/counts/status-badge";
import { firstPage } from "~/db/keyset.server";
import { readFilters } from "~/http/filters.server";
import { orOutage } from "~/http/outage.server";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { CELL, cursorLinks, DataRow, DataTable, NameCell, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Audit Review · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/admin/audits").permission);
  const params = new URL(args.request.url).searchParams;
  const { query, problems } = readFilters(SessionListQuery, Object.fromEntries(params));
  const keyset = firstPage(sessionKeyset(query), query.pageSize);
  const page = await orOutage(listSessions(args.context.db, actor, "READ_AUDITS", query, keyset));
  const filters = { status: query.status ?? "" };
  return {
    status: query.status,
    problem: problems.status ?? null,
    sessions: page.items.map((s) => ({
      id: s.id,
      location: `${s.locationName} (${s.locationCode})`,
      status: s.status,
      scope: scopeWords(s),
      blind: Boolean(Number(s.blind)),
      startedBy: s.startedByName,
      startedAt: showInstant(s.startedAt, s.timezone),
      submittedAt: showInstant(s.submittedAt, s.timezone),
      reviewedBy: s.reviewedByName,
      lines: Number(s.lines),
    })),
    total: page.total,
    totalExact: page.totalExact,
    ...cursorLinks("/admin/audits", filters, page),
  };
}

export default function AuditReviewScreen() {
  const { sessions, status, problem, total, totalExact, next, previous } = useLoaderData<typeof loader>();
  const tab = (value: string, label: string) => (
    <Link
      key={value}
      to={value ? `/admin/audits?status=${value}` : "/admin/audits"}
      aria-current={(status ?? "") === value ? "page" : undefined}
      className={`rounded-md px-3 py-1.5 text-sm ${(status ?? "") === value ? "bg-sky-700 text-white" : "border border-slate-300 bg-white"}`}
    >
      {label}
    </Link>
  );
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="font-semibold text-2xl">Audit Review</h1>
        <p className="text-slate-600 text-sm">
          Cycle counts by status: open one to compare it with the system's stock, then approve it or send it back.
        </p>
      </div>
      <nav aria-label="Status" className="flex flex-wrap gap-2">
        {tab("", "All")}
        {AUDIT_STATUSES.map((s) => tab(s, STATUS_LABELS[s]))}
      </nav>
      {problem && <p className="text-red-700 text-sm">{problem}</p>}
      <DataTable
        columns={[{ label: "Count", title: true }, { label: "Status", key: true }, "Started", "Submitted", "Lines"]}
        rowCount={sessions.length}
        empty={
          status ? `No count is ${STATUS_LABELS[status].toLowerCase()}.` : "No count yet: counts are started on Audit."
        }
      >
        {sessions.map((s) => (
          <DataRow key={s.id}>
            <NameCell to={`/admin/audits/${s.id}`} name={s.location}>
              <span className="text-slate-600 text-xs">
                {s.scope}
                {s.blind ? " · blind" : ""}
              </span>
            </NameCell>
            <td className={CELL}>
              <CountStatus status={s.status} />
            </td>
            <td className={CELL}>
              <Time at={s.startedAt} />
              {s.startedBy && <span className="block text-slate-600 text-xs">{s.startedBy}</span>}
            </td>
            <td className={CELL}>
              <Time at={s.submittedAt} />
            </td>
            <td className={`${CELL} tabular-nums`}>{s.lines}</td>
          </DataRow>
        ))}
      </DataTable>
      <Pagination total={total} totalExact={totalExact} noun="counts" previous={previous} next={next} />
      <p className="text-slate-600 text-sm">
        Counting happens on{" "}
        <Link className="text-sky-700 underline" to="/audit">
          Audit
        </Link>
        .
      </p>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
