// npm start — build, then run the whole product on this machine with its embedded defaults.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { startProduct } from "./lib/product";
import { DEMO_PASSWORD, DEMO_USERS } from "./seed/demo";
import { LARGE_USERS } from "./seed/large/targets";

const port = Number(process.env.PORT ?? 8787);
const dataDir = path.resolve(process.env.DATA_DIR ?? ".data");
// Local cron: wrangler dev never fires crons by itself, so fire the import pick-up like production.
const CRON_EVERY_MS = 5 * 60 * 1000;

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

const cron = setInterval(() => {
  fetch(`${product.jobsUrl}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => {});
}, CRON_EVERY_MS);

console.log(`
Clinic Inventory is running at ${product.url}
  health:      ${product.url}/health
  jobs worker: ${product.jobsUrl} (trigger a run: ${product.jobsUrl}/__scheduled)
  data:        ${dataDir}

${logins()}

Press Ctrl-C to stop.`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(cron);
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
