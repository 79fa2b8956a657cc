// Migrating and seeding from Node: the same drizzle migrations and seed the workers rely on.
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import * as schema from "../../db/schema";
import { isEmpty, seedDemo } from "../seed/demo";

export const MIGRATIONS_FOLDER = new URL("../../db/migrations", import.meta.url).pathname;

export function connect(url: string, authToken?: string) {
  return drizzle(createClient({ url, authToken: authToken || undefined }), { schema });
}

export async function migrateDatabase(url: string, authToken?: string): Promise<void> {
  const db = connect(url, authToken);
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    db.$client.close();
  }
}

/** Seeds the demo organization if the database has none yet; answers whether it did. */
export async function seedDemoIfEmpty(url: string, authToken?: string): Promise<boolean> {
  const db = connect(url, authToken);
  try {
    if (!(await isEmpty(db))) return false;
    await seedDemo(db);
    return true;
  } finally {
    db.$client.close();
  }
}

/** A database on this machine: a file, or a server on the loopback interface. */
export function isLocalDatabase(url: string): boolean {
  if (url.startsWith("file:") || url === ":memory:") return true;
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "::1" || host === "[::1]" || host.startsWith("127.");
  } catch {
    return false;
  }
}
