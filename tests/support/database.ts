// A fresh demo database per test file, served by the local libSQL server over HTTP, reached with
// the same client the workers use.
import { inject } from "vitest";
import { createDatabase, type Database } from "../../app/db/client.server";
import { startLocalServer } from "../../db/local-server/server.mjs";
import { copyTemplate } from "./template";

export interface TestDatabase {
  url: string;
  db: Database;
  /** HTTP pipeline requests the server has answered since the last reset: the round trips. */
  roundTrips: () => number;
  resetRoundTrips: () => void;
  close: () => Promise<void>;
}

export async function freshDatabase(): Promise<TestDatabase> {
  const file = copyTemplate(inject("templateDatabase"));
  const server = await startLocalServer({ dbPath: file.path, port: 0 });
  return {
    url: server.url,
    db: createDatabase({ DATABASE_URL: server.url }),
    roundTrips: () => server.stats.pipelines,
    resetRoundTrips: () => server.resetStats(),
    close: async () => {
      await server.close();
      file.remove();
    },
  };
}
