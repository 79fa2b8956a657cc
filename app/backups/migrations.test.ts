// The migrations bundled into the jobs worker are db/migrations as they are: a migration added
// without `npm run db:bundle` would leave restores of older snapshots without it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MIGRATIONS } from "./migrations.generated";

describe("the bundled migrations", () => {
  it("equal db/migrations (run npm run db:bundle after drizzle-kit generate)", () => {
    const folder = new URL("../../db/migrations/", import.meta.url);
    const journal = JSON.parse(readFileSync(new URL("meta/_journal.json", folder), "utf8")) as {
      entries: { tag: string; when: number }[];
    };
    expect(MIGRATIONS.map((m) => [m.tag, m.when])).toEqual(journal.entries.map((e) => [e.tag, e.when]));
    for (const m of MIGRATIONS) {
      const sql = readFileSync(new URL(`${m.tag}.sql`, folder), "utf8");
      expect(m.statements.join("\n"), m.tag).toEqual(
        sql
          .split("--> statement-breakpoint")
          .map((s) => s.trim())
          .filter(Boolean)
          .join("\n"),
      );
    }
  });
});
