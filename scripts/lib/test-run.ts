// What `npm test` runs and how it sums up, kept apart from the spawning so it can be tested: every
// layer runs even when an earlier one failed (one run shows every failure), except a layer whose
// input is missing (the worker and browser tests run the build); the summary names the layers that
// did not run instead of counting their tests as zero.

export type LayerName = "typecheck" | "lint" | "build" | "vitest" | "e2e";

export interface Layer {
  name: LayerName;
  /** Layers whose success this one needs (its input is their output). */
  needs: LayerName[];
}

export const LAYERS: readonly Layer[] = [
  { name: "typecheck", needs: [] },
  { name: "lint", needs: [] },
  { name: "build", needs: [] },
  // The unit and integration projects need no build; the workers project loads build/server.
  { name: "vitest", needs: [] },
  { name: "e2e", needs: ["build"] },
];

export type LayerResult = "passed" | "failed" | { notRun: string };

/** Why `layer` cannot run given the results so far, or null when it can. */
export function blockedBy(layer: Layer, results: ReadonlyMap<LayerName, LayerResult>): string | null {
  const missing = layer.needs.filter((need) => results.get(need) !== "passed");
  return missing.length ? `${missing.join(" and ")} did not pass` : null;
}

/** The vitest projects that can run: the workers project needs the build. */
export function vitestProjects(buildPassed: boolean): string[] {
  return buildPassed ? ["unit", "integration", "workers"] : ["unit", "integration"];
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface Summary {
  lines: string[];
  ok: boolean;
}

/**
 * The closing lines: which layers failed or did not run, then one "tests: N passed, N failed,
 * N skipped" line. A failed layer with no failing test (typecheck, lint, build, a crashed runner)
 * counts as one failure, so the closing line never reads as a clean run.
 */
export function summarize(
  results: ReadonlyMap<LayerName, LayerResult>,
  reported: Partial<Record<"vitest" | "e2e", Counts>>,
  notes: string[] = [],
): Summary {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const c of Object.values(reported)) {
    counts.passed += c.passed;
    counts.failed += c.failed;
    counts.skipped += c.skipped;
  }
  const failed: LayerName[] = [];
  const notRun: string[] = [];
  for (const [name, result] of results) {
    if (result === "failed") {
      failed.push(name);
      const testLayer = name === "vitest" || name === "e2e";
      if (!testLayer || (reported[name]?.failed ?? 0) === 0) counts.failed += 1;
    } else if (typeof result === "object") notRun.push(`${name} (${result.notRun})`);
  }
  const lines = [...notes];
  if (failed.length) lines.push(`failed layers: ${failed.join(", ")}`);
  if (notRun.length) lines.push(`not run, so not counted below: ${notRun.join("; ")}`);
  lines.push(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return { lines, ok: failed.length === 0 && notRun.length === 0 };
}
