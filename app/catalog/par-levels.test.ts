// A par level is written in one place (parLevelWrite): the bulk page and the product page share it,
// so its guards, its activity row and its "changed" rule cannot drift apart again.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const app = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sources = readdirSync(app, { recursive: true, encoding: "utf8" })
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
  .map((f) => ({ path: relative(resolve(app, ".."), join(app, f)), text: readFileSync(join(app, f), "utf8") }));

describe("par level writes", () => {
  it("have one upsert and one delete in app/, in app/catalog/par-levels.server.ts", () => {
    const writers = (statement: RegExp) => sources.filter((s) => statement.test(s.text)).map((s) => s.path);
    expect(writers(/INSERT\s+INTO\s+par_levels\b/i)).toEqual(["app/catalog/par-levels.server.ts"]);
    expect(writers(/DELETE\s+FROM\s+par_levels\b/i)).toEqual(["app/catalog/par-levels.server.ts"]);
  });
});
