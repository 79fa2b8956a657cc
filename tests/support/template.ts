// A migrated, demo-seeded database file made once per test run; each test file copies it, which
// is much faster than migrating and hashing demo passwords again.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase, seedDemoIfEmpty } from "../../scripts/lib/database";

export async function createTemplateDatabase(): Promise<{ path: string; remove: () => void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clinic-template-"));
  const file = path.join(dir, "template.db");
  await migrateDatabase(`file:${file}`);
  await seedDemoIfEmpty(`file:${file}`);
  return { path: file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function copyTemplate(template: string): { path: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clinic-db-"));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "clinic.db");
  copyFileSync(template, file);
  return { path: file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
