// npm run admin:create: the first organization admin, written to an empty production-like database
// and refused or skipped where it would duplicate anything.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needsRehash, verifyPassword } from "../../app/auth/password.server";
import { createDatabase, type Database, schema } from "../../app/db/client.server";
import { startLocalServer } from "../../db/local-server/server.mjs";
import { createFirstAdmin, type FirstAdmin } from "../../scripts/create-admin";
import { migrateDatabase } from "../../scripts/lib/database";
import { freshDatabase, type TestDatabase } from "../support/database";

const ANN: FirstAdmin = {
  organization: "Lakeside Clinics",
  email: " Ann@Lakeside.Clinic ",
  firstName: "Ann",
  lastName: "Lee",
  password: "a long enough password",
  mustChangePassword: false,
};

/** A migrated database with no organization in it, as a new production database is. */
async function emptyDatabase() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clinic-empty-"));
  const file = path.join(dir, "clinic.db");
  await migrateDatabase(`file:${file}`);
  const authToken = "create-admin-test-token";
  const server = await startLocalServer({ dbPath: file, port: 0, authToken });
  return {
    url: server.url,
    authToken,
    db: createDatabase({ DATABASE_URL: server.url, DATABASE_AUTH_TOKEN: authToken }),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const rows = async (db: Database) => {
  const [organizations] = await db.select({ n: count() }).from(schema.organizations);
  const [users] = await db.select({ n: count() }).from(schema.users);
  const [activity] = await db.select({ n: count() }).from(schema.activityLog);
  return { organizations: organizations?.n, users: users?.n, activity: activity?.n };
};

describe("into an empty database", () => {
  let empty: Awaited<ReturnType<typeof emptyDatabase>>;
  beforeAll(async () => {
    empty = await emptyDatabase();
  });
  afterAll(() => empty.close());

  it("creates the organization and its admin, hashed as the app hashes, with an activity row, once", async () => {
    const outcome = await createFirstAdmin(empty.db, ANN);
    expect(outcome).toMatchObject({
      ok: true,
      written: true,
      message: "ann@lakeside.clinic is now an organization admin of Lakeside Clinics (organization created).",
    });
    if (!outcome.ok) return;
    const [user] = await empty.db.select().from(schema.users).where(eq(schema.users.id, outcome.userId));
    expect(user).toMatchObject({
      email: "ann@lakeside.clinic",
      firstName: "Ann",
      lastName: "Lee",
      organizationRole: "ORGANIZATION_ADMIN",
      organizationId: outcome.organizationId,
      active: true,
      mustChangePassword: false,
    });
    expect(await verifyPassword(ANN.password, user?.passwordHash ?? "")).toBe(true);
    expect(needsRehash(user?.passwordHash ?? "")).toBe(false);
    const [organization] = await empty.db.select().from(schema.organizations);
    expect(organization).toMatchObject({ id: outcome.organizationId, name: "Lakeside Clinics" });
    const [activity] = await empty.db.select().from(schema.activityLog);
    expect(activity).toMatchObject({
      userId: null,
      action: "create_user",
      entity: "user",
      entityId: outcome.userId,
      summary: expect.objectContaining({ organizationRole: "ORGANIZATION_ADMIN", organizationCreated: true }),
    });
    expect(await rows(empty.db)).toEqual({ organizations: 1, users: 1, activity: 1 });

    // Run again: nothing new, and it says so.
    expect(await createFirstAdmin(empty.db, { ...ANN, password: "another long password" })).toEqual({
      ok: true,
      written: false,
      userId: outcome.userId,
      organizationId: outcome.organizationId,
      message: "ann@lakeside.clinic is already an organization admin of Lakeside Clinics; nothing written.",
    });
    expect(await rows(empty.db)).toEqual({ organizations: 1, users: 1, activity: 1 });
    const [still] = await empty.db.select().from(schema.users);
    expect(await verifyPassword(ANN.password, still?.passwordHash ?? "")).toBe(true);
  });

  it("adds a second admin to the organization, and refuses another organization in the same database", async () => {
    const ben = { ...ANN, email: "ben@lakeside.clinic", firstName: "Ben", mustChangePassword: true };
    expect(await createFirstAdmin(empty.db, ben)).toMatchObject({ ok: true, written: true });
    const [row] = await empty.db.select().from(schema.users).where(eq(schema.users.email, "ben@lakeside.clinic"));
    expect(row?.mustChangePassword).toBe(true);

    expect(
      await createFirstAdmin(empty.db, { ...ANN, organization: "Other Clinics", email: "cy@other.clinic" }),
    ).toEqual({
      ok: false,
      message:
        'This database already holds the organization "Lakeside Clinics", and one database is one organization. Nothing was written: run again with --organization "Lakeside Clinics".',
    });
    expect(await rows(empty.db)).toEqual({ organizations: 1, users: 2, activity: 2 });
  });

  it("checks the fields as the users screen does, before writing anything", async () => {
    expect(await createFirstAdmin(empty.db, { ...ANN, email: "dee@lakeside.clinic", password: "short" })).toEqual({
      ok: false,
      message: "password: Use at least 12 characters.",
    });
    expect(await createFirstAdmin(empty.db, { ...ANN, organization: "  " })).toEqual({
      ok: false,
      message: "Give the organization's name with --organization.",
    });
    expect(await rows(empty.db)).toEqual({ organizations: 1, users: 2, activity: 2 });
  });

  it("runs as npm run admin:create with the secrets from the environment only", async () => {
    const run = promisify(execFile);
    const { stdout } = await run(
      "npx",
      [
        "tsx",
        "scripts/create-admin.ts",
        "--organization",
        "Lakeside Clinics",
        "--email",
        "eve@lakeside.clinic",
        "--first-name",
        "Eve",
        "--last-name",
        "Ng",
      ],
      {
        env: {
          ...process.env,
          DATABASE_URL: empty.url,
          DATABASE_AUTH_TOKEN: empty.authToken,
          ADMIN_PASSWORD: "typed by a robot, changed later",
        },
      },
    );
    expect(stdout).toContain("eve@lakeside.clinic is now an organization admin of Lakeside Clinics.");
    const [eve] = await empty.db.select().from(schema.users).where(eq(schema.users.email, "eve@lakeside.clinic"));
    // A password set by automation is changed by its owner at first sign-in.
    expect(eve).toMatchObject({ organizationRole: "ORGANIZATION_ADMIN", mustChangePassword: true });
  }, 30_000);
});

describe("into a database in use (the demo one)", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase();
  });
  afterAll(() => t.close());

  it("refuses an email that belongs to a user who is not the organization's admin, writing nothing", async () => {
    const before = await t.activityCount();
    expect(await createFirstAdmin(t.db, { ...ANN, organization: "Demo Clinics", email: "staff@demo.clinic" })).toEqual({
      ok: false,
      message:
        "A user with the email staff@demo.clinic already exists and is not an organization admin of Demo Clinics. Nothing was written: use another email, or sign in as an organization admin and manage that user on the Users screen.",
    });
    expect(await t.activityCount()).toBe(before);
    const [staff] = await t.db.select().from(schema.users).where(eq(schema.users.email, "staff@demo.clinic"));
    expect(staff?.organizationRole).toBeNull();
  });

  it("leaves the demo owner as they are: already the organization's admin", async () => {
    expect(
      await createFirstAdmin(t.db, { ...ANN, organization: "Demo Clinics", email: "owner@demo.clinic" }),
    ).toMatchObject({ ok: true, written: false });
  });
});
