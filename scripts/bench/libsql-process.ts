// The local libSQL server in a process of its own, for the benches that measure this process's
// memory (a backup, an import): what the process holds is then the engine's, not the database's.
import { type ChildProcess, spawn } from "node:child_process";

export async function startLibsqlProcess(dbPath: string, port: number, token: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["db/local-server/cli.mjs"], {
    env: { ...process.env, LIBSQL_DB_PATH: dbPath, LIBSQL_PORT: String(port), LIBSQL_AUTH_TOKEN: token },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the local libSQL server exited (${code})`)));
  });
  return child;
}
