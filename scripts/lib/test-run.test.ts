import { describe, expect, it } from "vitest";
import { blockedBy, LAYERS, type LayerName, type LayerResult, summarize, vitestProjects } from "./test-run";

const layer = (name: LayerName) => {
  const found = LAYERS.find((l) => l.name === name);
  if (!found) throw new Error(name);
  return found;
};

describe("npm test's plan", () => {
  it("runs every layer after a failed typecheck or lint: one run shows every failure", () => {
    const results = new Map<LayerName, LayerResult>([
      ["typecheck", "failed"],
      ["lint", "failed"],
      ["build", "passed"],
    ]);
    expect(blockedBy(layer("vitest"), results)).toBeNull();
    expect(blockedBy(layer("e2e"), results)).toBeNull();
  });

  it("skips the browser tests and the workers project only when the build they load did not pass", () => {
    const results = new Map<LayerName, LayerResult>([["build", "failed"]]);
    expect(blockedBy(layer("vitest"), results)).toBeNull();
    expect(blockedBy(layer("e2e"), results)).toBe("build did not pass");
    expect(vitestProjects(false)).toEqual(["unit", "integration"]);
    expect(vitestProjects(true)).toEqual(["unit", "integration", "workers"]);
  });
});

describe("npm test's summary", () => {
  const vitest = { passed: 600, failed: 0, skipped: 0 };

  it("ends a clean run with one closing count", () => {
    const results = new Map<LayerName, LayerResult>(LAYERS.map((l) => [l.name, "passed"]));
    const summary = summarize(results, { vitest, e2e: { passed: 60, failed: 0, skipped: 0 } });
    expect(summary).toEqual({ ok: true, lines: ["tests: 660 passed, 0 failed, 0 skipped"] });
  });

  it("names layers that did not run instead of counting their tests as 0 skipped", () => {
    const results = new Map<LayerName, LayerResult>([
      ["typecheck", "passed"],
      ["lint", "passed"],
      ["build", "failed"],
      ["vitest", "passed"],
      ["e2e", { notRun: "build did not pass" }],
    ]);
    const summary = summarize(results, { vitest });
    expect(summary.ok).toBe(false);
    expect(summary.lines).toEqual([
      "failed layers: build",
      "not run, so not counted below: e2e (build did not pass)",
      "tests: 600 passed, 1 failed, 0 skipped",
    ]);
  });

  it("counts a failed layer without failing tests (typecheck, a crashed runner) as a failure", () => {
    const results = new Map<LayerName, LayerResult>([
      ["typecheck", "failed"],
      ["vitest", "failed"],
      ["e2e", "failed"],
    ]);
    const summary = summarize(results, { vitest, e2e: { passed: 10, failed: 2, skipped: 1 } });
    // typecheck 1, vitest's report shows no failing test so 1, e2e's two failing tests.
    expect(summary.lines.at(-1)).toBe("tests: 610 passed, 4 failed, 1 skipped");
    expect(summary.lines[0]).toBe("failed layers: typecheck, vitest, e2e");
  });
});
