// The users domain verbs against a real database: who may do what to whom, the SQL guards (email
// uniqueness, the last organization admin), sessions ended in the same batch, one activity row per
// change and none for a refusal, and what each costs in round trips.
import { and, count, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canManageAccount } from "../../app/access/may-change";
import { ORGANIZATION } from "../../app/access/permissions";
import { commitSessionCookie, getSessionUser, type SessionUser } from "../../app/auth/session.server";
import { signIn } from "../../app/auth/sign-in.server";
import { THROTTLE } from "../../app/auth/throttle.server";
import { schema } from "../../app/db/client.server";
import type { Env } from "../../app/env.server";
import * as changePasswordScreen from "../../app/routes/change-password";
import { createUser } from "../../app/users/create.server";
import { deactivateUser, reactivateUser } from "../../app/users/deactivate.server";
import { ChangePasswordForm, CreateUserForm } from "../../app/users/forms";
import { listUsers, USERS_PAGE_SIZE, userDetail } from "../../app/users/list.server";
import { changeOwnPassword, resetPassword } from "../../app/users/password.server";
import { changeRole, grantRole, revokeRole } from "../../app/users/roles.server";
import { updateUserNames } from "../../app/users/update.server";
import { DEMO_PASSWORD } from "../../scripts/seed/demo";
import { demoLocations, freshDatabase, type TestDatabase } from "../support/database";
import { formRequest, loadContext } from "../support/screens";

let t: TestDatabase;
const env = { SESSION_SECRET: "test-secret" } as Env;
const NEW_PASSWORD = "a-long-new-password";

let ids: Record<string, string>;
let loc: Record<"DTN" | "WST" | "NTH", string>;

beforeAll(async () => {
  t = await freshDatabase();
  const users = await t.db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users);
  ids = Object.fromEntries(users.map((u) => [u.email.split("@")[0], u.id]));
  ({ loc } = await demoLocations(t.db));
});
afterAll(() => t.close());

/** Signs in for real and returns the session user, exactly what a route hands a verb. */
async function session(email: string, password = DEMO_PASSWORD) {
  const result = await signIn(t.db, { email, password, userAgent: "vitest" });
  if (!result.ok) throw new Error(`${email}: ${result.message}`);
  const cookie = (await commitSessionCookie(env, new Request("http://clinic.test/"), result.token)).split(";")[0];
  const request = new Request("http://clinic.test/", { headers: { Cookie: cookie ?? "" } });
  const user = await getSessionUser(env, t.db, request);
  if (!user) throw new Error(`${email}: no session`);
  return { user, cookie: cookie ?? "", stillSignedIn: async () => (await getSessionUser(env, t.db, request)) !== null };
}
const as = async (email: string) => (await session(`${email}@demo.clinic`)).user;

async function account(userId: string) {
  const [row] = await t.db.select().from(schema.users).where(eq(schema.users.id, userId));
  return row;
}
async function rolesOf(userId: string) {
  return t.db
    .select({ locationId: schema.userLocationRoles.locationId, role: schema.userLocationRoles.role })
    .from(schema.userLocationRoles)
    .where(eq(schema.userLocationRoles.userId, userId));
}

/** A throwaway user made through the verb by the owner. */
async function newUser(
  name: string,
  role: { code: keyof typeof loc; role: "ADMIN" | "MANAGER" | "STAFF" } | null,
  password = "initial-password-1",
) {
  const owner = await as("owner");
  const email = `${name.toLowerCase()}-${uuidv7().slice(-8)}@demo.clinic`;
  const result = await createUser(t.db, owner, {
    email,
    firstName: name,
    lastName: "Tester",
    password,
    role: role ? { locationId: loc[role.code], role: role.role } : null,
  });
  if (!result.ok) throw new Error(result.message);
  return { id: result.userId, email, password };
}

/** Refusals change nothing: no activity row either. */
async function expectNoActivity<T>(work: () => Promise<T>): Promise<T> {
  const before = await t.activityCount();
  const result = await work();
  expect(await t.activityCount()).toBe(before);
  return result;
}

