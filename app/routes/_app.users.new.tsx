// /users/new: create a user with an initial password and a role at a location. Location admins
// choose among the locations they administer; organization admins among all, or none yet.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { actorHere } from "~/access/door.server";
import { userAdminLocationIds } from "~/access/may-change";
import { isOrganizationAdmin } from "~/access/permissions";
import { orOutage } from "~/http/outage.server";
import { done, invalid, refused } from "~/http/outcome.server";
import { Field, NewRecordScreen, SelectField } from "~/ui/form";
import { PASSWORD_MIN_LENGTH, ROLE_CHOICES } from "~/users/constants";
import { createUser } from "~/users/create.server";
import { CreateUserForm } from "~/users/forms";

export const meta: MetaFunction = () => [{ title: "New user · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const user = await actorHere(args, "WRITE_USERS");
  const { scope } = user;
  // The session already lists the active locations where the user may manage people.
  const administered = new Set(userAdminLocationIds(user));
  const locations = user.locationRoles
    .filter((r) => administered.has(r.locationId))
    .map((r) => ({ id: r.locationId, label: `${r.location.name} (${r.location.code})` }));
  const organizationAdmin = isOrganizationAdmin(user);
  return {
    locations,
    allowNoLocation: organizationAdmin,
    defaultLocationId: scope.kind === "location" ? scope.locationId : organizationAdmin ? "" : (locations[0]?.id ?? ""),
  };
}

export async function action(args: ActionFunctionArgs) {
  const user = await actorHere(args, "WRITE_USERS");
  const parsed = CreateUserForm.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return invalid(parsed.error);

  const result = await orOutage(createUser(args.context.db, user, parsed.data));
  if (!result.ok) {
    return refused(result, {}, { fields: { email_taken: "email", location_unavailable: "locationId" } });
  }
  const { email, firstName, lastName } = parsed.data;
  return done(`/users?${new URLSearchParams({ q: email })}`, {
    title: "User created",
    description: `${firstName} ${lastName} can sign in with the initial password and will be asked to choose their own.`,
  });
}

export default function NewUserScreen() {
  const { locations, allowNoLocation, defaultLocationId } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors: Record<string, string | undefined> = result?.fieldErrors ?? {};
  const locationOptions = [...(allowNoLocation ? [{ value: "", label: "No location yet" }] : [])].concat(
    locations.map((l) => ({ value: l.id, label: l.label })),
  );

  return (
    <NewRecordScreen
      noun="user"
      back={{ to: "/users", label: "Users" }}
      cardTitle="Account"
      formError={result?.formError}
    >
      <Field label="Email" name="email" type="email" autoComplete="off" error={errors.email} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" name="firstName" autoComplete="off" error={errors.firstName} />
        <Field label="Last name" name="lastName" autoComplete="off" error={errors.lastName} />
      </div>
      <Field
        label="Initial password"
        name="password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters. Give it to them in person; they must change it when they first sign in.`}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Location"
          name="locationId"
          defaultValue={defaultLocationId}
          error={errors.locationId}
          options={locationOptions}
        />
        <SelectField
          label="Role there"
          name="role"
          defaultValue="STAFF"
          error={errors.role}
          options={ROLE_CHOICES.map((r) => ({ value: r, label: r }))}
        />
      </div>
    </NewRecordScreen>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
