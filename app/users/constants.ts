// Plain values the users pages render; kept apart from the zod schemas so the browser does not
// download zod to learn a number.
import { LOCATION_ROLES } from "../../db/schema/people/location-roles";

export const PASSWORD_MIN_LENGTH = 12;
export const ROLE_CHOICES = LOCATION_ROLES;

export const USER_INTENTS = [
  "update-names",
  "change-role",
  "grant-role",
  "revoke-role",
  "deactivate",
  "reactivate",
  "reset-password",
] as const;
export type UserIntent = (typeof USER_INTENTS)[number];
