// The current user kept in session storage (spec section 3 and 4, "Session"): saved when the shell
// loads, restored on load, cleared at logout. Corrupt data is discarded with a console error.
// zod/mini: the same checks at a fraction of the weight, since this ships to the browser.
import * as z from "zod/mini";
import type { CurrentUser } from "~/auth/user";

export const SAVED_USER_KEY = "currentUser";

const Role = z.enum(["ADMIN", "MANAGER", "STAFF"]);
const SavedUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.nullable(Role),
  organizationRole: z.nullable(z.literal("ORGANIZATION_ADMIN")),
  locationRoles: z.array(z.object({ locationId: z.string(), role: Role })),
});

export function loadSavedUser(storage: Storage): CurrentUser | null {
  const raw = storage.getItem(SAVED_USER_KEY);
  if (raw === null) return null;
  try {
    return SavedUser.parse(JSON.parse(raw));
  } catch (error) {
    console.error("Discarding corrupt saved user data", error);
    storage.removeItem(SAVED_USER_KEY);
    return null;
  }
}

export function saveUser(storage: Storage, user: CurrentUser): void {
  storage.setItem(SAVED_USER_KEY, JSON.stringify(user));
}

export function clearSavedUser(storage: Storage): void {
  storage.removeItem(SAVED_USER_KEY);
}
