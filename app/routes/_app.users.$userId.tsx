// /users/:userId: one person, their roles per location, and what the viewer may change: roles at
// locations where they manage people; names, password and access if they manage the account.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { canManageAccount, canManageRolesAt, userAdminLocationIds } from "~/access/may-change";
import { orOutage } from "~/http/outage.server";
import { intentOf } from "~/http/outcome.server";
import { area } from "~/shell/areas";
import { recordErrorBoundary } from "~/shell/screen-error-boundary";
import { showInstant, Time } from "~/ui/dates";
import { Button, Card, Field, FormAlert, OrganizationAdminBadge, SelectField } from "~/ui/form";
import { RecordHeader } from "~/ui/record-screen";
import { RoleBadge } from "~/ui/role-badge";
import { PASSWORD_MIN_LENGTH, ROLE_CHOICES, USER_INTENTS, type UserIntent } from "~/users/constants";
import { USER_INTENT_HANDLERS } from "~/users/intents.server";
import { userDetail } from "~/users/list.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `${data.user.firstName} ${data.user.lastName}` : "User"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/users").permission);
  const found = await orOutage(
    userDetail(args.context.db, { user: actor, scope: actor.scope }, args.params.userId ?? ""),
  );
  if (!found) throw data("This user was not found here.", { status: 404 });
  const { user, timezone } = found;
  const self = user.id === actor.id;
  const held = new Set(user.roles.map((r) => r.locationId));
  return {
    user: { ...user, lastLoginAt: showInstant(user.lastLoginAt, timezone) },
    roles: user.roles.map((r) => ({ ...r, manageable: canManageRolesAt(actor, r.locationId) })),
    grantable: actor.locationRoles
      .filter((r) => userAdminLocationIds(actor).includes(r.locationId) && !held.has(r.locationId))
      .map((r) => ({ value: r.locationId, label: `${r.location.name} (${r.location.code})` })),
    manageAccount: canManageAccount(actor, user),
    self,
  };
}

export async function action(args: ActionFunctionArgs) {
  const form = Object.fromEntries(await args.request.formData());
  const actor = await actorHere(args, "WRITE_USERS");
  const intent = intentOf(form, USER_INTENTS);
  const userId = args.params.userId ?? "";
  return USER_INTENT_HANDLERS[intent]({ db: args.context.db, actor, userId, form });
}

