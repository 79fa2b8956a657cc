// Signed, HttpOnly, SameSite cookie sessions backed by a revocable `sessions` row.
// The cookie holds a random token; the row is keyed by its SHA-256, so neither a stolen cookie
// secret alone nor a copy of the database alone yields a working session.
import { createCookie } from "@remix-run/cloudflare";
import { and, asc, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { schema } from "~/db/client.server";
import { type Env, sessionSecrets } from "~/env.server";
import { sha256Hex } from "~/sha256";
import type { LocationRole } from "../../db/schema";

/** A clinic shift: a session ends after 12 hours, whatever happens in between. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  organizationRole: "ORGANIZATION_ADMIN" | null;
  mustChangePassword: boolean;
  sessionId: string;
  /**
   * Active locations the user works at, by name, in the shape of /api/locations/my (spec section 7),
   * with each one's time zone: a screen reads dates in it without a round trip of its own.
   */
  locationRoles: {
    locationId: string;
    role: LocationRole;
    location: { name: string; code: string; timeZone: string };
  }[];
}

function sessionCookie(env: Env, request: Request) {
  return createCookie("__session", {
    secrets: sessionSecrets(env),
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    // Local development runs on plain http; anything served over https gets Secure cookies.
    secure: new URL(request.url).protocol === "https:",
    maxAge: SESSION_LIFETIME_MS / 1000,
  });
}

export function newSessionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

export async function sessionIdOf(token: string): Promise<string> {
  return sha256Hex(token);
}

/** The Set-Cookie header that hands a freshly minted token to the browser. */
export function commitSessionCookie(env: Env, request: Request, token: string): Promise<string> {
  return sessionCookie(env, request).serialize(token);
}

export function clearSessionCookie(env: Env, request: Request): Promise<string> {
  return sessionCookie(env, request).serialize("", { maxAge: 0 });
}

async function sessionIdFromRequest(env: Env, request: Request): Promise<string | null> {
  const token: unknown = await sessionCookie(env, request).parse(request.headers.get("Cookie"));
  return typeof token === "string" && token.length > 0 ? sessionIdOf(token) : null;
}

/** The signed-in user with their location roles, or null. One database round trip. */
export async function getSessionUser(env: Env, db: Database, request: Request): Promise<SessionUser | null> {
  const sessionId = await sessionIdFromRequest(env, request);
  if (!sessionId) return null;
  const live = and(
    eq(schema.sessions.id, sessionId),
    isNull(schema.sessions.revokedAt),
    gt(schema.sessions.expiresAt, new Date()),
    eq(schema.users.active, true),
  );
  const [users, roles] = await db.batch([
    db
      .select({
        id: schema.users.id,
        email: schema.users.email,
        firstName: schema.users.firstName,
        lastName: schema.users.lastName,
        organizationRole: schema.users.organizationRole,
        mustChangePassword: schema.users.mustChangePassword,
      })
      .from(schema.sessions)
      .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
      .where(live)
      .limit(1),
    // Assigned locations: where the user holds a role; an organization admin administers them all.
    db
      .select({
        locationId: schema.locations.id,
        role: sql<LocationRole>`CASE WHEN ${schema.users.organizationRole} = 'ORGANIZATION_ADMIN' THEN 'ADMIN' ELSE ${schema.userLocationRoles.role} END`,
        name: schema.locations.name,
        code: schema.locations.code,
        timeZone: schema.locations.timezone,
      })
      .from(schema.sessions)
      .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
      .innerJoin(schema.locations, eq(schema.locations.organizationId, schema.users.organizationId))
      .leftJoin(
        schema.userLocationRoles,
        and(
          eq(schema.userLocationRoles.userId, schema.users.id),
          eq(schema.userLocationRoles.locationId, schema.locations.id),
        ),
      )
      .where(
        and(
          live,
          eq(schema.locations.active, true),
          or(isNotNull(schema.userLocationRoles.role), eq(schema.users.organizationRole, "ORGANIZATION_ADMIN")),
        ),
      )
      .orderBy(asc(schema.locations.name)),
  ]);
  const user = users[0];
  if (!user) return null;
  return {
    ...user,
    organizationRole: user.organizationRole ?? null,
    sessionId,
    locationRoles: roles.map((r) => ({
      locationId: r.locationId,
      role: r.role,
      location: { name: r.name, code: r.code, timeZone: r.timeZone },
    })),
  };
}

/** The statements that open a session; the caller batches them with its other writes. */
export function openSession(db: Database, userId: string, sessionId: string, userAgent: string | null) {
  const now = new Date();
  return db.insert(schema.sessions).values({
    id: sessionId,
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
}

export function revokeSession(db: Database, sessionId: string) {
  return db
    .update(schema.sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(schema.sessions.id, sessionId), isNull(schema.sessions.revokedAt)));
}
