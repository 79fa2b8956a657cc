// /locations: the organization's locations, active first, then archived. Organization admins see
// and open them all; everyone else sees the locations where they work.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { isOrganizationAdmin } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { listLocations } from "~/locations/list.server";
import { area } from "~/shell/areas";
import { LINK_BUTTON, StatusBadge } from "~/ui/form";
import { CELL, DataRow, DataTable, NameCell } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Locations · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const user = await actorHere(args, area("/locations").permission);
  const locations = await orOutage(listLocations(args.context.db, user));
  return {
    locations,
    canCreate: isOrganizationAdmin(user),
  };
}

export default function LocationsScreen() {
  const { locations, canCreate } = useLoaderData<typeof loader>();
  const active = locations.filter((l) => l.active);
  const archived = locations.filter((l) => !l.active);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Locations</h1>
          <p className="text-slate-600 text-sm">
            {canCreate ? "Every location of the organization." : "The locations where you work."}
          </p>
        </div>
        {canCreate && (
          <Link to="/locations/new" className={LINK_BUTTON}>
            New location
          </Link>
        )}
      </div>
      <LocationTable title="Active locations" rows={active} empty="No active locations." />
      {archived.length > 0 && (
        <LocationTable
          title="Archived locations"
          rows={archived}
          empty=""
          note="Archived locations are hidden from the location switcher; their history is kept."
        />
      )}
    </div>
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["locations"][number];

function LocationTable({ title, rows, empty, note }: { title: string; rows: Row[]; empty: string; note?: string }) {
  const id = `${title.toLowerCase().replace(/\s+/g, "-")}-title`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="font-semibold text-lg">
        {title}
      </h2>
      {note && <p className="text-slate-600 text-sm">{note}</p>}
      <DataTable
        columns={["Name", "Code", "Address", "Time zone", "People", { label: "Status", key: true }]}
        rowCount={rows.length}
        empty={empty}
      >
        {rows.map((l) => (
          <DataRow key={l.id}>
            <NameCell to={`/locations/${l.id}`} name={l.name} />
            <td className={`${CELL} font-mono`}>{l.code}</td>
            <td className={`${CELL} text-slate-700`}>{l.address ?? "—"}</td>
            <td className={`${CELL} text-slate-700`}>{l.timezone}</td>
            <td className={`${CELL} text-slate-700`}>{l.people}</td>
            <td className={CELL}>
              <StatusBadge active={l.active} labels={["Active", "Archived"]} />
            </td>
          </DataRow>
        ))}
      </DataTable>
    </section>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
