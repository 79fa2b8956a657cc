// What a new deployer reads and runs agrees with the repository: the README's commands exist, the
// Node version is said once and every dependency accepts it, and the workers' secrets are never
// also vars (a var of the same name clashes with `wrangler secret put` and overwrites it on deploy).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// semver is npm's own range logic, already installed (hoisted) with the toolchain.
const semver = createRequire(import.meta.url)("semver") as {
  minVersion: (range: string) => { version: string } | null;
  satisfies: (version: string, range: string) => boolean;
};

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
const readme = read("README.md");
const pkg = JSON.parse(read("package.json")) as { engines: { node: string }; scripts: Record<string, string> };
const lock = JSON.parse(read("package-lock.json")) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

/** The names a wrangler config sets under [vars]. */
function varsOf(toml: string): string[] {
  const section = /^\[vars\]\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(toml)?.[1] ?? "";
  return [...section.matchAll(/^([A-Z_][A-Z0-9_]*)\s*=/gm)].map((m) => m[1] ?? "");
}

describe("the README's commands", () => {
  it("names only npm scripts that exist, and the script files behind them exist", () => {
    const named = [...readme.matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1] ?? "");
    expect(named).toContain("admin:create");
    for (const name of new Set(named)) {
      expect(pkg.scripts, `npm run ${name}`).toHaveProperty([name]);
      const file = /tsx (scripts\/[\w./-]+\.ts)/.exec(pkg.scripts[name] ?? "")?.[1];
      if (file) expect(existsSync(new URL(`../../${file}`, import.meta.url)), file).toBe(true);
    }
  });
});

describe("the Node version", () => {
  it("is Node 20 in .nvmrc and engines, and every locked package accepts the lowest one allowed", () => {
    const lowest = semver.minVersion(pkg.engines.node)?.version ?? "";
    expect(lowest).toBe("20.19.0");
    expect(read(".nvmrc").trim()).toBe("20");
    expect(semver.satisfies("22.0.0", pkg.engines.node)).toBe(false);
    const refusing = Object.entries(lock.packages)
      .filter(([name, p]) => name && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(lowest, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name} (${(p.engines as { node: string }).node})`);
    expect(refusing).toEqual([]);
  });
});

describe("the workers' secrets", () => {
  const SECRETS = ["DATABASE_URL", "DATABASE_AUTH_TOKEN", "SESSION_SECRET", "SENTRY_DSN"];

  it("are never vars in either wrangler config, and the README puts each one as a secret", () => {
    for (const config of ["wrangler.toml", "wrangler.jobs.toml"]) {
      const vars = varsOf(read(config));
      expect(vars, config).toContain("APP_VERSION");
      expect(
        vars.filter((name) => SECRETS.includes(name)),
        config,
      ).toEqual([]);
    }
    expect(readme).toContain("npx wrangler secret put DATABASE_URL");
    for (const name of SECRETS) expect(readme).toMatch(new RegExp(`\`${name}\`[^\\n]*\\(secret`));
  });
});
