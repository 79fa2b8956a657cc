// The users screens' forms, one zod schema each, shared by the route actions and the pages.
import { z } from "zod";
import { line, pageNumber, searchText, secret } from "~/forms/text";
import { LOCATION_ROLES } from "../../db/schema/people/location-roles";
import { PASSWORD_MIN_LENGTH } from "./constants";

const email = line({ error: "Enter an email address." })
  .trim()
  .toLowerCase()
  .min(1, "Enter an email address.")
  .max(254, "That email address is too long.")
  .email("Enter a valid email address, like name@clinic.com.");

const name = (what: string) =>
  line({ error: `Enter the ${what}.` })
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(100, `The ${what} is too long (at most 100 characters).`);

/** A password someone sets: at least 12 characters, kept exactly as typed (no control characters). */
export const newPassword = secret({ error: "Enter a password." })
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(1024, "That password is too long.");

const role = z.enum(LOCATION_ROLES, { error: "Choose a role: ADMIN, MANAGER or STAFF." });
const locationId = line({ error: "Choose a location." }).trim().min(1, "Choose a location.");

export const CreateUserForm = z
  .object({
    email,
    firstName: name("first name"),
    lastName: name("last name"),
    password: newPassword,
    // "" = no location (organization admins only); the action checks who may choose what.
    locationId: line().trim().default(""),
    role: z.union([role, z.literal("")]).default(""),
  })
  .superRefine((form, ctx) => {
    if (form.locationId && !form.role) ctx.addIssue({ code: "custom", path: ["role"], message: "Choose a role." });
  })
  .transform(({ locationId, role, ...rest }) => ({
    ...rest,
    role: locationId && role ? { locationId, role } : null,
  }));

export const NamesForm = z.object({ firstName: name("first name"), lastName: name("last name") });

export const GrantRoleForm = z.object({ email, locationId, role });
export const RoleForm = z.object({ locationId, role });
export const RevokeRoleForm = z.object({ locationId });
export const ResetPasswordForm = z.object({ password: newPassword });

export const ChangePasswordForm = z
  .object({
    currentPassword: secret({ error: "Enter your current password." })
      .min(1, "Enter your current password.")
      .max(1024, "That password is too long."),
    newPassword,
    confirmPassword: secret({ error: "Type the new password again." }).min(1, "Type the new password again."),
  })
  .superRefine((form, ctx) => {
    if (form.confirmPassword && form.confirmPassword !== form.newPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "The two new passwords do not match." });
    }
    if (form.newPassword && form.newPassword === form.currentPassword) {
      ctx.addIssue({
        code: "custom",
        path: ["newPassword"],
        message: "Choose a new password that is different from your current one.",
      });
    }
  });

/** `?q=` and `?page=` of the users list, forgiving of anything odd in the address bar. */
export const UserListQuery = z.object({
  q: searchText(100),
  page: pageNumber(),
});
