// Which location the user is working at (spec section 4, "Location selection"). The choice lives in
// a cookie so the server renders the right location on the first byte; the browser mirrors it in
// local storage under the spec's keys. The server never trusts it: it is checked against the roles.
import { createCookie } from "@remix-run/cloudflare";
import { z } from "zod";
import type { SessionUser } from "~/auth/session.server";
import { isOrganizationAdmin, ORGANIZATION } from "./permissions";

const ONE_YEAR_S = 365 * 24 * 60 * 60;

const locationCookie = createCookie("location", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: ONE_YEAR_S,
});

const Choice = z.object({
  selectedLocationId: z.string().nullable().catch(null),
  isOrganizationMode: z.boolean().catch(false),
});
export type LocationChoice = z.infer<typeof Choice>;

const NO_CHOICE: LocationChoice = { selectedLocationId: null, isOrganizationMode: false };

export async function readLocationChoice(request: Request): Promise<LocationChoice> {
  const raw: unknown = await locationCookie.parse(request.headers.get("Cookie"));
  const parsed = Choice.safeParse(raw);
  return parsed.success ? parsed.data : NO_CHOICE;
}

export function saveLocationChoice(choice: LocationChoice): Promise<string> {
  return locationCookie.serialize(choice);
}

/** Where the user is working now: one location, the whole organization, or nowhere (no roles). */
export type Scope =
  | { kind: "location"; locationId: string; name: string; code: string; role: string }
  | { kind: "organization"; locationId: typeof ORGANIZATION }
  | { kind: "none"; locationId: null };

/**
 * Resolves the saved choice against what the user may use: organization mode only for
 * organization admins; a location only if the user has a role there; otherwise the first
 * assigned location (spec: "the first assigned location is chosen automatically").
 */
export function resolveScope(user: SessionUser, choice: LocationChoice): Scope {
  if (choice.isOrganizationMode && isOrganizationAdmin(user)) {
    return { kind: "organization", locationId: ORGANIZATION };
  }
  const chosen =
    user.locationRoles.find((r) => r.locationId === choice.selectedLocationId) ?? user.locationRoles[0] ?? null;
  if (!chosen) return { kind: "none", locationId: null };
  return { kind: "location", locationId: chosen.locationId, role: chosen.role, ...chosen.location };
}
