import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { signedIn } from "~/access/door.server";
import { can } from "~/access/permissions";
import { area } from "~/shell/areas";

export const meta: MetaFunction = () => [{ title: "Dashboard · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const user = await signedIn(args);
  const { scope } = user;
  return {
    name: `${user.firstName} ${user.lastName}`,
    email: user.email,
    scope,
    canReadStock: can(user, area("/stock-levels").permission, scope.locationId),
  };
}

export default function Dashboard() {
  const { name, email, scope, canReadStock } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="font-semibold text-2xl">Dashboard</h1>
      <p>
        Signed in as <strong data-testid="signed-in-user">{name}</strong>{" "}
        <span className="text-slate-600">({email})</span>
      </p>
      <p data-testid="dashboard-scope" className="text-slate-700">
        {scope.kind === "organization" && "Viewing all locations of the organization."}
        {scope.kind === "location" && `Working at ${scope.name} (${scope.code}).`}
        {scope.kind === "none" &&
          "You have no locations yet. Ask your administrator to give you a role at a location to see its stock."}
      </p>
      {canReadStock && (
        <Link
          to="/stock-levels"
          className="block max-w-md rounded-lg border border-slate-200 bg-white p-4 hover:border-sky-300 hover:bg-sky-50"
        >
          <span className="font-semibold text-sky-800">Stock Levels</span>
          <span className="block text-slate-600 text-sm">
            What is on hand against par, what to reorder, and what expires next.
          </span>
        </Link>
      )}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
