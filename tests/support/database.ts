// A fresh demo database per test file, served by the local libSQL server over HTTP, reached with
// the same client the workers use.

import { randomBytes } from "node:crypto";
import { count, desc } from "drizzle-orm";
import { inject } from "vitest";
import { createDatabase, type Database, schema } from "../../app/db/client.server";
import { startLocalServer } from "../../db/local-server/server.mjs";
import { copyTemplate } from "./template";

export interface TestDatabase {
  url: string;
  /** The server's bearer token (it always needs one). */
  authToken: string;
  db: Database;
  /** HTTP pipeline requests the server has answered since the last reset: the round trips. */
  roundTrips: () => number;
  resetRoundTrips: () => void;
  /** Rows in the activity log, to prove a change logged itself (or a refusal did not). */
  activityCount: () => Promise<number>;
  /** The newest activity row. */
  lastActivity: () => Promise<typeof schema.activityLog.$inferSelect | undefined>;
  close: () => Promise<void>;
}

export async function freshDatabase(): Promise<TestDatabase> {
  const file = copyTemplate(inject("templateDatabase"));
  const authToken = randomBytes(16).toString("hex");
  const server = await startLocalServer({ dbPath: file.path, port: 0, authToken });
  const db = createDatabase({ DATABASE_URL: server.url, DATABASE_AUTH_TOKEN: authToken });
  return {
    url: server.url,
    authToken,
    db,
    roundTrips: () => server.stats.pipelines,
    resetRoundTrips: () => server.resetStats(),
    activityCount: async () => {
      const [row] = await db.select({ n: count() }).from(schema.activityLog);
      return row?.n ?? 0;
    },
    lastActivity: async () => {
      const [row] = await db.select().from(schema.activityLog).orderBy(desc(schema.activityLog.id)).limit(1);
      return row;
    },
    close: async () => {
      await server.close();
      file.remove();
    },
  };
}

/** The demo locations' ids by code, and their organization (the seed makes fresh ids per template). */
export async function demoLocations(
  db: Database,
): Promise<{ loc: Record<"DTN" | "WST" | "NTH", string>; organizationId: string }> {
  // One query: every demo location belongs to the one demo organization, so its rows carry that id too.
  const rows = await db
    .select({ id: schema.locations.id, code: schema.locations.code, organizationId: schema.locations.organizationId })
    .from(schema.locations);
  const loc = Object.fromEntries(rows.map((l) => [l.code, l.id])) as Record<"DTN" | "WST" | "NTH", string>;
  return { loc, organizationId: rows[0]?.organizationId ?? "" };
}
