// One drizzle client per request (or per scheduled run) over libSQL's HTTP protocol: the web
// client is the one that runs in Workers, and each call is one HTTP round trip.
import { createClient } from "@libsql/client/web";
import { drizzle } from "drizzle-orm/libsql/web";
import * as schema from "../../db/schema";

export type Database = ReturnType<typeof createDatabase>;

export function createDatabase(env: { DATABASE_URL: string; DATABASE_AUTH_TOKEN?: string }) {
  const client = createClient({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN || undefined });
  return drizzle(client, { schema });
}

export { schema };
