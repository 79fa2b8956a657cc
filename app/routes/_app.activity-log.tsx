// /activity-log (READ_ACTIVITY): every recorded action the reader may see (app/activity/list.server:
// the location in scope and the catalogue's organization-wide rows; everything in organization
// mode), newest first, 25 a page by keyset with a capped count; filtered by location (organization
// mode), user (exactly, from a row's name, or by name or email), action (in words, old and new
// names alike, ADR 0027), what it is about and dates (whole days in the location's zone); each row
// says what happened in words and links to what it is about; the filtered list as a streamed CSV.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { actionChoices } from "~/activity/labels";
import { describeActivity } from "~/activity/words";
import { ENTITY_LABELS, NO_LOCATION, USER_CHOICES } from "~/activity-log/entities";
import { activityScreen, readActivityQuery } from "~/activity-log/list.server";
import { ACTIVITY_PAGE_SIZE, activityFilterParams } from "~/activity-log/query";
import { listedUnlessProblems, typedFilters } from "~/http/filters.server";
import { orOutage } from "~/http/outage.server";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Field } from "~/ui/form";
import { DateRangeFields, FilterSelect, SearchForm } from "~/ui/search-form";
import { CELL, cursorLinks, DataRow, DataTable, Pagination } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Activity Log · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/activity-log").permission);
  const searchParams = new URL(args.request.url).searchParams;
  const { query, problems } = readActivityQuery(searchParams);
  const read = await orOutage(activityScreen(args.context.db, actor, query));
  const screen = listedUnlessProblems(read, problems);
  const now = new Date();
  const filters = activityFilterParams(query);
  const filterValues = Object.fromEntries(filters) as Record<string, string>;
  const typed = typedFilters(problems, searchParams);
  const organizationMode = actor.locationId === "all";
  /** The list filtered to one user, the other filters kept: a row's "who" links here. */
  const byUser = (userId: string) => {
    const params = new URLSearchParams(filters);
    params.delete("user");
    params.set("userId", userId);
    return `/activity-log?${params}`;
  };
  return {
    problems,
    rows: screen.items.map((e) => {
      const { text, href } = describeActivity(e);
      return {
        id: e.id,
        at: showInstant(e.at, e.location?.timeZone ?? screen.timeZone, now),
        who: e.userName,
        whoHref: e.userId && e.userName ? byUser(e.userId) : null,
        // No user: the jobs worker, or a sign-in at an address no account has.
        nobody: e.userId ? "Unknown user" : e.action.startsWith("sign_in") ? "Not signed in" : "The system",
        where: e.location?.code ?? null,
        whereName: e.location?.name ?? null,
        text,
        href,
        action: e.action,
      };
    }),
    total: screen.total,
    totalExact: screen.totalExact,
    ...cursorLinks(
      "/activity-log",
      { ...filterValues, pageSize: query.pageSize === ACTIVITY_PAGE_SIZE ? "" : String(query.pageSize) },
      screen,
    ),
    locations: screen.locations,
    chosenUser: screen.chosenUser,
    userChoices: screen.userChoices,
    timeZone: screen.timeZone,
    organizationMode,
    query: { ...filterValues, ...typed } as Partial<Record<string, string>>,
    csv: `/activity-log.csv${filters.size ? `?${filters}` : ""}`,
  };
}

const LINK = "font-medium text-sky-800 hover:underline";
const ACTIONS = actionChoices();
const ENTITIES = Object.entries(ENTITY_LABELS)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

