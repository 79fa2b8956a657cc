// npm start's secrets stay off command lines: wrangler gets them in an env file only this user can
// read. (The e2e run checks the real processes: tests/e2e/security.spec.ts.)
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { wranglerArgs, writeWorkerSecrets } from "../../scripts/lib/product";

const dir = mkdtempSync(path.join(os.tmpdir(), "clinic-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRETS = {
  DATABASE_URL: "http://127.0.0.1:4321",
  SESSION_SECRET: "session-secret-0123456789abcdef",
  DATABASE_AUTH_TOKEN: "db-token-fedcba9876543210",
};

describe("the workers' secrets", () => {
  it("go to a file readable by this user only, even where a readable one was before", () => {
    writeFileSync(path.join(dir, "workers.env"), "old", { mode: 0o644 });
    const file = writeWorkerSecrets(dir, SECRETS);
    expect(file).toBe(path.join(dir, "workers.env"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("are written so wrangler's dotenv reads them back literally", () => {
    const file = writeWorkerSecrets(dir, { ...SECRETS, SESSION_SECRET: "a$HOME#b" });
    const text = readFileSync(file, "utf8");
    expect(text.split("\n")).toEqual([
      "DATABASE_URL='http://127.0.0.1:4321'",
      "SESSION_SECRET='a\\$HOME#b'",
      "DATABASE_AUTH_TOKEN='db-token-fedcba9876543210'",
      "",
    ]);
    expect(() => writeWorkerSecrets(dir, { ...SECRETS, DATABASE_AUTH_TOKEN: "x'y" })).toThrow(/DATABASE_AUTH_TOKEN/);
    expect(() => writeWorkerSecrets(dir, { ...SECRETS, DATABASE_URL: "x\nEVIL=1" })).toThrow(/DATABASE_URL/);
  });

  it("never reach wrangler's command line, which names the file instead", () => {
    const file = writeWorkerSecrets(dir, SECRETS);
    const args = wranglerArgs({ config: "wrangler.toml", port: 8787, envFile: file, persist: dir }).join(" ");
    expect(args).toContain(`--env-file ${file}`);
    expect(args).not.toContain("--var");
    for (const value of Object.values(SECRETS)) expect(args).not.toContain(value);
  });
});
