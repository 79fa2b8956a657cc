// /users: the people of the location in scope (everyone, in organization mode), 25 a page, with
// search; people managers add someone who already has an account to this location from here.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { can } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { done, intentOf, invalid, refused } from "~/http/outcome.server";
import { area } from "~/shell/areas";
import { showInstant, Time } from "~/ui/dates";
import { Button, Field, FormAlert, LINK_BUTTON, OrganizationAdminBadge, SelectField, StatusBadge } from "~/ui/form";
import { RoleBadge } from "~/ui/role-badge";
import { CELL, DataRow, DataTable, NameCell, Pagination } from "~/ui/table";
import { ROLE_CHOICES } from "~/users/constants";
import { GrantRoleForm, UserListQuery } from "~/users/forms";
import { listUsers } from "~/users/list.server";
import { grantRole } from "~/users/roles.server";

export const meta: MetaFunction = () => [{ title: "Users · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/users").permission);
  const query = UserListQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const list = await orOutage(listUsers(args.context.db, { user: actor, scope: actor.scope }, query));
  return {
    ...list,
    q: query.q,
    users: list.users.map((u) => ({ ...u, lastLoginAt: showInstant(u.lastLoginAt, list.timezone) })),
    scope: actor.scope,
    canWrite: can(actor, "WRITE_USERS", actor.locationId),
  };
}

export async function action(args: ActionFunctionArgs) {
  const actor = await actorHere(args, "WRITE_USERS");
  const form = Object.fromEntries(await args.request.formData());
  intentOf(form, ["grant-role"]);
  if (actor.scope.kind !== "location") {
    throw data("Choose a location first: this list grants roles at the location you are working at.", { status: 400 });
  }
  const parsed = GrantRoleForm.safeParse({ ...form, locationId: actor.scope.locationId });
  if (!parsed.success) return invalid(parsed.error);

  const { email, locationId, role } = parsed.data;
  const result = await orOutage(grantRole(args.context.db, actor, { user: { email }, locationId, role }));
  // Granting by email: no such person (or one who already has a role here) is said under the email.
  if (!result.ok) return refused(result, {}, { fields: { not_found: "email", has_role: "email" } });
  return done(`/users/${result.userId}`, {
    title: "Role granted",
    description: `${result.name} is now ${role} at ${result.location.name}.`,
  });
}

export default function UsersScreen() {
  const { users, total, page, pageCount, q, scope, canWrite } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const fieldErrors: Record<string, string | undefined> = result?.fieldErrors ?? {};
  const where = scope.kind === "location" ? scope.name : "the organization";
  const pageLink = (n: number) => `/users?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">Users</h1>
          <p className="text-slate-600 text-sm">
            {scope.kind === "location"
              ? `People with a role at ${scope.name}.`
              : "Everyone in the organization, with their roles at each location."}
          </p>
        </div>
        {canWrite && (
          <Link to="/users/new" className={LINK_BUTTON}>
            New user
          </Link>
        )}
      </div>

      <Form method="get" action="/users" role="search" className="flex flex-wrap items-end gap-2">
        <div className="min-w-64 flex-1">
          <Field label="Search by name or email" name="q" type="search" required={false} defaultValue={q} />
        </div>
        <Button tone="secondary">Search</Button>
      </Form>

      <DataTable
        caption={`Users at ${where}`}
        columns={["Name", "Email", { label: "Roles", key: true }, { label: "Status", key: true }, "Last sign-in"]}
        rowCount={users.length}
        empty={q ? `No one at ${where} matches “${q}”.` : `No one has a role at ${where} yet.`}
      >
        {users.map((u) => (
          <DataRow key={u.id}>
            <NameCell to={`/users/${u.id}`} name={`${u.firstName} ${u.lastName}`} />
            <td className={`${CELL} text-slate-700`}>{u.email}</td>
            <td className={CELL}>
              <ul className="flex flex-wrap gap-2">
                {u.organizationRole && (
                  <li>
                    <OrganizationAdminBadge />
                  </li>
                )}
                {u.roles.map((r) => (
                  <li key={r.locationId} className="inline-flex items-center gap-1" title={r.name}>
                    <span className={r.active ? "text-slate-700" : "text-slate-400 line-through"}>{r.code}</span>
                    <RoleBadge role={r.role} />
                  </li>
                ))}
                {!u.organizationRole && u.roles.length === 0 && <li className="text-slate-500">No roles</li>}
              </ul>
            </td>
            <td className={CELL}>
              <StatusBadge active={u.active} />
            </td>
            <td className={`${CELL} text-slate-700`}>
              <Time at={u.lastLoginAt} empty="Never" />
            </td>
          </DataRow>
        ))}
      </DataTable>

      <Pagination page={page} pageCount={pageCount} total={total} noun="people" pageLink={pageLink} />

      {canWrite && scope.kind === "location" && (
        <section aria-labelledby="add-existing-title" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="add-existing-title" className="font-semibold text-lg">
            Add someone who already has an account
          </h2>
          <p className="mb-3 text-slate-600 text-sm">
            Give a colleague from another location a role at {scope.name}. Their other roles stay as they are.
          </p>
          <Form method="post" className="flex flex-col gap-3" noValidate>
            <FormAlert message={result?.formError} />
            <div className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-start">
              <Field label="Their email" name="email" idPrefix="existing-" type="email" error={fieldErrors.email} />
              <SelectField
                label={`Role at ${scope.name}`}
                name="role"
                idPrefix="existing-"
                defaultValue="STAFF"
                error={fieldErrors.role}
                options={ROLE_CHOICES.map((r) => ({ value: r, label: r }))}
              />
              <div className="sm:pt-6">
                <Button name="intent" value="grant-role" disabled={busy}>
                  Add to {scope.name}
                </Button>
              </div>
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
