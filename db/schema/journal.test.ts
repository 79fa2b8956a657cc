// drizzle's migrator applies a migration only when its `when` is later than the newest one a
// database has applied, so a journal whose times go back skips migrations on databases that are
// part way through (two branches that each generated one, merged in the other order).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const journal = JSON.parse(readFileSync(new URL("../migrations/meta/_journal.json", import.meta.url), "utf8")) as {
  entries: { idx: number; when: number; tag: string }[];
};

describe("the migrations' journal", () => {
  it("numbers its migrations in order, each later than the one before", () => {
    journal.entries.forEach((entry, i) => {
      expect(entry.idx).toBe(i);
      expect(entry.tag.startsWith(String(i).padStart(4, "0"))).toBe(true);
      if (i > 0) expect(entry.when, entry.tag).toBeGreaterThan(journal.entries[i - 1]?.when ?? 0);
    });
  });
});
