// The schema is the bottom layer: app/ imports it, never the other way round (a schema importing
// app code drags the app into migrations and seeds, and app code into drizzle-kit). Its
// constants.ts files import nothing at all, so pages can use their lists without drizzle.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const schemaDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(schemaDir, "../..");
const app = join(root, "app");

const files = readdirSync(schemaDir, { recursive: true, encoding: "utf8" })
  .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"))
  .map((f) => join(schemaDir, f));

/** Every module a file names in an import or export ... from, or a dynamic import(). */
function specifiers(source: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] as string));
}

describe("db/schema", () => {
  it("has files to check", () => {
    expect(files.map((f) => relative(schemaDir, f))).toEqual(
      expect.arrayContaining(["index.ts", join("stock", "constants.ts"), join("settings", "constants.ts")]),
    );
  });

  it("imports nothing from app/", () => {
    const fromApp = files.flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter((s) => s.startsWith("~/") || (s.startsWith(".") && resolve(dirname(file), s).startsWith(app)))
        .map((s) => `${relative(root, file)} imports ${s}`),
    );
    expect(fromApp).toEqual([]);
  });

  it("keeps its constants.ts files free of imports, so the browser can use them", () => {
    const constants = files.filter((f) => f.endsWith("constants.ts"));
    const imports = constants.flatMap((file) =>
      specifiers(readFileSync(file, "utf8")).map((s) => `${relative(root, file)} imports ${s}`),
    );
    expect(imports).toEqual([]);
  });
});
