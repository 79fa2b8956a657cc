// Runs the whole product locally: the libSQL server, migrations, demo seed, and both workers in
// workerd through wrangler, bundled with production React as deployed. Used by `npm start`, the
// end-to-end tests and the bench.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type CapturedStatement, startLocalServer } from "../../db/local-server/server.mjs";
import { migrateDatabase, seedDemoIfEmpty } from "./database";
import { checkProductionReact, devBundleDirs, PRODUCTION_BUNDLE_ENV } from "./production-react";

export interface ProductOptions {
  port: number;
  dataDir: string;
  /** Use this database instead of starting the local server (e.g. a real sqld or Turso URL). */
  databaseUrl?: string;
  databaseAuthToken?: string;
  log?: (line: string) => void;
  /** Pass workerd's output through (npm start) or keep it quiet (tests, bench). */
  quiet?: boolean;
  /** Keep every statement the local server runs (the large bench); off by default. */
  captureStatements?: boolean;
  /**
   * Migrate and write the demo data into an empty database (the default). False runs the product
   * on the database as it is, e.g. the large data set, which the bench must not change.
   */
  prepareDatabase?: boolean;
}

export interface RunningProduct {
  url: string;
  jobsUrl: string;
  databaseUrl: string;
  /** Pipeline counters of the local libSQL server (absent with an external database). */
  databaseStats?: { pipelines: number; requests: number };
  resetDatabaseStats?: () => void;
  /** The statements the local server ran since the last reset (with `captureStatements`). */
  databaseStatements?: () => CapturedStatement[];
  resetDatabaseStatements?: () => void;
  /** Stop and start the local database, for tests of the outage screens. */
  stopDatabase?: () => Promise<void>;
  startDatabase?: () => Promise<void>;
  stop: () => Promise<void>;
}

const ROOT = path.resolve(new URL("../..", import.meta.url).pathname);

const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  NO_UPDATE_NOTIFIER: "1",
  // The workers' secrets come from the --env-file alone: not from process.env, and never skipped.
  CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: "true",
  CLOUDFLARE_INCLUDE_PROCESS_ENV: "false",
};

/** What the workers read as secrets (wrangler binds each as a secret text). */
export interface WorkerSecrets {
  DATABASE_URL: string;
  SESSION_SECRET: string;
  DATABASE_AUTH_TOKEN?: string;
}

export async function startProduct(options: ProductOptions): Promise<RunningProduct> {
  const log = options.log ?? (() => {});
  mkdirSync(options.dataDir, { recursive: true });

  let database: Awaited<ReturnType<typeof startLocalServer>> | undefined;
  let databaseUrl = options.databaseUrl;
  const dbPath = path.join(options.dataDir, "clinic.db");
  // A new token each run for the local server, which refuses every pipeline without it.
  const localToken = randomBytes(32).toString("hex");
  const databaseAuthToken = databaseUrl ? options.databaseAuthToken : localToken;
  const captureStatements = options.captureStatements ?? false;
  if (!databaseUrl) {
    database = await startLocalServer({ dbPath, port: 0, authToken: localToken, captureStatements });
    databaseUrl = database.url;
    log(`libSQL local server: ${databaseUrl} (file ${dbPath})`);
  }

  if (options.prepareDatabase ?? true) {
    await migrateDatabase(databaseUrl, databaseAuthToken);
    if (await seedDemoIfEmpty(databaseUrl, databaseAuthToken)) log("Demo data written (first run).");
  }

  const envFile = writeWorkerSecrets(options.dataDir, {
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: sessionSecret(options.dataDir),
    ...(databaseAuthToken ? { DATABASE_AUTH_TOKEN: databaseAuthToken } : {}),
  });
  const persist = path.join(options.dataDir, "wrangler");
  const jobsPort = options.port + 1;
  const common = { envFile, persist, quiet: options.quiet };
  // The bundles wrangler holds now: the check below reads only those these two write.
  const bundlesBefore = devBundleDirs(ROOT);

  const children = [
    wrangler(wranglerArgs({ config: "wrangler.toml", port: options.port, ...common }), options),
    wrangler(wranglerArgs({ config: "wrangler.jobs.toml", port: jobsPort, testScheduled: true, ...common }), options),
  ];
  const url = `http://127.0.0.1:${options.port}`;
  const jobsUrl = `http://127.0.0.1:${jobsPort}`;

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(children.map(stopGroup));
    await database?.close();
    // The run's database token dies with it; the session secret stays in its own file.
    rmSync(envFile, { force: true });
  };

  try {
    await Promise.all([waitUntilUp(`${url}/health`, children[0]), waitUntilUp(`${jobsUrl}/`, children[1])]);
    checkProductionReact(ROOT, bundlesBefore);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    jobsUrl,
    databaseUrl,
    get databaseStats() {
      return database?.stats;
    },
    resetDatabaseStats: () => database?.resetStats(),
    databaseStatements: database ? () => database?.statements() ?? [] : undefined,
    resetDatabaseStatements: database ? () => database?.resetStatements() : undefined,
    stopDatabase: database ? () => database?.close() ?? Promise.resolve() : undefined,
    startDatabase: database
      ? async () => {
          const port = database?.port;
          database = await startLocalServer({ dbPath, port, authToken: localToken, captureStatements });
        }
      : undefined,
    stop,
  };
}

