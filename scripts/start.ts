// npm start — build, then run the whole product on this machine with its embedded defaults.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { CRONS } from "../app/jobs/scheduled.server";
import { startProduct } from "./lib/product";
import { DEMO_PASSWORD, DEMO_USERS } from "./seed/demo";
import { LARGE_USERS } from "./seed/large/targets";

const port = Number(process.env.PORT ?? 8787);
const dataDir = path.resolve(process.env.DATA_DIR ?? ".data");
// Local crons: wrangler dev never fires crons by itself, so fire them like production, the work cron
// more often (every 10 s, so a backup asked for on the screen moves without waiting a minute). The
// nightly one (snapshot + retention) only with --nightly, at 03:00 UTC like production.
const WORK_EVERY_MS = 10 * 1000;
const FIVE_MINUTES_MS = 5 * 60 * 1000;
const nightly = process.argv.includes("--nightly");

if (!process.argv.includes("--no-build")) {
  console.log("Building…");
  execFileSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "vite:build"], { stdio: "inherit" });
}

const product = await startProduct({
  port,
  dataDir,
  databaseUrl: process.env.DATABASE_URL,
  databaseAuthToken: process.env.DATABASE_AUTH_TOKEN,
  log: (line) => console.log(line),
});

const fire = (cron: string) => fetch(`${product.jobsUrl}/__scheduled?cron=${encodeURIComponent(cron)}`).catch(() => {});
let lastNight = "";
const timers = [
  setInterval(() => fire(CRONS.work), WORK_EVERY_MS),
  setInterval(() => fire(CRONS.fiveMinutes), FIVE_MINUTES_MS),
  setInterval(() => {
    const now = new Date();
    const night = now.toISOString().slice(0, 10);
    if (!nightly || now.getUTCHours() !== 3 || lastNight === night) return;
    lastNight = night;
    fire(CRONS.nightly);
  }, 30 * 1000),
];

console.log(`
Clinic Inventory is running at ${product.url}
  health:      ${product.url}/health
  jobs worker: ${product.jobsUrl} (a tick by hand: ${product.jobsUrl}/__scheduled?cron=<cron>)
  crons:       work every 10 s, deadlines every 5 min, nightly backup ${nightly ? "at 03:00 UTC" : "off (--nightly)"}
  data:        ${dataDir}

${logins()}

Press Ctrl-C to stop.`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    for (const timer of timers) clearInterval(timer);
    console.log("\nStopping…");
    await product.stop();
    process.exit(0);
  });
}

/** The logins of the data set it runs on: the large one (npm run seed:large) or the demo. */
function logins(): string {
  const users =
    path.basename(dataDir) === ".data-large"
      ? Object.values(LARGE_USERS).map((u) => [u.email, u.role])
      : DEMO_USERS.map((u) => [
          u.email,
          u.organizationRole ?? (u.roles.map((r) => `${r.role} at ${r.code}`).join(", ") || "no locations"),
        ]);
  return `Logins (password "${DEMO_PASSWORD}"):\n${users.map(([email, role]) => `  ${email?.padEnd(22)} ${role}`).join("\n")}`;
}
