// What a users verb answers: done, or refused for a named reason the route turns into a message
// (or a 403/404). Refusals are expected outcomes, not exceptions.

export type UserRefusal =
  | "forbidden"
  | "not_found"
  | "email_taken"
  | "yourself"
  | "last_organization_admin"
  | "location_unavailable"
  | "has_role"
  | "no_role"
  | "already_inactive"
  | "already_active"
  | "wrong_password"
  | "same_password"
  | "changed_meanwhile";

export interface Refused<R extends string = UserRefusal> {
  ok: false;
  refusal: R;
  message: string;
}

export type Outcome<T extends object = object, R extends string = UserRefusal> = ({ ok: true } & T) | Refused<R>;

export const USER_REFUSALS: Record<UserRefusal, string> = {
  forbidden: "You do not have permission to access this resource. Please contact your administrator.",
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
};

export function refuse<R extends UserRefusal>(refusal: R, message = USER_REFUSALS[refusal]): Refused<R> {
  return { ok: false, refusal, message };
}
