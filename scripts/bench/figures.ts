// Times the jobs worker's dashboard figures on a data set (default the large one): one run works
// out the organization's figures and each location's, as the work cron does every minute (ADR
// 0030), and writes them (the product reads them). Prints each run's time and its statements' steps.
// Then times the counts' review figures the same way (every count waiting for review, each
// approved one not yet worked out since its approval: the first run after a seed works out ten).
// `npx tsx scripts/bench/figures.ts [--data-dir .data-large] [--runs 5]`
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { workOutCountReviews } from "../../app/counts/review.server";
import { workOutOrganizationFigures } from "../../app/dashboard/organization-figures.server";
import { createDatabase } from "../../app/db/client.server";
import { startLocalServer } from "../../db/local-server/server.mjs";
import { explainStatements } from "./plans";

const { values } = parseArgs({ options: { "data-dir": { type: "string" }, runs: { type: "string" } } });
const file = `${values["data-dir"] ?? ".data-large"}/clinic.db`;
const runs = Number(values.runs ?? 5);
// Through the local libSQL server over HTTP, as the jobs worker reads it.
const authToken = randomBytes(16).toString("hex");
const server = await startLocalServer({ dbPath: file, port: 0, authToken, captureStatements: true });
const db = createDatabase({ DATABASE_URL: server.url, DATABASE_AUTH_TOKEN: authToken });

const times: number[] = [];
for (let r = 0; r < runs; r++) {
  server.resetStatements();
  const started = performance.now();
  const done = await workOutOrganizationFigures(db, new Date());
  times.push(performance.now() - started);
  console.log(`run ${r + 1}: ${done} in ${times.at(-1)?.toFixed(0)} ms`);
}
const steps = explainStatements(file, server.statements()).reduce((sum, e) => sum + (e.vmSteps ?? 0), 0);
times.sort((a, b) => a - b);
console.log(
  `median ${times[Math.floor(times.length / 2)]?.toFixed(0)} ms over ${runs} runs; the last run's statements: ${steps.toLocaleString("en-US")} VM steps`,
);
for (let r = 0; r < runs; r++) {
  server.resetStatements();
  const started = performance.now();
  const done = await workOutCountReviews(db);
  const ms = performance.now() - started;
  const counted = explainStatements(file, server.statements()).reduce((sum, e) => sum + (e.vmSteps ?? 0), 0);
  console.log(
    `count reviews run ${r + 1}: ${done} in ${ms.toFixed(0)} ms, ${counted.toLocaleString("en-US")} VM steps`,
  );
}
await server.close();