export default function ActivityLogScreen() {
  const {
    rows,
    total,
    totalExact,
    previous,
    next,
    locations,
    chosenUser,
    userChoices,
    timeZone,
    organizationMode,
    query,
    problems,
    csv,
  } = useLoaderData<typeof loader>();
  const unusable = Object.keys(problems).length > 0;
  const filtered = Object.keys(query).length > 0;
  const here = organizationMode ? null : locations[0];
  const zoneText = organizationMode ? "UTC (organization mode)" : `the location's time zone, ${timeZone}`;
  const columns = [{ label: "When", key: true }, "Who", "Where", { label: "What happened", title: true }];
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Activity Log</h1>
          <p className="text-slate-600 text-sm">
            Everything recorded {here ? `at ${here.name}` : "across the organization"}, newest first, with the
            catalogue's changes{organizationMode ? ", sign-ins, users and backups" : " and your own sign-ins"}. Each
            line links to what it is about.
          </p>
        </div>
        <a
          href={csv}
          download
          className="inline-flex min-h-10 items-center rounded-md bg-sky-700 px-3 py-2 font-medium text-sm text-white hover:bg-sky-800"
        >
          Download CSV
        </a>
      </div>

      <SearchForm action="/activity-log" filtered={filtered}>
        <DateRangeFields from={query.from} to={query.to} errors={problems} />
        <FilterSelect
          name="locationId"
          label="Location"
          value={query.locationId ?? ""}
          error={problems.locationId}
          options={
            organizationMode
              ? [
                  { value: "", label: "All locations" },
                  { value: NO_LOCATION, label: "Organization-wide (no location)" },
                  ...locations.map((l) => ({ value: l.id, label: `${l.name} (${l.code})` })),
                ]
              : [
                  { value: "", label: "Everything I see" },
                  ...(here ? [{ value: here.id, label: `${here.code} only` }] : []),
                  { value: NO_LOCATION, label: "Organization-wide" },
                ]
          }
        />
        {userChoices.length > 1 && (
          <FilterSelect
            name="userId"
            label="Which user?"
            value=""
            options={[
              {
                value: "",
                label: `${userChoices.length > USER_CHOICES ? `More than ${USER_CHOICES}` : userChoices.length} users match: choose one`,
              },
              ...userChoices.slice(0, USER_CHOICES).map((u) => ({ value: u.id, label: u.label })),
            ]}
          />
        )}
        {chosenUser && (
          <FilterSelect
            name="userId"
            label="User"
            value={chosenUser.id}
            options={[
              { value: chosenUser.id, label: chosenUser.label },
              { value: "", label: "Anyone" },
            ]}
          />
        )}
        <div className="min-w-40 flex-1">
          <Field
            label={chosenUser ? "Or search users" : "User"}
            name="user"
            type="search"
            required={false}
            defaultValue={query.user}
            placeholder="Name or email"
            autoComplete="off"
            error={problems.user ?? problems.userId}
          />
        </div>
        <FilterSelect
          name="action"
          label="Action"
          value={query.action ?? ""}
          error={problems.action}
          options={[{ value: "", label: "Any action" }, ...ACTIONS]}
        />
        <FilterSelect
          name="entity"
          label="About"
          value={query.entity ?? ""}
          error={problems.entity}
          options={[{ value: "", label: "Anything" }, ...ENTITIES]}
        />
      </SearchForm>
      <p className="-mt-4 text-slate-500 text-xs">
        Dates are whole days in {zoneText}; times below are each location's own.
      </p>

      <DataTable
        caption="Activity"
        columns={columns}
        rowCount={rows.length}
        empty={
          unusable
            ? "Nothing listed: a filter above cannot be used. Correct it, or clear the filters."
            : userChoices.length > 1
              ? `More than one user matches "${query.user}": choose one under "Which user?", or search by more of the name or the email.`
              : filtered
                ? "No activity matches these filters. Clear them to see everything."
                : "Nothing has been recorded here yet. Receiving, starting vials and every change are listed here."
        }
      >
        {rows.map((r) => (
          <DataRow key={r.id}>
            <td className={`${CELL} whitespace-nowrap text-slate-700`}>
              <Time at={r.at} />
            </td>
            <td className={CELL}>
              {r.whoHref ? (
                <Link to={r.whoHref} className={LINK} title={`Only what ${r.who} did`}>
                  {r.who}
                </Link>
              ) : (
                <span className="text-slate-500">{r.who ?? r.nobody}</span>
              )}
            </td>
            <td className={`${CELL} text-slate-700`} title={r.whereName ?? "Organization-wide"}>
              {r.where ?? <span className="text-slate-500">Organization</span>}
            </td>
            <td className={CELL}>
              {r.href ? (
                <Link to={r.href} className={LINK} data-action={r.action}>
                  {r.text}
                </Link>
              ) : (
                <span data-action={r.action}>{r.text}</span>
              )}
            </td>
          </DataRow>
        ))}
      </DataTable>

      <Pagination total={total} totalExact={totalExact} previous={previous} next={next} noun="entries" />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
