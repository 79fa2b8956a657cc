// The users verbs' refusals: their names and messages (the Outcome shape is app/outcome.ts).
import { type Outcome as AnyOutcome, type Refused, refusalsOf } from "~/outcome";

export const { messages: USER_REFUSALS, refuse } = refusalsOf({
  not_found: "That user does not exist in your organization.",
  email_taken: "A user with this email address already exists.",
  yourself: "You cannot do that to your own account.",
  last_organization_admin:
    "This is the last active organization admin. Make someone else an organization admin first, so the organization is never left without one.",
  location_unavailable: "That location is archived or does not exist.",
  has_role: "This user already has a role at that location. Change it on their page instead.",
  no_role: "This user has no role at that location.",
  already_inactive: "This user is already deactivated.",
  already_active: "This user is already active.",
  wrong_password: "Your current password is not correct.",
  same_password: "Choose a new password that is different from your current one.",
  changed_meanwhile: "Your password was changed in the meantime. Sign in again and retry.",
});

export type UserRefusal = keyof typeof USER_REFUSALS;
// A second parameter for verbs that refuse more than the users verbs (change-password's throttle).
export type Outcome<T extends object = object, R extends string = UserRefusal> = AnyOutcome<T, R>;
export type UserRefused = Refused<UserRefusal>;
