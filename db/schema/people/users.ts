import { sql } from "drizzle-orm";
import { check, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, instant } from "../columns";
import { organizations } from "../organization/organizations";

export const users = sqliteTable(
  "users",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    // Stored lower-cased so sign-in is case-insensitive and the unique index catches "Ann@" vs "ann@".
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    // "<algorithm>$<parameters>$<salt>$<hash>", so the KDF can be upgraded user by user.
    passwordHash: text("password_hash").notNull(),
    organizationRole: text("organization_role", { enum: ["ORGANIZATION_ADMIN"] }),
    active: flag("active").notNull().default(true),
    mustChangePassword: flag("must_change_password").notNull().default(false),
    lastLoginAt: instant("last_login_at"),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    check("users_email_lowercase", sql`${t.email} = lower(${t.email})`),
    check(
      "users_organization_role_known",
      sql`${t.organizationRole} IS NULL OR ${t.organizationRole} = 'ORGANIZATION_ADMIN'`,
    ),
  ],
);
