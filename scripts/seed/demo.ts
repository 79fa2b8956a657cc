// The demo organization every local run, test and bench starts from. Kept stable: tests and the
// README name these locations, emails and the shared password.
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { v7 as uuidv7 } from "uuid";
import { hashPassword } from "../../app/auth/password.server";
import * as schema from "../../db/schema/index";
import { catalogSeedStatements } from "./catalog";
import { purchasingSeedStatements } from "./purchasing";
import { stockSeedStatements } from "./stock";

export const DEMO_PASSWORD = "demo-password";

export const DEMO_LOCATIONS = [
  { code: "DTN", name: "Downtown", address: "100 Main Street", timezone: "America/New_York" },
  { code: "WST", name: "Westside", address: "2500 West Avenue", timezone: "America/New_York" },
  { code: "NTH", name: "North", address: "8 North Park Road", timezone: "America/New_York" },
] as const;

type Code = (typeof DEMO_LOCATIONS)[number]["code"];

export const DEMO_USERS: readonly {
  email: string;
  firstName: string;
  lastName: string;
  organizationRole?: "ORGANIZATION_ADMIN";
  roles: readonly { code: Code; role: schema.LocationRole }[];
}[] = [
  {
    email: "owner@demo.clinic",
    firstName: "Olivia",
    lastName: "Owner",
    organizationRole: "ORGANIZATION_ADMIN",
    roles: [],
  },
  {
    email: "admin@demo.clinic",
    firstName: "Adam",
    lastName: "Admin",
    roles: [
      { code: "DTN", role: "ADMIN" },
      { code: "WST", role: "MANAGER" },
    ],
  },
  { email: "manager@demo.clinic", firstName: "Maria", lastName: "Manager", roles: [{ code: "WST", role: "MANAGER" }] },
  { email: "staff@demo.clinic", firstName: "Sam", lastName: "Staff", roles: [{ code: "DTN", role: "STAFF" }] },
  {
    email: "multi@demo.clinic",
    firstName: "Morgan",
    lastName: "Multi",
    roles: [
      { code: "DTN", role: "STAFF" },
      { code: "NTH", role: "STAFF" },
    ],
  },
  { email: "newhire@demo.clinic", firstName: "Nina", lastName: "Newhire", roles: [] },
];

type AnyLibsqlDatabase = LibSQLDatabase<typeof schema>;

export async function isEmpty(db: AnyLibsqlDatabase): Promise<boolean> {
  const rows = await db.select({ id: schema.organizations.id }).from(schema.organizations).limit(1);
  return rows.length === 0;
}

/** Writes the demo organization in one batch (one transaction): all of it or nothing. */
export async function seedDemo(db: AnyLibsqlDatabase): Promise<void> {
  const org = { id: uuidv7(), name: "Demo Clinics" };
  const locationIds = new Map<Code, string>(DEMO_LOCATIONS.map((l) => [l.code, uuidv7()]));
  // One hash for the shared demo password keeps seeding fast; real users each get their own salt.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const users = DEMO_USERS.map((u) => ({ ...u, id: uuidv7() }));

  await db.batch([
    db.insert(schema.organizations).values(org),
    db
      .insert(schema.locations)
      .values(DEMO_LOCATIONS.map((l) => ({ ...l, id: locationIds.get(l.code) as string, organizationId: org.id }))),
    db.insert(schema.users).values(
      users.map((u) => ({
        id: u.id,
        organizationId: org.id,
        email: u.email,
        firstName: u.firstName,
        lastName: u.lastName,
        organizationRole: u.organizationRole ?? null,
        passwordHash,
      })),
    ),
    db
      .insert(schema.userLocationRoles)
      .values(
        users.flatMap((u) =>
          u.roles.map((r) => ({ userId: u.id, locationId: locationIds.get(r.code) as string, role: r.role })),
        ),
      ),
    ...catalogSeedStatements(db, { organizationId: org.id, locationIds }),
    ...stockSeedStatements(db, {
      organizationId: org.id,
      locationIds,
      userIds: new Map(users.map((u) => [u.email, u.id])),
    }),
    ...purchasingSeedStatements(db, {
      organizationId: org.id,
      locationIds,
      userIds: new Map(users.map((u) => [u.email, u.id])),
    }),
  ]);
}
