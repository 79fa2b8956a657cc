// npm run admin:create — the first organization admin of a database (production included, where
// the demo seed refuses to run): creates the organization if the database has none, and an
// ORGANIZATION_ADMIN account hashed exactly as the app hashes passwords, with its activity row, in
// one batch. Safe to run again: an email that is already that organization's admin writes nothing.
//
//   DATABASE_URL=libsql://… DATABASE_AUTH_TOKEN=… npm run admin:create -- \
//     --organization "Lakeside Clinics" --email ann@lakeside.clinic --first-name Ann --last-name Lee
//
// Secrets never come from the command line (every process on the machine can read it): the
// database URL and token from the environment, the password typed at a prompt that does not echo
// it, or ADMIN_PASSWORD for automation (that account must then change it at first sign-in).
import { stdin, stdout } from "node:process";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { createDatabase, type Database, schema } from "~/db/client.server";
import { constraintFailed } from "~/db/sql.server";
import { fieldErrorsOf } from "~/forms/field-errors";
import { accountStatements } from "~/users/create.server";
import { CreateUserForm } from "~/users/forms";

export interface FirstAdmin {
  organization: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  /** The password was not typed by its owner (ADMIN_PASSWORD): they change it at first sign-in. */
  mustChangePassword: boolean;
}

export type FirstAdminOutcome =
  | { ok: true; written: boolean; userId: string; organizationId: string; message: string }
  | { ok: false; message: string };

/** Checks the input as the users screen does (same email, name and password rules); the first problem, or null. */
export function problemOf(input: FirstAdmin): string | null {
  if (!input.organization.trim()) return "Give the organization's name with --organization.";
  if (input.organization.trim().length > 100) return "The organization's name is too long (at most 100 characters).";
  const parsed = CreateUserForm.safeParse({ ...input, locationId: "", role: "" });
  if (parsed.success) return null;
  const errors = fieldErrorsOf(parsed.error);
  return Object.entries(errors)
    .map(([field, message]) => `${field}: ${message}`)
    .join(" ");
}

export async function createFirstAdmin(db: Database, raw: FirstAdmin): Promise<FirstAdminOutcome> {
  const problem = problemOf(raw);
  if (problem) return { ok: false, message: problem };
  const input = { ...raw, organization: raw.organization.trim(), email: raw.email.trim().toLowerCase() };

  const [organizations, existing] = await db.batch([
    db.select({ id: schema.organizations.id, name: schema.organizations.name }).from(schema.organizations).limit(2),
    db
      .select({
        id: schema.users.id,
        organizationId: schema.users.organizationId,
        organizationRole: schema.users.organizationRole,
      })
      .from(schema.users)
      .where(eq(schema.users.email, input.email)),
  ]);
  const organization = organizations.find((o) => o.name === input.organization);
  const user = existing[0];
  if (user) {
    if (organization && user.organizationId === organization.id && user.organizationRole === "ORGANIZATION_ADMIN") {
      return {
        ok: true,
        written: false,
        userId: user.id,
        organizationId: organization.id,
        message: `${input.email} is already an organization admin of ${input.organization}; nothing written.`,
      };
    }
    return {
      ok: false,
      message: `A user with the email ${input.email} already exists and is not an organization admin of ${input.organization}. Nothing was written: use another email, or sign in as an organization admin and manage that user on the Users screen.`,
    };
  }
  // One clinic chain per database (db/schema/organization/organizations.ts).
  if (!organization && organizations.length > 0) {
    const names = organizations.map((o) => `"${o.name}"`).join(", ");
    return {
      ok: false,
      message: `This database already holds the organization ${names}, and one database is one organization. Nothing was written: run again with --organization ${organizations[0]?.name ? `"${organizations[0].name}"` : "and its name"}.`,
    };
  }

  const organizationId = organization?.id ?? uuidv7();
  const userId = uuidv7();
  const now = new Date();
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  const account = await accountStatements(
    db,
    {
      ...input,
      firstName,
      lastName,
      userId,
      // NULL (and the batch rolled back) if the organization is not the one checked above.
      organizationId: sql`(SELECT id FROM organizations WHERE id = ${organizationId})`,
      organizationRole: "ORGANIZATION_ADMIN",
      now,
    },
    {
      userId: null,
      locationId: null,
      summary: {
        organizationRole: "ORGANIZATION_ADMIN",
        organization: input.organization,
        organizationCreated: !organization,
        by: "npm run admin:create",
      },
    },
  );
  try {
    await db.batch([
      // Guarded in SQL as well: only into an empty database, even if another run got there first.
      db.run(sql`INSERT INTO organizations (id, name, created_at)
        SELECT ${organizationId}, ${input.organization}, ${now.getTime()}
        WHERE NOT EXISTS (SELECT 1 FROM organizations)`),
      ...account,
    ]);
  } catch (error) {
    if (constraintFailed(error, /users\.email|users\.organization_id/)) {
      return {
        ok: false,
        message: "The database changed while this ran (another run?). Nothing was written: run again.",
      };
    }
    throw error;
  }
  return {
    ok: true,
    written: true,
    userId,
    organizationId,
    message: `${input.email} is now an organization admin of ${input.organization}${organization ? "" : " (organization created)"}.`,
  };
}

/** Reads a line from the terminal without echoing what is typed. */
function promptHidden(question: string): Promise<string> {
  const rl = createInterface({ input: stdin, output: stdout, terminal: true });
  const writer = rl as unknown as { _writeToOutput: (text: string) => void };
  let muted = false;
  writer._writeToOutput = (text) => {
    if (!muted) stdout.write(text);
  };
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      stdout.write("\n");
      resolve(answer);
    });
    muted = true;
  });
}

async function passwordFromUser(): Promise<{ password: string; typed: boolean }> {
  const fromEnv = process.env.ADMIN_PASSWORD;
  if (fromEnv) return { password: fromEnv, typed: false };
  if (!stdin.isTTY) {
    throw new Error("No terminal to type the password in: set ADMIN_PASSWORD in the environment instead.");
  }
  const password = await promptHidden("Password for the new admin (at least 12 characters): ");
  const again = await promptHidden("Type it again: ");
  if (password !== again) throw new Error("The two passwords differ. Nothing was written: run again.");
  return { password, typed: true };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      organization: { type: "string" },
      email: { type: "string" },
      "first-name": { type: "string" },
      "last-name": { type: "string" },
    },
  });
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("Set DATABASE_URL (and DATABASE_AUTH_TOKEN) in the environment: the database to write to.");
    return 1;
  }
  const fields = {
    organization: values.organization ?? "",
    email: values.email ?? "",
    firstName: values["first-name"] ?? "",
    lastName: values["last-name"] ?? "",
  };
  // Say what is missing before asking for a password.
  const early = problemOf({ ...fields, password: "x".repeat(12), mustChangePassword: false });
  if (early) {
    console.error(early);
    return 1;
  }
  const { password, typed } = await passwordFromUser();
  const db = createDatabase({ DATABASE_URL: url, DATABASE_AUTH_TOKEN: process.env.DATABASE_AUTH_TOKEN });
  const outcome = await createFirstAdmin(db, { ...fields, password, mustChangePassword: !typed });
  console[outcome.ok ? "log" : "error"](outcome.message);
  return outcome.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