/**
 * The command line of one `wrangler dev`. It holds no secret: every process on the machine can
 * read it (ps, /proc/<pid>/cmdline); secrets travel in the --env-file (writeWorkerSecrets).
 */
export function wranglerArgs(options: {
  config: string;
  port: number;
  envFile: string;
  persist: string;
  quiet?: boolean;
  testScheduled?: boolean;
}): string[] {
  return [
    path.join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    "-c",
    options.config,
    "--port",
    String(options.port),
    ...(options.testScheduled ? ["--test-scheduled"] : []),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    options.persist,
    "--inspector-port",
    "0",
    "--show-interactive-dev-session=false",
    "--log-level",
    options.quiet ? "error" : "warn",
    "--env-file",
    options.envFile,
  ];
}

/**
 * Writes the workers' secrets for wrangler's --env-file, readable by this user only (0600), and
 * answers its path. Values are single-quoted (dotenv takes them literally) with "$" escaped
 * (wrangler expands $NAME even there).
 */
export function writeWorkerSecrets(dataDir: string, secrets: WorkerSecrets): string {
  const lines = Object.entries(secrets).map(([name, value]: [string, string]) => {
    if (/['\r\n]/.test(value)) {
      throw new Error(`${name} cannot contain a quote or a line break; check its value in your environment.`);
    }
    return `${name}='${value.replaceAll("$", "\\$")}'`;
  });
  const file = path.join(dataDir, "workers.env");
  // Removed first: writeFileSync's mode only applies to a file it creates.
  rmSync(file, { force: true });
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600, flag: "wx" });
  return file;
}

function wrangler(args: string[], options: ProductOptions): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Own process group: workerd children outlive a killed wrangler unless the group is stopped.
    detached: true,
    stdio: ["ignore", options.quiet ? "ignore" : "inherit", options.quiet ? "pipe" : "inherit"],
    // Bundled as `wrangler deploy` bundles it: production React (scripts/lib/production-react.ts).
    env: { ...process.env, ...OFFLINE_ENV, ...PRODUCTION_BUNDLE_ENV },
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  child.on("exit", (code) => {
    if (code && errors) console.error(errors);
  });
  return child;
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {}
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

async function waitUntilUp(url: string, child: ChildProcess | undefined, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child?.exitCode !== null && child?.exitCode !== undefined)
      throw new Error(`wrangler exited (${child.exitCode}) before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** A random signing secret per data folder, so local cookies survive restarts but not other machines. */
function sessionSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
