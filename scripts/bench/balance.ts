// Times the balancing suggestions' one batch on a data set (default the large one), as the transfers
// page would run it: as the organization's owner in organization mode, and as one location's
// manager; then explains each statement and classifies its plan as the large bench does.
// `npx tsx scripts/bench/balance.ts [--data-dir .data-large] [--runs 10]`
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import Database from "libsql";
import { createDatabase } from "../../app/db/client.server";
import { balancingSuggestions } from "../../app/transfers/balance.server";
import { startLocalServer } from "../../db/local-server/server.mjs";
import { explainStatements } from "./plans";

const { values } = parseArgs({ options: { "data-dir": { type: "string" }, runs: { type: "string" } } });
const file = `${values["data-dir"] ?? ".data-large"}/clinic.db`;
const runs = Number(values.runs ?? 10);
// Through the local libSQL server over HTTP, as the product reads it.
const authToken = randomBytes(16).toString("hex");
const server = await startLocalServer({ dbPath: file, port: 0, authToken, captureStatements: true });
const db = createDatabase({ DATABASE_URL: server.url, DATABASE_AUTH_TOKEN: authToken });

const [owner] = await db.all<{ id: string }>(sql`SELECT id FROM users WHERE email = 'owner@large.clinic'`);
const locations = await db.all<{ id: string; code: string }>(
  sql`SELECT id, code FROM locations WHERE active = 1 ORDER BY code`,
);
if (!owner) throw new Error("no owner@large.clinic: not the large data set");
const actor = {
  id: owner.id,
  organizationRole: "ORGANIZATION_ADMIN" as const,
  locationId: "all",
  locationRoles: locations.map((l) => ({ locationId: l.id, role: "ADMIN" as const })),
};
const now = new Date();
for (const [label, ids] of [
  ["organization", locations.map((l) => l.id)],
  [locations[0]?.code ?? "one", [locations[0]?.id ?? ""]],
] as const) {
  const times: number[] = [];
  let count = 0;
  for (let r = 0; r < runs + 2; r++) {
    const started = performance.now();
    const suggestions = await balancingSuggestions(db, actor as never, ids, now);
    if (r >= 2) times.push(performance.now() - started);
    count = suggestions.length;
    if (r === 0) for (const s of suggestions.slice(0, 4)) console.log(`  ${s.kind}: ${s.why}`);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(1);
  console.log(`${label}: ${count} suggestions, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms over ${runs} runs`);
}

// Plans and SQLite's own step counters for each statement of one run, in organization mode and at one location.
for (const [label, ids] of [
  ["organization", locations.map((l) => l.id)],
  [locations[0]?.code ?? "one", [locations[0]?.id ?? ""]],
] as const) {
  server.resetStatements();
  await balancingSuggestions(db, actor as never, ids, now);
  console.log(`${label}:`);
  for (const e of explainStatements(file, server.statements())) {
    const started = performance.now();
    const native = new Database(`file:${file}?mode=ro`);
    native.prepare(e.sql).all(e.args as never[]);
    const ms = performance.now() - started;
    native.close();
    console.log(
      `  ${e.sql.slice(0, 50).replace(/\s+/g, " ")}… ${e.verdict}, ${e.vmSteps} steps, ${ms.toFixed(1)} ms native`,
    );
    for (const f of e.findings) console.log(`    ${f.verdict}: ${f.detail}`);
    if (process.env.PLANS) for (const r of e.plan) console.log(`      ${r.detail}`);
  }
}
await server.close();
