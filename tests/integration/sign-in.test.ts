import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitSessionCookie, getSessionUser } from "../../app/auth/session.server";
import { INVALID_CREDENTIALS, signIn, signOut } from "../../app/auth/sign-in.server";
import { THROTTLE } from "../../app/auth/throttle.server";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import * as loginScreen from "../../app/routes/login";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
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
  const noWait = async () => {};
  const attempt = (
    email: string,
    password: string,
    clientIp?: string,
    sleep: (ms: number) => Promise<unknown> = noWait,
  ) => signIn(t.db, { email, password, userAgent: null, clientIp }, { sleep });
  const statuses = (results: { ok: boolean; status?: number }[]) =>
    results.map((r) => (r.ok ? 200 : r.status)).sort((a, b) => (a ?? 0) - (b ?? 0));
  /** Ends every lock and window on `email`'s keys, as if the lock had run out. */
  const letLocksRunOut = (email: string) =>
    t.db.run(sql`UPDATE sign_in_throttle SET locked_until = ${Date.now() - 1},
      window_started_at = ${Date.now() - THROTTLE.windowMs - 1}
      WHERE key = ${`account:${email}`} OR substr(key, 1, ${`pair:${email}|`.length}) = ${`pair:${email}|`}`);
  const throttleRows = (email: string) =>
    t.db.all<{ key: string; failures: number }>(sql`SELECT key, failures FROM sign_in_throttle
      WHERE key = ${`account:${email}`} OR substr(key, 1, ${`pair:${email}|`.length}) = ${`pair:${email}|`}`);
  const failuresLogged = async (email: string) =>
    (
      await t.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM activity_log
        WHERE action = 'sign_in_failed' AND json_extract(summary, '$.email') = ${email}`)
    )[0]?.n;

  it("lock the account from that address after five failures, even for the right password, with a clear message", async () => {
    const email = "multi@demo.clinic";
    const waits: number[] = [];
    const sleep = async (ms: number) => waits.push(ms);
    for (let i = 0; i < THROTTLE.pairLimit; i++) {
      expect(await attempt(email, `guess-${i}`, undefined, sleep)).toMatchObject({ status: 401 });
    }
    // Slowed from the third failure on, a little more each time.
    expect(waits).toEqual([500, 1000, 1500]);
    const refused = await attempt(email, DEMO_PASSWORD);
    expect(refused).toMatchObject({ ok: false, status: 429 });
    if (refused.ok) return;
    expect(refused.message).toMatch(/^Too many failed sign-in attempts\. Wait 15 minutes and try again/);
    expect(await t.lastActivity()).toMatchObject({ action: "sign_in_refused", summary: { email } });

    // When the lock has run out, the right password works again and clears the count.
    await letLocksRunOut(email);
    expect(await attempt(email, DEMO_PASSWORD)).toMatchObject({ ok: true });
    expect(await throttleRows(email)).toEqual([]);
  });

  it("let at most the limit of 30 parallel guesses reach the password check; the rest are refused", async () => {
    const email = "manager@demo.clinic";
    const guesses = Array.from({ length: 30 }, (_, i) => attempt(email, `parallel-guess-${i}`, "198.51.100.30"));
    const results = await Promise.all(guesses);
    expect(statuses(results)).toEqual([
      ...Array(THROTTLE.pairLimit).fill(401),
      ...Array(30 - THROTTLE.pairLimit).fill(429),
    ]);
    expect(await failuresLogged(email)).toBe(THROTTLE.pairLimit);
    // Locked for the right password too, from that address.
    expect(await attempt(email, DEMO_PASSWORD, "198.51.100.30")).toMatchObject({ status: 429 });
    await letLocksRunOut(email);
  });

  it("never count a right password: eight parallel right sign-ins all get in, and nothing is left counted", async () => {
    const email = "admin@demo.clinic";
    const results = await Promise.all(Array.from({ length: 8 }, () => attempt(email, DEMO_PASSWORD, "198.51.100.40")));
    expect(statuses(results)).toEqual(Array(8).fill(200));
    expect(await throttleRows(email)).toEqual([]);
  });

  it("lock an account guessed from many addresses at once after the account's limit", async () => {
    const email = "newhire@demo.clinic";
    const guesses = Array.from({ length: 30 }, (_, i) => attempt(email, `spread-guess-${i}`, `192.0.2.${i + 1}`));
    const results = await Promise.all(guesses);
    expect(statuses(results)).toEqual([
      ...Array(THROTTLE.accountLimit).fill(401),
      ...Array(30 - THROTTLE.accountLimit).fill(429),
    ]);
    expect(await attempt(email, DEMO_PASSWORD, "192.0.2.200")).toMatchObject({ status: 429 });
    await letLocksRunOut(email);
    expect(await attempt(email, DEMO_PASSWORD, "192.0.2.200")).toMatchObject({ ok: true });
  });

  it("never lock a shared clinic address: colleagues still sign in while a guesser there is locked out", async () => {
    const clinic = "203.0.113.9";
    // Someone at the front desk guesses a colleague's password until that pair is locked...
    for (let i = 0; i < THROTTLE.pairLimit; i++) await attempt("staff@demo.clinic", `guess-${i}`, clinic);
    expect(await attempt("staff@demo.clinic", "guess-again", clinic)).toMatchObject({ status: 429 });
    // ...then tries twenty other accounts from the same address.
    for (let i = 0; i < 20; i++) await attempt(`nobody${i}@demo.clinic`, "x", clinic);

    // A colleague behind the same address signs in to their own account.
    expect(await attempt("admin@demo.clinic", DEMO_PASSWORD, clinic)).toMatchObject({ ok: true });
    // The guessed account is open from anywhere else.
    expect(await attempt("staff@demo.clinic", DEMO_PASSWORD, "198.51.100.1")).toMatchObject({ ok: true });

    // The address's failures still slow its wrong answers, on any account.
    const waits: number[] = [];
    expect(
      await attempt("owner@demo.clinic", "typo", clinic, async (ms) => {
        waits.push(ms);
      }),
    ).toMatchObject({ status: 401 });
    expect(waits).toEqual([THROTTLE.slowMaxMs]);
    await letLocksRunOut("staff@demo.clinic");
  });

  it("give a right password's attempt back: the account's count is cleared, the address keeps its failures", async () => {
    const email = "owner@demo.clinic";
    const client = "198.51.100.77";
    await attempt(email, "typo-1", client);
    await attempt(email, "typo-2", client);
    expect(await throttleRows(email)).toContainEqual({ key: `pair:${email}|${client}`, failures: 2 });
    expect(await attempt(email, DEMO_PASSWORD, client)).toMatchObject({ ok: true });
    const left = (await throttleRows(email)).map((r) => r.key);
    expect(left).not.toContain(`pair:${email}|${client}`);
    expect(left).not.toContain(`account:${email}`);
    const [address] = await t.db
      .select()
      .from(schema.signInThrottle)
      .where(eq(schema.signInThrottle.key, `client:${client}`));
    expect(address?.failures).toBe(2);
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