describe("createUser", () => {
  it("creates the account, its role and its activity row in one round trip; the password must be changed", async () => {
    const owner = await as("owner");
    t.resetRoundTrips();
    const result = await createUser(t.db, owner, {
      email: "new.nurse@demo.clinic",
      firstName: "Nia",
      lastName: "Nurse",
      password: "initial-password-1",
      role: { locationId: loc.DTN, role: "STAFF" },
    });
    expect(t.roundTrips()).toBe(1);
    if (!result.ok) throw new Error(result.message);

    expect(await account(result.userId)).toMatchObject({
      email: "new.nurse@demo.clinic",
      firstName: "Nia",
      lastName: "Nurse",
      active: true,
      mustChangePassword: true,
      organizationRole: null,
    });
    expect(await rolesOf(result.userId)).toEqual([{ locationId: loc.DTN, role: "STAFF" }]);
    const activity = await t.lastActivity();
    expect(activity).toMatchObject({
      action: "create_user",
      userId: owner.id,
      locationId: loc.DTN,
      entity: "user",
      entityId: result.userId,
      summary: { email: "new.nurse@demo.clinic", firstName: "Nia", lastName: "Nurse", role: "STAFF" },
    });
    expect(JSON.stringify(activity?.summary)).not.toMatch(/password|pbkdf2/i);

    const first = await signIn(t.db, {
      email: "new.nurse@demo.clinic",
      password: "initial-password-1",
      userAgent: null,
    });
    expect(first).toMatchObject({ ok: true, mustChangePassword: true });
  });

  it("refuses an email already in use, whatever its case, and writes nothing", async () => {
    const owner = await as("owner");
    const form = CreateUserForm.parse({
      email: "  STAFF@Demo.Clinic ",
      firstName: "Dup",
      lastName: "Licate",
      password: "initial-password-1",
      locationId: loc.DTN,
      role: "STAFF",
    });
    const [users] = await t.db.select({ n: count() }).from(schema.users);
    const result = await expectNoActivity(() => createUser(t.db, owner, form));
    expect(result).toEqual({
      ok: false,
      refusal: "email_taken",
      message: "A user with the email staff@demo.clinic already exists.",
    });
    expect((await t.db.select({ n: count() }).from(schema.users))[0]).toEqual(users);
  });

  it("lets a location admin create people only at a location they administer", async () => {
    const admin = await as("admin");
    const person = { firstName: "Loc", lastName: "Hire", password: "initial-password-1" };
    const atDowntown = await createUser(t.db, admin, {
      ...person,
      email: "loc.hire@demo.clinic",
      role: { locationId: loc.DTN, role: "MANAGER" },
    });
    expect(atDowntown.ok).toBe(true);

    // MANAGER at Westside: no WRITE_USERS there; and no location at all is for organization admins.
    const atWestside = await expectNoActivity(() =>
      createUser(t.db, admin, {
        ...person,
        email: "loc.hire2@demo.clinic",
        role: { locationId: loc.WST, role: "STAFF" },
      }),
    );
    expect(atWestside).toMatchObject({ ok: false, refusal: "forbidden" });
    const nowhere = await createUser(t.db, admin, { ...person, email: "loc.hire3@demo.clinic", role: null });
    expect(nowhere).toMatchObject({ ok: false, refusal: "forbidden" });
  });

  it("lets an organization admin create someone with no location yet", async () => {
    const { id } = await newUser("Floater", null);
    expect(await rolesOf(id)).toEqual([]);
    expect(await account(id)).toMatchObject({ mustChangePassword: true, active: true });
  });

  it("refuses a role at an archived location and rolls the account back with it", async () => {
    const owner = await as("owner");
    await t.db.update(schema.locations).set({ active: false }).where(eq(schema.locations.id, loc.NTH));
    try {
      const result = await expectNoActivity(() =>
        createUser(t.db, owner, {
          email: "archived.hire@demo.clinic",
          firstName: "Arch",
          lastName: "Ived",
          password: "initial-password-1",
          role: { locationId: loc.NTH, role: "STAFF" },
        }),
      );
      expect(result).toMatchObject({ ok: false, refusal: "location_unavailable" });
      expect(await t.db.select().from(schema.users).where(eq(schema.users.email, "archived.hire@demo.clinic"))).toEqual(
        [],
      );
    } finally {
      await t.db.update(schema.locations).set({ active: true }).where(eq(schema.locations.id, loc.NTH));
    }
  });

  it("asks for a role with a location and at least 12 characters of password", () => {
    const result = CreateUserForm.safeParse({
      email: "x@demo.clinic",
      firstName: "X",
      lastName: "Y",
      password: "short",
      locationId: loc.DTN,
      role: "",
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error?.issues.map((i) => [i.path[0], i.message]) ?? []);
    expect(messages).toEqual({ password: "Use at least 12 characters.", role: "Choose a role." });
  });
});

describe("updateUserNames", () => {
  it("renames someone the actor manages and logs the names before and after", async () => {
    const admin = await as("admin");
    const { id } = await newUser("Rename", { code: "DTN", role: "STAFF" });
    t.resetRoundTrips();
    const result = await updateUserNames(t.db, admin, { userId: id, firstName: "Renamed", lastName: "Person" });
    expect(t.roundTrips()).toBe(1);
    expect(result).toEqual({ ok: true, changed: true });
    expect(await account(id)).toMatchObject({ firstName: "Renamed", lastName: "Person" });
    expect(await t.lastActivity()).toMatchObject({
      action: "update_user",
      userId: admin.id,
      entityId: id,
      summary: {
        before: { firstName: "Rename", lastName: "Tester" },
        after: { firstName: "Renamed", lastName: "Person" },
      },
    });

    const again = await expectNoActivity(() =>
      updateUserNames(t.db, admin, { userId: id, firstName: "Renamed", lastName: "Person" }),
    );
    expect(again).toEqual({ ok: true, changed: false });
  });

  it("refuses a location admin for people who also work elsewhere, organization admins and strangers", async () => {
    const admin = await as("admin");
    const rename = (userId: string) =>
      expectNoActivity(() => updateUserNames(t.db, admin, { userId, firstName: "No", lastName: "Way" }));
    expect(await rename(ids.multi as string)).toMatchObject({ ok: false, refusal: "forbidden" }); // DTN + NTH
    expect(await rename(ids.manager as string)).toMatchObject({ ok: false, refusal: "forbidden" }); // WST
    expect(await rename(ids.owner as string)).toMatchObject({ ok: false, refusal: "forbidden" });
    expect(await rename(uuidv7())).toMatchObject({ ok: false, refusal: "not_found" });
    expect(await account(ids.multi as string)).toMatchObject({ firstName: "Morgan", lastName: "Multi" });
  });
});

describe("roles", () => {
  it("grants by email, changes and revokes a role at the admin's location, one round trip and one row each", async () => {
    const admin = await as("admin");
    const { id, email } = await newUser("Roles", null);

    t.resetRoundTrips();
    const granted = await grantRole(t.db, admin, { user: { email }, locationId: loc.DTN, role: "STAFF" });
    expect(t.roundTrips()).toBe(1);
    expect(granted).toMatchObject({ ok: true, userId: id, location: { code: "DTN" } });
    expect(await rolesOf(id)).toEqual([{ locationId: loc.DTN, role: "STAFF" }]);
    expect(await t.lastActivity()).toMatchObject({
      action: "grant_role",
      userId: admin.id,
      locationId: loc.DTN,
      entityId: id,
      summary: { email, location: "DTN", after: "STAFF" },
    });

    t.resetRoundTrips();
    expect(await changeRole(t.db, admin, { userId: id, locationId: loc.DTN, role: "MANAGER" })).toMatchObject({
      ok: true,
      changed: true,
    });
    expect(t.roundTrips()).toBe(1);
    expect(await t.lastActivity()).toMatchObject({
      action: "change_role",
      summary: { location: "DTN", before: "STAFF", after: "MANAGER" },
    });
    const same = await expectNoActivity(() =>
      changeRole(t.db, admin, { userId: id, locationId: loc.DTN, role: "MANAGER" }),
    );
    expect(same).toMatchObject({ ok: true, changed: false });

    t.resetRoundTrips();
    expect(await revokeRole(t.db, admin, { userId: id, locationId: loc.DTN })).toMatchObject({ ok: true });
    expect(t.roundTrips()).toBe(1);
    expect(await rolesOf(id)).toEqual([]);
    expect(await t.lastActivity()).toMatchObject({
      action: "revoke_role",
      summary: { location: "DTN", before: "MANAGER" },
    });
  });

  it("refuses roles at a location where the actor cannot manage people", async () => {
    const admin = await as("admin"); // ADMIN at DTN, MANAGER at WST
    const manager = await as("manager");
    const { id, email } = await newUser("Westy", { code: "WST", role: "STAFF" });
    for (const attempt of [
      () => grantRole(t.db, admin, { user: { email }, locationId: loc.WST, role: "ADMIN" }),
      () => changeRole(t.db, admin, { userId: id, locationId: loc.WST, role: "MANAGER" }),
      () => revokeRole(t.db, admin, { userId: id, locationId: loc.WST }),
      () => grantRole(t.db, manager, { user: { email }, locationId: loc.WST, role: "ADMIN" }),
      () => grantRole(t.db, admin, { user: { email }, locationId: ORGANIZATION, role: "ADMIN" }),
    ]) {
      expect(await expectNoActivity(attempt)).toMatchObject({ ok: false, refusal: "forbidden" });
    }
    expect(await rolesOf(id)).toEqual([{ locationId: loc.WST, role: "STAFF" }]);
  });

  it("explains the other refusals: a role already held, none to change, unknown people, archived locations", async () => {
    const owner = await as("owner");
    const admin = await as("admin");
    const { id, email } = await newUser("Twice", { code: "DTN", role: "STAFF" });
    const refusals = await expectNoActivity(async () => [
      await grantRole(t.db, admin, { user: { email }, locationId: loc.DTN, role: "ADMIN" }),
      await changeRole(t.db, owner, { userId: id, locationId: loc.NTH, role: "ADMIN" }),
      await revokeRole(t.db, owner, { userId: id, locationId: loc.NTH }),
      await grantRole(t.db, admin, { user: { email: "nobody@demo.clinic" }, locationId: loc.DTN, role: "STAFF" }),
      await revokeRole(t.db, owner, { userId: uuidv7(), locationId: loc.DTN }),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual([
      "has_role",
      "no_role",
      "no_role",
      "not_found",
      "not_found",
    ]);

    await t.db.update(schema.locations).set({ active: false }).where(eq(schema.locations.id, loc.NTH));
    try {
      const archived = await expectNoActivity(() =>
        grantRole(t.db, owner, { user: { id }, locationId: loc.NTH, role: "STAFF" }),
      );
      expect(archived).toMatchObject({ ok: false, refusal: "location_unavailable" });
    } finally {
      await t.db.update(schema.locations).set({ active: true }).where(eq(schema.locations.id, loc.NTH));
    }
  });
});

describe("deactivateUser and reactivateUser", () => {
  it("deactivates, ends every session of the user in the same batch, and reactivates", async () => {
    const admin = await as("admin");
    const person = await newUser("Leaver", { code: "DTN", role: "STAFF" });
    const laptop = await session(person.email, person.password);
    const phone = await session(person.email, person.password);

    t.resetRoundTrips();
    const result = await deactivateUser(t.db, admin, person.id);
    expect(t.roundTrips()).toBe(1);
    expect(result).toMatchObject({ ok: true, name: "Leaver Tester", sessionsRevoked: 2 });
    expect(await laptop.stillSignedIn()).toBe(false);
    expect(await phone.stillSignedIn()).toBe(false);
    expect(await account(person.id)).toMatchObject({ active: false });
    expect(await t.lastActivity()).toMatchObject({
      action: "deactivate_user",
      userId: admin.id,
      entityId: person.id,
      summary: { email: person.email, before: { active: true }, after: { active: false } },
    });
    const signInNow = await signIn(t.db, { email: person.email, password: person.password, userAgent: null });
    expect(signInNow).toMatchObject({ ok: false, status: 403 });

    expect(await expectNoActivity(() => deactivateUser(t.db, admin, person.id))).toMatchObject({
      ok: false,
      refusal: "already_inactive",
    });

    t.resetRoundTrips();
    expect(await reactivateUser(t.db, admin, person.id)).toMatchObject({ ok: true });
    expect(t.roundTrips()).toBe(1);
    expect(await t.lastActivity()).toMatchObject({ action: "reactivate_user", summary: { after: { active: true } } });
    expect(await laptop.stillSignedIn()).toBe(false); // ended sessions stay ended
    expect((await signIn(t.db, { email: person.email, password: person.password, userAgent: null })).ok).toBe(true);
    expect(await expectNoActivity(() => reactivateUser(t.db, admin, person.id))).toMatchObject({
      ok: false,
      refusal: "already_active",
    });
  });

  it("refuses deactivating yourself, and a location admin anyone who works elsewhere or runs the organization", async () => {
    const admin = await as("admin");
    const owner = await as("owner");
    const attempts = await expectNoActivity(async () => [
      await deactivateUser(t.db, admin, admin.id),
      await deactivateUser(t.db, owner, owner.id),
      await deactivateUser(t.db, admin, ids.multi as string),
      await deactivateUser(t.db, admin, ids.manager as string),
      await deactivateUser(t.db, admin, ids.owner as string),
      await deactivateUser(t.db, admin, ids.newhire as string), // no role anywhere: organization admins only
      await deactivateUser(t.db, owner, uuidv7()),
    ]);
    expect(attempts.map((r) => !r.ok && r.refusal)).toEqual([
      "yourself",
      "yourself",
      "forbidden",
      "forbidden",
      "forbidden",
      "forbidden",
      "not_found",
    ]);
    const stillActive = await t.db.select({ active: schema.users.active }).from(schema.users);
    expect(stillActive.every((u) => u.active)).toBe(true);
  });

  it("never deactivates the last active organization admin, even for an admin whose own account went stale", async () => {
    const owner = await as("owner");
    const deputy = await newUser("Deputy", null);
    await t.db
      .update(schema.users)
      .set({ organizationRole: "ORGANIZATION_ADMIN", mustChangePassword: false })
      .where(eq(schema.users.id, deputy.id));
    const deputySession = await session(deputy.email, deputy.password);

    // The owner deactivates the deputy: another active organization admin (the owner) remains.
    expect(await deactivateUser(t.db, owner, deputy.id)).toMatchObject({ ok: true });
    // The deputy's permissions were read before; the SQL guard still sees the owner is the last one.
    const refused = await expectNoActivity(() => deactivateUser(t.db, deputySession.user, owner.id));
    expect(refused).toMatchObject({ ok: false, refusal: "last_organization_admin" });
    expect(await account(owner.id)).toMatchObject({ active: true });

    // Two organization admins deactivating each other at the same moment: exactly one succeeds.
    await reactivateUser(t.db, owner, deputy.id);
    const deputyAgain = (await session(deputy.email, deputy.password)).user;
    const results = await Promise.all([
      deactivateUser(t.db, owner, deputy.id),
      deactivateUser(t.db, deputyAgain, owner.id),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.refusal)).toEqual(["last_organization_admin"]);
    const admins = await t.db
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(and(eq(schema.users.organizationRole, "ORGANIZATION_ADMIN"), eq(schema.users.active, true)));
    expect(admins).toHaveLength(1);

    // Put the owner back for the tests after this one.
    if (!(await account(owner.id))?.active) await reactivateUser(t.db, deputyAgain, owner.id);
    await t.db.update(schema.users).set({ active: false }).where(eq(schema.users.id, deputy.id));
  });
});

describe("resetPassword", () => {
  it("sets a new initial password, forces a change, ends the user's sessions; logs no secret", async () => {
    const admin = await as("admin");
    const person = await newUser("Forgetful", { code: "DTN", role: "MANAGER" });
    const signedIn = await session(person.email, person.password);

    t.resetRoundTrips();
    const result = await resetPassword(t.db, admin, { userId: person.id, password: "brand-new-initial-1" });
    expect(t.roundTrips()).toBe(1);
    expect(result).toMatchObject({ ok: true, sessionsRevoked: 1 });
    expect(await signedIn.stillSignedIn()).toBe(false);
    expect(await account(person.id)).toMatchObject({ mustChangePassword: true });

    const activity = await t.lastActivity();
    expect(activity).toMatchObject({ action: "reset_password", entityId: person.id, userId: admin.id });
    const stored = (await account(person.id))?.passwordHash ?? "";
    expect(JSON.stringify(activity)).not.toContain("brand-new-initial-1");
    expect(JSON.stringify(activity)).not.toContain(stored.split("$")[3]);

    expect((await signIn(t.db, { email: person.email, password: person.password, userAgent: null })).ok).toBe(false);
    expect(await signIn(t.db, { email: person.email, password: "brand-new-initial-1", userAgent: null })).toMatchObject(
      {
        ok: true,
        mustChangePassword: true,
      },
    );
  });

  it("refuses your own account, people the actor does not manage and unknown ids", async () => {
    const admin = await as("admin");
    const owner = await as("owner");
    const refusals = await expectNoActivity(async () => [
      await resetPassword(t.db, admin, { userId: admin.id, password: "brand-new-initial-1" }),
      await resetPassword(t.db, admin, { userId: ids.manager as string, password: "brand-new-initial-1" }),
      await resetPassword(t.db, admin, { userId: ids.owner as string, password: "brand-new-initial-1" }),
      await resetPassword(t.db, owner, { userId: uuidv7(), password: "brand-new-initial-1" }),
    ]);
    expect(refusals.map((r) => !r.ok && r.refusal)).toEqual(["yourself", "forbidden", "forbidden", "not_found"]);
    expect((await signIn(t.db, { email: "manager@demo.clinic", password: DEMO_PASSWORD, userAgent: null })).ok).toBe(
      true,
    );
  });
});

describe("changeOwnPassword", () => {
  it("checks the current password, clears the obligation and ends only the other sessions", async () => {
    const person = await newUser("Changer", { code: "WST", role: "STAFF" });
    const here = await session(person.email, person.password);
    const elsewhere = await session(person.email, person.password);
    expect(here.user.mustChangePassword).toBe(true);

    // A wrong current password changes nothing but is recorded, as a failed sign-in is (one row).
    const before = await t.activityCount();
    const wrong = await changeOwnPassword(t.db, here.user, {
      currentPassword: "not-my-password",
      newPassword: NEW_PASSWORD,
    });
    expect(wrong).toMatchObject({ ok: false, refusal: "wrong_password" });
    expect(await t.activityCount()).toBe(before + 1);
    expect(await t.lastActivity()).toMatchObject({ action: "change_password_failed", userId: person.id });
    expect(JSON.stringify(await t.lastActivity())).not.toContain("not-my-password");
    const same = await expectNoActivity(() =>
      changeOwnPassword(t.db, here.user, { currentPassword: person.password, newPassword: person.password }),
    );
    expect(same).toMatchObject({ ok: false, refusal: "same_password" });

    t.resetRoundTrips();
    const result = await changeOwnPassword(t.db, here.user, {
      currentPassword: person.password,
      newPassword: NEW_PASSWORD,
    });
    expect(t.roundTrips()).toBe(2); // read the hash to check the current password, then one batch
    expect(result).toEqual({ ok: true, sessionsRevoked: 1 });
    expect(await here.stillSignedIn()).toBe(true);
    expect(await elsewhere.stillSignedIn()).toBe(false);
    expect(await account(person.id)).toMatchObject({ mustChangePassword: false });
    const activity = await t.lastActivity();
    expect(activity).toMatchObject({ action: "change_password", userId: person.id, summary: { forced: true } });
    expect(JSON.stringify(activity)).not.toContain(NEW_PASSWORD);
    expect(await signIn(t.db, { email: person.email, password: NEW_PASSWORD, userAgent: null })).toMatchObject({
      ok: true,
      mustChangePassword: false,
    });
  });

  it("refuses a stale current password after a concurrent change (compare-and-swap on the hash)", async () => {
    const person = await newUser("Racer", { code: "WST", role: "STAFF" });
    const me = (await session(person.email, person.password)).user;
    const results = await Promise.all([
      changeOwnPassword(t.db, me, { currentPassword: person.password, newPassword: "first-new-password" }),
      changeOwnPassword(t.db, me, { currentPassword: person.password, newPassword: "second-new-password" }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ refusal: "changed_meanwhile" });
    const changes = await t.db
      .select({ n: count() })
      .from(schema.activityLog)
      .where(and(eq(schema.activityLog.action, "change_password"), eq(schema.activityLog.userId, person.id)));
    expect(changes[0]?.n).toBe(1);
  });

  describe("guessing the current password", () => {
    const noWait = async () => {};
    const LOCKED = /^Too many failed sign-in attempts\. Wait 15 minutes and try again/;

    it("is throttled like a sign-in: a stolen session is locked out after the limit, even with the right password", async () => {
      const person = await newUser("Stolen", { code: "WST", role: "STAFF" });
      const thief = (await session(person.email, person.password)).user;
      const clientIp = "198.51.100.66";
      const waits: number[] = [];
      const sleep = async (ms: number) => waits.push(ms);
      for (let i = 0; i < THROTTLE.pairLimit; i++) {
        const guess = await changeOwnPassword(
          t.db,
          thief,
          { currentPassword: `guess-${i}`, newPassword: NEW_PASSWORD },
          { clientIp, sleep },
        );
        expect(guess).toMatchObject({ ok: false, refusal: "wrong_password" });
        // Each guess is in the activity log, as a failed sign-in is.
        expect(await t.lastActivity()).toMatchObject({
          userId: person.id,
          action: "change_password_failed",
          entity: "user",
          entityId: person.id,
        });
      }
      expect(waits).toEqual([500, 1000, 1500]);
      const refused = await changeOwnPassword(
        t.db,
        thief,
        { currentPassword: person.password, newPassword: NEW_PASSWORD },
        { clientIp, sleep },
      );
      expect(refused).toMatchObject({
        ok: false,
        refusal: "too_many_attempts",
        message: expect.stringMatching(LOCKED),
      });
      expect(await t.lastActivity()).toMatchObject({ userId: person.id, action: "change_password_refused" });
      expect(await account(person.id)).toMatchObject({ mustChangePassword: true });
      // The same budget as signing in: /login from that address is locked too.
      expect(
        await signIn(t.db, { email: person.email, password: person.password, userAgent: null, clientIp }),
      ).toMatchObject({ ok: false, status: 429 });
    });

    it("lets at most the limit of 30 parallel guesses reach the password check", async () => {
      const person = await newUser("Parallel", { code: "WST", role: "STAFF" });
      const thief = (await session(person.email, person.password)).user;
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          changeOwnPassword(
            t.db,
            thief,
            { currentPassword: `parallel-${i}`, newPassword: NEW_PASSWORD },
            { clientIp: "198.51.100.67", sleep: noWait },
          ),
        ),
      );
      const refusals = results.map((r) => (r.ok ? "changed" : r.refusal));
      expect(refusals.filter((r) => r === "wrong_password")).toHaveLength(THROTTLE.pairLimit);
      expect(refusals.filter((r) => r === "too_many_attempts")).toHaveLength(30 - THROTTLE.pairLimit);
    });

    it("shares the budget with /login: failures there count here, and the screen answers 429 with the message", async () => {
      const person = await newUser("Shared", { code: "WST", role: "STAFF" });
      const signedIn = await session(person.email, person.password);
      const clientIp = "198.51.100.68";
      for (let i = 0; i < THROTTLE.pairLimit - 1; i++) {
        await signIn(
          t.db,
          { email: person.email, password: `guess-${i}`, userAgent: null, clientIp },
          { sleep: noWait },
        );
      }
      const post = (currentPassword: string) => {
        const request = formRequest("/change-password", signedIn.cookie, {
          currentPassword,
          newPassword: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        request.headers.set("CF-Connecting-IP", clientIp);
        return changePasswordScreen.action({ request, context: loadContext(t.db, env), params: {} });
      };
      // The action answers data(...) with a status, as Remix hands it to the page.
      type Answer = { data: { formError: string | null }; init: ResponseInit | null };
      const last = (await post("one-more-guess")) as unknown as Answer;
      expect(last.init?.status).toBe(400);
      const refused = (await post(person.password)) as unknown as Answer;
      expect(refused.init?.status).toBe(429);
      const body = refused.data;
      expect(body.formError).toMatch(LOCKED);
    });

    it("is reset by an administrator's password reset, so a locked-out person gets back in", async () => {
      const admin = await as("admin");
      const person = await newUser("Locked", { code: "DTN", role: "STAFF" });
      const clientIp = "198.51.100.69";
      for (let i = 0; i <= THROTTLE.pairLimit; i++) {
        await signIn(
          t.db,
          { email: person.email, password: `guess-${i}`, userAgent: null, clientIp },
          { sleep: noWait },
        );
      }
      const locked = await signIn(t.db, { email: person.email, password: person.password, userAgent: null, clientIp });
      expect(locked).toMatchObject({ ok: false, status: 429 });
      expect(await resetPassword(t.db, admin, { userId: person.id, password: "brand-new-initial-2" })).toMatchObject({
        ok: true,
      });
      expect(
        await signIn(t.db, { email: person.email, password: "brand-new-initial-2", userAgent: null, clientIp }),
      ).toMatchObject({ ok: true });
    });
  });

  it("says when the confirmation differs or the new password is the current one", () => {
    const messages = (input: Record<string, string>) =>
      ChangePasswordForm.safeParse(input).error?.issues.map((i) => [i.path[0], i.message]);
    expect(
      messages({ currentPassword: "old-password-1", newPassword: NEW_PASSWORD, confirmPassword: "something-else" }),
    ).toEqual([["confirmPassword", "The two new passwords do not match."]]);
    expect(
      messages({ currentPassword: NEW_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
    ).toEqual([["newPassword", "Choose a new password that is different from your current one."]]);
    expect(messages({ currentPassword: "x", newPassword: "short", confirmPassword: "short" })).toEqual([
      ["newPassword", "Use at least 12 characters."],
    ]);
  });
});

describe("listing users", () => {
  const scopeOf = (user: SessionUser, code: keyof typeof loc) => {
    const role = user.locationRoles.find((r) => r.locationId === loc[code]);
    if (!role) throw new Error(`no role at ${code}`);
    return { kind: "location" as const, locationId: loc[code], role: role.role, ...role.location };
  };

  it("shows the people with a role at the location, each with all their roles, in one round trip", async () => {
    const manager = await as("manager");
    t.resetRoundTrips();
    const list = await listUsers(t.db, { user: manager, scope: scopeOf(manager, "WST") }, { q: "", page: 1 });
    expect(t.roundTrips()).toBe(1);
    const emails = list.users.map((u) => u.email);
    expect(emails).toContain("manager@demo.clinic");
    expect(emails).toContain("admin@demo.clinic");
    expect(emails).not.toContain("staff@demo.clinic");
    expect(emails).not.toContain("owner@demo.clinic");
    const adam = list.users.find((u) => u.email === "admin@demo.clinic");
    expect(adam?.roles.map((r) => [r.code, r.role])).toEqual([
      ["DTN", "ADMIN"],
      ["WST", "MANAGER"],
    ]);
    expect(list.timezone).toBe("America/New_York");
  });

  it("shows everyone in organization mode, searches names and emails, and pages by 25", async () => {
    const owner = await as("owner");
    const organization = { kind: "organization", locationId: ORGANIZATION } as const;
    const all = await listUsers(t.db, { user: owner, scope: organization }, { q: "", page: 1 });
    expect(all.users.map((u) => u.email)).toContain("newhire@demo.clinic");
    expect(all.users.map((u) => u.email)).toContain("owner@demo.clinic");

    const found = await listUsers(t.db, { user: owner, scope: organization }, { q: "MORGAN mu", page: 1 });
    expect(found.users.map((u) => u.email)).toEqual(["multi@demo.clinic"]);
    const byEmail = await listUsers(t.db, { user: owner, scope: organization }, { q: "newhire@", page: 1 });
    expect(byEmail.users.map((u) => u.email)).toEqual(["newhire@demo.clinic"]);
    const wildcard = await listUsers(t.db, { user: owner, scope: organization }, { q: "%", page: 1 });
    expect(wildcard.users).toEqual([]);

    const organizationId = (await account(owner.id))?.organizationId as string;
    await t.db.insert(schema.users).values(
      Array.from({ length: USERS_PAGE_SIZE + 2 }, (_, i) => ({
        organizationId,
        email: `pager${String(i).padStart(2, "0")}@demo.clinic`,
        firstName: "Pager",
        lastName: `P${String(i).padStart(2, "0")}`,
        passwordHash: "x",
      })),
    );
    const first = await listUsers(t.db, { user: owner, scope: organization }, { q: "pager", page: 1 });
    const second = await listUsers(t.db, { user: owner, scope: organization }, { q: "pager", page: 2 });
    expect(first).toMatchObject({ total: USERS_PAGE_SIZE + 2, pageCount: 2 });
    expect(first.users).toHaveLength(USERS_PAGE_SIZE);
    expect(second.users.map((u) => u.lastName)).toEqual(["P25", "P26"]);
  });

  it("shows nobody in organization mode to someone who is not an organization admin", async () => {
    const admin = await as("admin");
    const list = await listUsers(
      t.db,
      { user: admin, scope: { kind: "organization", locationId: ORGANIZATION } },
      { q: "", page: 1 },
    );
    expect(list.users).toEqual([]);
  });

  it("shows one person visible in the scope, in one round trip, and mirrors who may manage them", async () => {
    const admin = await as("admin");
    const scope = scopeOf(admin, "DTN");
    t.resetRoundTrips();
    const multi = await userDetail(t.db, { user: admin, scope }, ids.multi as string);
    expect(t.roundTrips()).toBe(1);
    expect(multi?.user.roles.map((r) => r.code)).toEqual(["DTN", "NTH"]);
    expect(multi && canManageAccount(admin, multi.user)).toBe(false);

    const staff = await userDetail(t.db, { user: admin, scope }, ids.staff as string);
    expect(staff && canManageAccount(admin, staff.user)).toBe(true);
    expect(await userDetail(t.db, { user: admin, scope }, ids.manager as string)).toBeNull(); // WST only
  });
});
