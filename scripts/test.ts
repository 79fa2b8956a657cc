// npm test — everything a change can break, in order of cost: typecheck, lint, build, vitest
// (unit, integration, workers), then Playwright in Chromium. Every layer runs even when an earlier
// one failed, so one run shows every failure (scripts/lib/test-run.ts says which cannot). Ends with
// one "tests: N passed, N failed, N skipped" line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import {
  blockedBy,
  type Counts,
  LAYERS,
  type LayerName,
  type LayerResult,
  summarize,
  vitestProjects,
} from "./lib/test-run";

const bin = (name: string) => path.join("node_modules", ".bin", name);
const reports = path.resolve("tests/.tmp/reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

function commandOf(name: LayerName, results: ReadonlyMap<LayerName, LayerResult>): [string, string[]] {
  switch (name) {
    case "typecheck":
      return [bin("tsc"), ["--noEmit"]];
    case "lint":
      return [bin("biome"), ["check", "."]];
    case "build":
      return [bin("remix"), ["vite:build"]];
    case "vitest":
      return [
        bin("vitest"),
        [
          "run",
          ...vitestProjects(results.get("build") === "passed").flatMap((p) => ["--project", p]),
          "--reporter=default",
          "--reporter=json",
          `--outputFile.json=${reports}/vitest.json`,
        ],
      ];
    case "e2e":
      return [bin("playwright"), ["test"]];
  }
}

const started = Date.now();
const results = new Map<LayerName, LayerResult>();
const notes: string[] = [];
for (const layer of LAYERS) {
  const blocked = blockedBy(layer, results);
  if (blocked) {
    console.log(`\n◀ ${layer.name}: not run (${blocked})`);
    results.set(layer.name, { notRun: blocked });
    continue;
  }
  const t0 = Date.now();
  console.log(`\n▶ ${layer.name}`);
  const [command, args] = commandOf(layer.name, results);
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/playwright.json` },
  });
  results.set(layer.name, result.status === 0 ? "passed" : "failed");
  console.log(
    `◀ ${layer.name}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}
if (results.get("build") !== "passed") notes.push("vitest ran without its workers project: the build did not pass");

const reported: Partial<Record<"vitest" | "e2e", Counts>> = {};
const vitest = readJson(`${reports}/vitest.json`) as
  | { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }
  | undefined;
if (vitest) {
  reported.vitest = {
    passed: vitest.numPassedTests,
    failed: vitest.numFailedTests,
    skipped: vitest.numPendingTests + vitest.numTodoTests,
  };
} else if (results.get("vitest") === "failed") notes.push("vitest wrote no report (it stopped before its tests ran)");
const playwright = readJson(`${reports}/playwright.json`) as
  | { stats: { expected: number; unexpected: number; flaky: number; skipped: number } }
  | undefined;
if (playwright) {
  reported.e2e = {
    passed: playwright.stats.expected + playwright.stats.flaky,
    failed: playwright.stats.unexpected,
    skipped: playwright.stats.skipped,
  };
} else if (results.get("e2e") === "failed") notes.push("Playwright wrote no report (it stopped before its tests ran)");

const summary = summarize(results, reported, notes);
console.log(`\nnpm test took ${((Date.now() - started) / 1000).toFixed(0)} s`);
for (const line of summary.lines) console.log(line);
process.exit(summary.ok ? 0 : 1);

function readJson(file: string): unknown {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}
