// npm run db:bundle — writes the drizzle migrations into app/backups/migrations.generated.ts, so the
// jobs worker (which has no file system) can migrate an older snapshot forward when restoring it.
// Run it after `drizzle-kit generate`; a unit test fails while the bundle is stale.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { bundledMigrationsSource } from "./lib/migrations-bundle";

const target = new URL("../app/backups/migrations.generated.ts", import.meta.url).pathname;
writeFileSync(target, bundledMigrationsSource());
// Formatted as the linter wants it, so `npm test` passes right after a bundle.
execFileSync("node_modules/.bin/biome", ["format", "--write", target], { stdio: "ignore" });
console.log(`Wrote ${target}`);
