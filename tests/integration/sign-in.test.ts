import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitSessionCookie, getSessionUser } from "../../app/auth/session.server";
import { INVALID_CREDENTIALS, signIn, signOut } from "../../app/auth/sign-in.server";
import { THROTTLE } from "../../app/auth/throttle.server";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import * as loginScreen from "../../app/routes/login";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { freshDatabase, type TestDatabase } from "../support/database";
import { REDIRECT_BYPASSES } from "../support/redirect-bypasses";
import { formRequest, loadContext, pageRequest, signedIn } from "../support/screens";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;

beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.close());

async function requestWithSession(token: string) {
  const cookie = (await commitSessionCookie(env, new Request("http://clinic.test/"), token)).split(";")[0];
  return new Request("http://clinic.test/", { headers: { Cookie: cookie ?? "" } });
}

describe("signIn", () => {
  it("signs in a demo user case-insensitively, opens a session and logs it in the same batch", async () => {
    const result = await signIn(t.db, { email: "admin@demo.clinic", password: DEMO_PASSWORD, userAgent: "vitest" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.user).toMatchObject({
      email: "admin@demo.clinic",
      firstName: "Adam",
      lastName: "Admin",
      role: "ADMIN",
      organizationRole: null,
    });

    const user = await getSessionUser(env, t.db, await requestWithSession(result.token));
    expect(user?.email).toBe("admin@demo.clinic");

    const activity = await t.lastActivity();
    expect(activity).toMatchObject({ action: "sign_in", userId: result.user.id, entity: "session" });
    const [account] = await t.db.select().from(schema.users).where(eq(schema.users.id, result.user.id));
    expect(account?.lastLoginAt).toBeInstanceOf(Date);
  });

  it("reports each user's highest role and the organization role", async () => {
    const roleOf = async (email: string) => {
      const r = await signIn(t.db, { email, password: DEMO_PASSWORD, userAgent: null });
      if (!r.ok) throw new Error(r.message);
      return [r.user.role, r.user.organizationRole];
    };
    expect(await roleOf("owner@demo.clinic")).toEqual(["ADMIN", "ORGANIZATION_ADMIN"]);
    expect(await roleOf("manager@demo.clinic")).toEqual(["MANAGER", null]);
    expect(await roleOf("multi@demo.clinic")).toEqual(["STAFF", null]);
    expect(await roleOf("newhire@demo.clinic")).toEqual([null, null]);
  });

  it("refuses a wrong password and an unknown email with the same message, and logs the failure", async () => {
    const wrong = await signIn(t.db, { email: "staff@demo.clinic", password: "nope", userAgent: null });
    expect(wrong).toEqual({ ok: false, status: 401, message: INVALID_CREDENTIALS });
    expect(await t.lastActivity()).toMatchObject({ action: "sign_in_failed", summary: { email: "staff@demo.clinic" } });

    const unknown = await signIn(t.db, { email: "nobody@demo.clinic", password: DEMO_PASSWORD, userAgent: null });
    expect(unknown).toEqual({ ok: false, status: 401, message: INVALID_CREDENTIALS });
    expect(await t.lastActivity()).toMatchObject({ action: "sign_in_failed", userId: null });
  });

  it("refuses a deactivated account even with the right password", async () => {
    await t.db.update(schema.users).set({ active: false }).where(eq(schema.users.email, "newhire@demo.clinic"));
    const result = await signIn(t.db, { email: "newhire@demo.clinic", password: DEMO_PASSWORD, userAgent: null });
    expect(result).toMatchObject({ ok: false, status: 403 });
    await t.db.update(schema.users).set({ active: true }).where(eq(schema.users.email, "newhire@demo.clinic"));
  });

  it("costs two round trips: one lookup, one batch", async () => {
    t.resetRoundTrips();
    await signIn(t.db, { email: "staff@demo.clinic", password: DEMO_PASSWORD, userAgent: null });
    expect(t.roundTrips()).toBe(2);
  });
});

describe("sessions", () => {
  it("ends server-side at sign-out: the same cookie no longer works", async () => {
    const result = await signIn(t.db, { email: "staff@demo.clinic", password: DEMO_PASSWORD, userAgent: null });
    if (!result.ok) throw new Error(result.message);
    const request = await requestWithSession(result.token);
    const user = await getSessionUser(env, t.db, request);
    if (!user) throw new Error("expected a session");

    await signOut(t.db, user);
    expect(await getSessionUser(env, t.db, request)).toBeNull();
    expect(await t.lastActivity()).toMatchObject({ action: "sign_out", userId: user.id });
  });

  it("ignores a cookie signed with another secret, and an expired session", async () => {
    const result = await signIn(t.db, { email: "staff@demo.clinic", password: DEMO_PASSWORD, userAgent: null });
    if (!result.ok) throw new Error(result.message);
    const request = await requestWithSession(result.token);
    expect(await getSessionUser({ SESSION_SECRET: "other" } as Env, t.db, request)).toBeNull();

    await t.db.update(schema.sessions).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await getSessionUser(env, t.db, request)).toBeNull();
  });

  it("stores only a hash of the token", async () => {
    const result = await signIn(t.db, { email: "staff@demo.clinic", password: DEMO_PASSWORD, userAgent: null });
    if (!result.ok) throw new Error(result.message);
    const rows = await t.db.select({ id: schema.sessions.id }).from(schema.sessions);
    expect(rows.some((r) => r.id === result.token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.id))).toBe(true);
  });
});

