// npm test — everything a change can break, in order of cost: typecheck, lint, build, vitest
// (unit, integration, workers), then Playwright in Chromium. Ends with one "N passed, N failed" line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const bin = (name: string) => path.join("node_modules", ".bin", name);
const reports = path.resolve("tests/.tmp/reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

interface Step {
  name: string;
  command: string;
  args: string[];
}

const steps: Step[] = [
  { name: "typecheck", command: bin("tsc"), args: ["--noEmit"] },
  { name: "lint", command: bin("biome"), args: ["check", "."] },
  { name: "build", command: bin("remix"), args: ["vite:build"] },
  {
    name: "vitest",
    command: bin("vitest"),
    args: ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/vitest.json`],
  },
  {
    name: "e2e",
    command: bin("playwright"),
    args: ["test"],
  },
];

const started = Date.now();
let failedStep: string | undefined;
for (const step of steps) {
  const t0 = Date.now();
  console.log(`\n▶ ${step.name}`);
  const result = spawnSync(step.command, step.args, {
    stdio: "inherit",
    env: {
      ...process.env,
      PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/playwright.json`,
    },
  });
  console.log(`◀ ${step.name}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (result.status !== 0) {
    failedStep = step.name;
    break;
  }
}

const counts = { passed: 0, failed: 0, skipped: 0 };
const vitest = readJson(`${reports}/vitest.json`) as
  | { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }
  | undefined;
if (vitest) {
  counts.passed += vitest.numPassedTests;
  counts.failed += vitest.numFailedTests;
  counts.skipped += vitest.numPendingTests + vitest.numTodoTests;
}
const playwright = readJson(`${reports}/playwright.json`) as
  | { stats: { expected: number; unexpected: number; flaky: number; skipped: number } }
  | undefined;
if (playwright) {
  counts.passed += playwright.stats.expected + playwright.stats.flaky;
  counts.failed += playwright.stats.unexpected;
  counts.skipped += playwright.stats.skipped;
}
if (failedStep && counts.failed === 0) counts.failed = 1; // a failed typecheck/lint/build counts

console.log(
  `\nnpm test took ${((Date.now() - started) / 1000).toFixed(0)} s${failedStep ? `; failed at: ${failedStep}` : ""}`,
);
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failedStep ? 1 : 0);

function readJson(file: string): unknown {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}
