// The user page's actions (/users/:userId), one small handler per intent: parse its form, call one
// users verb, answer with the shared glue (app/http/outcome.server.ts). The route only reads the
// intent, checks WRITE_USERS and looks the handler up in USER_INTENT_HANDLERS.
import type { ActorHere } from "~/access/door.server";
import type { Database } from "~/db/client.server";
import { orOutage } from "~/http/outage.server";
import { done, type FormAnswer, type FormProblem, invalid, refused } from "~/http/outcome.server";
import type { UserIntent } from "./constants";
import { deactivateUser, reactivateUser } from "./deactivate.server";
import { NamesForm, ResetPasswordForm, RevokeRoleForm, RoleForm } from "./forms";
import { resetPassword } from "./password.server";
import { changeRole, grantRole, revokeRole } from "./roles.server";
import { updateUserNames } from "./update.server";

export interface IntentArgs {
  db: Database;
  actor: ActorHere;
  userId: string;
  form: Record<string, FormDataEntryValue>;
}

/** What a refused form on the user page gets back: shown next to that form (and role row) only. */
export type UserFailure = FormProblem & { intent: UserIntent; locationId?: string };

const pageOf = (userId: string) => `/users/${userId}`;

async function updateNames({ db, actor, userId, form }: IntentArgs) {
  const intent = "update-names";
  const parsed = NamesForm.safeParse(form);
  if (!parsed.success) return invalid(parsed.error, { intent });
  const result = await orOutage(updateUserNames(db, actor, { userId, ...parsed.data }));
  if (!result.ok) return refused(result, { intent });
  const { firstName, lastName } = parsed.data;
  return done(pageOf(userId), "Changes saved", `${firstName} ${lastName}'s name is up to date.`);
}

/** Give a role at a location they have none at, or change the one they have there. */
function setRole(intent: "grant-role" | "change-role") {
  return async ({ db, actor, userId, form }: IntentArgs) => {
    const locationId = typeof form.locationId === "string" ? form.locationId : undefined;
    const parsed = RoleForm.safeParse(form);
    if (!parsed.success) return invalid(parsed.error, { intent, locationId });
    const result = await orOutage(
      intent === "grant-role"
        ? grantRole(db, actor, { user: { id: userId }, ...parsed.data })
        : changeRole(db, actor, { userId, ...parsed.data }),
    );
    if (!result.ok) return refused(result, { intent, locationId });
    return done(
      pageOf(userId),
      intent === "grant-role" ? "Role granted" : "Role changed",
      `${result.name} is now ${parsed.data.role} at ${result.location.name}.`,
    );
  };
}

async function revoke({ db, actor, userId, form }: IntentArgs) {
  const intent = "revoke-role";
  const parsed = RevokeRoleForm.safeParse(form);
  if (!parsed.success) return invalid(parsed.error, { intent });
  const { locationId } = parsed.data;
  const result = await orOutage(revokeRole(db, actor, { userId, locationId }));
  if (!result.ok) return refused(result, { intent, locationId });
  // Without a role at the location in scope, they are no longer listed here: back to the list.
  const gone = actor.scope.kind === "location" && actor.scope.locationId === locationId;
  return done(
    gone ? "/users" : pageOf(userId),
    "Role removed",
    `${result.name} no longer has a role at ${result.location.name}.`,
  );
}

async function deactivate({ db, actor, userId }: IntentArgs) {
  const result = await orOutage(deactivateUser(db, actor, userId));
  if (!result.ok) return refused(result, { intent: "deactivate" });
  return done(
    pageOf(userId),
    "User deactivated",
    `${result.name} can no longer sign in and was signed out everywhere.`,
  );
}

async function reactivate({ db, actor, userId }: IntentArgs) {
  const result = await orOutage(reactivateUser(db, actor, userId));
  if (!result.ok) return refused(result, { intent: "reactivate" });
  return done(pageOf(userId), "User reactivated", `${result.name} can sign in again.`);
}

async function reset({ db, actor, userId, form }: IntentArgs) {
  const intent = "reset-password";
  const parsed = ResetPasswordForm.safeParse(form);
  if (!parsed.success) return invalid(parsed.error, { intent });
  const result = await orOutage(resetPassword(db, actor, { userId, password: parsed.data.password }));
  if (!result.ok) return refused(result, { intent });
  return done(
    pageOf(userId),
    "Password reset",
    `${result.name} was signed out everywhere and must choose a new password at the next sign-in.`,
  );
}

export const USER_INTENT_HANDLERS: Record<UserIntent, (args: IntentArgs) => FormAnswer<UserFailure>> = {
  "update-names": updateNames,
  "grant-role": setRole("grant-role"),
  "change-role": setRole("change-role"),
  "revoke-role": revoke,
  deactivate,
  reactivate,
  "reset-password": reset,
};