describe("activity log", () => {
  it("is append-only: the database refuses updates and deletes", async () => {
    // drizzle wraps the driver's error; the trigger's message is on its cause.
    const refusal = (e: unknown) => String((e as Error & { cause?: Error }).cause?.message);
    await expect(t.db.run(sql`UPDATE activity_log SET action = 'x'`).catch(refusal)).resolves.toMatch(/append-only/);
    await expect(t.db.run(sql`DELETE FROM activity_log`).catch(refusal)).resolves.toMatch(/append-only/);
  });
});

describe("repeated failed sign-ins", () => {
  it("lock the account after five failures, even for the right password, with a clear message", async () => {
    const email = "multi@demo.clinic";
    const waits: number[] = [];
    const sleep = async (ms: number) => waits.push(ms);
    for (let i = 0; i < THROTTLE.accountLimit; i++) {
      expect(await signIn(t.db, { email, password: `guess-${i}`, userAgent: null }, { sleep })).toMatchObject({
        status: 401,
      });
    }
    // Slowed from the third failure on, a little more each time.
    expect(waits).toEqual([500, 1000, 1500]);
    const refused = await signIn(t.db, { email, password: DEMO_PASSWORD, userAgent: null });
    expect(refused).toMatchObject({ ok: false, status: 429 });
    if (refused.ok) return;
    expect(refused.message).toMatch(/^Too many failed sign-in attempts\. Wait 15 minutes and try again/);
    expect(await t.lastActivity()).toMatchObject({ action: "sign_in_refused", summary: { email } });

    // When the lock has run out, the right password works again and clears the count.
    await t.db
      .update(schema.signInThrottle)
      .set({ lockedUntil: new Date(Date.now() - 1), windowStartedAt: new Date(Date.now() - THROTTLE.windowMs - 1) })
      .where(eq(schema.signInThrottle.key, `account:${email}`));
    expect(await signIn(t.db, { email, password: DEMO_PASSWORD, userAgent: null })).toMatchObject({ ok: true });
    const left = await t.db
      .select()
      .from(schema.signInThrottle)
      .where(eq(schema.signInThrottle.key, `account:${email}`));
    expect(left).toEqual([]);
  });

  it("lock a client address that guesses across many accounts", async () => {
    const clientIp = "203.0.113.9";
    const sleep = async () => {};
    for (let i = 0; i < THROTTLE.clientLimit; i++) {
      await signIn(t.db, { email: `nobody${i}@demo.clinic`, password: "x", userAgent: null, clientIp }, { sleep });
    }
    const fromThatClient = await signIn(t.db, {
      email: "admin@demo.clinic",
      password: DEMO_PASSWORD,
      userAgent: null,
      clientIp,
    });
    expect(fromThatClient).toMatchObject({ ok: false, status: 429 });
    const fromElsewhere = await signIn(t.db, {
      email: "admin@demo.clinic",
      password: DEMO_PASSWORD,
      userAgent: null,
      clientIp: "198.51.100.1",
    });
    expect(fromElsewhere).toMatchObject({ ok: true });
  });
});

describe("the login screen's redirect after sign-in", () => {
  const ORIGIN = "http://clinic.test";
  /** The Location a route answered, and whether a browser following it would stay on this site. */
  async function locationOf(answer: Promise<unknown>) {
    const response = await answer.then(
      (r) => r,
      (thrown) => thrown,
    );
    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.status).toBe(302);
    const location = response.headers.get("Location") ?? "";
    return { location, staysHere: new URL(location, ORIGIN).origin === ORIGIN && /^\/(?![/\\])/.test(location) };
  }

  it("sends a fresh sign-in back to the page asked for", async () => {
    const answer = loginScreen.action({
      request: formRequest("/login", "", {
        email: "staff@demo.clinic",
        password: DEMO_PASSWORD,
        redirectTo: "/products?page=2",
      }),
      context: loadContext(t.db, env),
      params: {},
    });
    expect(await locationOf(answer)).toEqual({ location: "/products?page=2", staysHere: true });
  });

  it.each(REDIRECT_BYPASSES)("keeps a sign-in asked to go to %j on this site", async (redirectTo) => {
    const answer = loginScreen.action({
      request: formRequest("/login", "", { email: "staff@demo.clinic", password: DEMO_PASSWORD, redirectTo }),
      context: loadContext(t.db, env),
      params: {},
    });
    expect(await locationOf(answer)).toEqual({ location: "/", staysHere: true });
  });

  it("keeps someone already signed in on this site, whatever the link says", async () => {
    const { cookie } = await signedIn(t.db, "staff", env);
    const links = [
      "/login?redirectTo=/%09/evil.example", // the form the review found: answered "/\t/evil.example"
      "/login?redirectTo=%2F%2Fevil.example",
      ...REDIRECT_BYPASSES.map((target) => `/login?redirectTo=${encodeURIComponent(target)}`),
    ];
    for (const link of links) {
      const answer = loginScreen.loader({
        request: pageRequest(link, cookie),
        context: loadContext(t.db, env),
        params: {},
      });
      expect(await locationOf(answer), link).toEqual({ location: "/", staysHere: true });
    }
  });
});
