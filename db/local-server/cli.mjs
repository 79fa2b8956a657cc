#!/usr/bin/env node
// @ts-check
// Runs the local libSQL server from the environment (see README.md):
//   LIBSQL_DB_PATH (default .data/local.db), LIBSQL_PORT (default 8080), LIBSQL_AUTH_TOKEN (made up when unset).
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { startLocalServer } from "./server.mjs";

const dbPath = process.env.LIBSQL_DB_PATH || ".data/local.db";
const port = Number(process.env.LIBSQL_PORT || 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`LIBSQL_PORT must be a port number, got ${JSON.stringify(process.env.LIBSQL_PORT)}`);
  process.exit(1);
}
// Always a token: without one, any web page open on this machine could post SQL to the port.
const given = process.env.LIBSQL_AUTH_TOKEN;
const authToken = given || randomBytes(32).toString("hex");

mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
const server = await startLocalServer({ dbPath, port, authToken });
console.log(`libsql local server listening on ${server.url} (db: ${dbPath})`);
if (!given) {
  // Printed to this terminal only, never put on a command line; set LIBSQL_AUTH_TOKEN to choose it.
  console.log(`Clients need DATABASE_AUTH_TOKEN=${authToken}`);
}

let stopping = false;
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