export default function UserScreen() {
  const { user, roles, grantable, manageAccount, self } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errorsFor = (intent: UserIntent, locationId?: string) =>
    failure && failure.intent === intent && (locationId === undefined || failure.locationId === locationId)
      ? failure
      : null;
  const roleOptions = ROLE_CHOICES.map((r) => ({ value: r, label: r }));

  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <RecordHeader
        back={{ to: "/users", label: "Users" }}
        title={`${user.firstName} ${user.lastName}`}
        active={user.active}
        statusLabels={["Active", "Inactive"]}
        badges={user.organizationRole && <OrganizationAdminBadge />}
      >
        <p className="text-slate-600">{user.email}</p>
        <p className="text-slate-600 text-sm">
          Last sign-in: <Time at={user.lastLoginAt} empty="Never" />
          {user.mustChangePassword && " · Must choose a new password at the next sign-in"}
        </p>
      </RecordHeader>

      <Card title="Roles">
        {user.organizationRole && (
          <p className="mb-3 text-slate-600 text-sm">
            As an organization admin, {user.firstName} administers every location.
          </p>
        )}
        <FormAlert message={errorsFor("revoke-role")?.formError} />
        <ul className="flex flex-col divide-y divide-slate-100">
          {roles.map((r) => {
            const failed = errorsFor("change-role", r.locationId);
            return (
              <li key={r.locationId} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="flex items-center gap-2">
                  <span className="font-medium">{r.name}</span>
                  <span className="text-slate-500 text-sm">{r.code}</span>
                  {!r.active && <span className="text-slate-500 text-xs">(archived)</span>}
                  <RoleBadge role={r.role} />
                </div>
                {r.manageable ? (
                  <div className="flex flex-wrap items-start gap-2">
                    <Form method="post" className="flex items-center gap-2">
                      <input type="hidden" name="locationId" value={r.locationId} />
                      <SelectField
                        id={`role-${r.locationId}`}
                        label={`Role at ${r.name}`}
                        labelHidden
                        name="role"
                        defaultValue={r.role}
                        options={roleOptions}
                        controlClassName="w-auto"
                      />
                      <Button tone="secondary" name="intent" value="change-role" disabled={busy}>
                        Change role<span className="sr-only"> at {r.name}</span>
                      </Button>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="locationId" value={r.locationId} />
                      <Button tone="danger" name="intent" value="revoke-role" disabled={busy}>
                        Remove<span className="sr-only"> role at {r.name}</span>
                      </Button>
                    </Form>
                    {failed?.formError && (
                      <p role="alert" className="w-full text-red-700 text-sm">
                        {failed.formError}
                      </p>
                    )}
                  </div>
                ) : (
                  <span className="text-slate-500 text-sm">Managed by {r.name}'s admins</span>
                )}
              </li>
            );
          })}
          {roles.length === 0 && <li className="py-3 text-slate-600 text-sm">No role at any location.</li>}
        </ul>

        {grantable.length > 0 && (
          <Form method="post" className="mt-3 flex flex-col gap-3 border-slate-100 border-t pt-3" noValidate>
            <h3 className="font-medium">Grant a role</h3>
            <FormAlert message={errorsFor("grant-role")?.formError} />
            <div className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
              <SelectField
                label="Location"
                name="locationId"
                idPrefix="grant-"
                options={grantable}
                error={errorsFor("grant-role")?.fieldErrors.locationId}
              />
              <SelectField
                label="Role"
                name="role"
                idPrefix="grant-"
                defaultValue="STAFF"
                options={roleOptions}
                error={errorsFor("grant-role")?.fieldErrors.role}
              />
              <Button name="intent" value="grant-role" disabled={busy}>
                Grant role
              </Button>
            </div>
          </Form>
        )}
      </Card>

      {manageAccount && (
        <Card title="Name">
          <Form method="post" className="flex flex-col gap-3" noValidate>
            <FormAlert message={errorsFor("update-names")?.formError} />
            <div className="grid gap-3 sm:grid-cols-2">
              <Field
                label="First name"
                name="firstName"
                defaultValue={user.firstName}
                error={errorsFor("update-names")?.fieldErrors.firstName}
              />
              <Field
                label="Last name"
                name="lastName"
                defaultValue={user.lastName}
                error={errorsFor("update-names")?.fieldErrors.lastName}
              />
            </div>
            <div>
              <Button name="intent" value="update-names" disabled={busy}>
                Save name
              </Button>
            </div>
          </Form>
        </Card>
      )}

      {manageAccount && !self && (
        <Card title="Password">
          <Form method="post" className="flex flex-col gap-3" noValidate>
            <FormAlert message={errorsFor("reset-password")?.formError} />
            <Field
              label="New initial password"
              name="password"
              type="password"
              autoComplete="new-password"
              hint={`At least ${PASSWORD_MIN_LENGTH} characters. ${user.firstName} is signed out everywhere and must choose a new password at the next sign-in.`}
              error={errorsFor("reset-password")?.fieldErrors.password}
            />
            <div>
              <Button tone="secondary" name="intent" value="reset-password" disabled={busy}>
                Reset password
              </Button>
            </div>
          </Form>
        </Card>
      )}

      {manageAccount && !self && (
        <Card title="Access">
          <FormAlert message={(errorsFor("deactivate") ?? errorsFor("reactivate"))?.formError} />
          <Form method="post" className="flex flex-wrap items-center gap-3">
            {user.active ? (
              <>
                <p className="text-slate-600 text-sm">
                  Deactivating signs {user.firstName} out everywhere and stops them signing in. Their history stays.
                </p>
                <Button tone="danger" name="intent" value="deactivate" disabled={busy}>
                  Deactivate user
                </Button>
              </>
            ) : (
              <>
                <p className="text-slate-600 text-sm">{user.firstName} cannot sign in while deactivated.</p>
                <Button name="intent" value="reactivate" disabled={busy}>
                  Reactivate user
                </Button>
              </>
            )}
          </Form>
        </Card>
      )}
    </div>
  );
}

export const ErrorBoundary = recordErrorBoundary({
  title: "User not found",
  text: "This person does not exist, or has no role at the location you are working at. Switch location or search the list.",
  back: { to: "/users", label: "Back to Users" },
});
