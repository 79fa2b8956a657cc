// The schema version a snapshot records and a restore compares: the newest applied migration.
import type { Client } from "@libsql/client";
import type { SchemaVersion } from "./format";
import { MIGRATIONS } from "./migrations.generated";

export async function liveSchemaVersion(client: Client): Promise<SchemaVersion> {
  const result = await client.execute("SELECT max(created_at) AS at FROM __drizzle_migrations");
  const when = Number(result.rows[0]?.at ?? 0);
  const known = MIGRATIONS.find((m) => m.when === when);
  return { tag: known?.tag ?? `unknown migration of ${new Date(when).toISOString()}`, when };
}
