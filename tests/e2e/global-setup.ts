// Starts the built product once for the end-to-end run, on a fresh demo database, plus a small
// control endpoint on loopback so a test can stop and restart the database (outage screens).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { sql } from "drizzle-orm";
import { connect } from "../../scripts/lib/database";
import { startProduct } from "../../scripts/lib/product";
import { receiveVials, variationNamed } from "../support/receive";
import { controlPort } from "./support";

/**
 * More sealed Botox 100 U vials at Downtown than the demo's six: the specs that open one at the cart
 * (`sealedVial`: inventory, check-before-send, text fields, the offline queue, flagged records) and
 * the transfer of three all take them from the one shared database. Received as receiving does.
 */
async function spareVials(dataDir: string, databaseUrl: string) {
  const env = readFileSync(path.join(dataDir, "workers.env"), "utf8");
  const token = env.match(/^DATABASE_AUTH_TOKEN='([^']+)'$/m)?.[1];
  const db = connect(databaseUrl, token);
  try {
    // Downtown's admin, working at Downtown.
    const [admin] = await db.all<{ id: string }>(sql`SELECT id FROM users WHERE email = 'admin@demo.clinic'`);
    const [downtown] = await db.all<{ id: string }>(sql`SELECT id FROM locations WHERE code = 'DTN'`);
    if (!admin || !downtown) throw new Error("the demo data has no admin or no Downtown");
    const actor = {
      id: admin.id,
      organizationRole: null,
      locationRoles: [{ locationId: downtown.id, role: "ADMIN" as const }],
      locationId: downtown.id,
    };
    const inAYear = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await receiveVials(db, actor, {
      locationId: downtown.id,
      variationId: await variationNamed(db, "Botox Cosmetic", "100 U vial"),
      quantity: 8,
      lot: "E2ESPARE",
      expirationDate: inAYear,
    });
  } finally {
    db.$client.close();
  }
}

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("playwright.config.ts must set use.baseURL");
  const port = Number(new URL(baseURL).port);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clinic-e2e-"));
  const product = await startProduct({ port, dataDir, quiet: true });
  try {
    await spareVials(dataDir, product.databaseUrl);
  } catch (error) {
    await product.stop();
    throw error;
  }
  // Read by security.spec.ts (workers inherit the environment global setup leaves behind).
  process.env.E2E_DATA_DIR = dataDir;

  const control = createServer(async (request, response) => {
    const action = request.method === "POST" ? request.url : undefined;
    if (action === "/database/stop") await product.stopDatabase?.();
    else if (action === "/database/start") await product.startDatabase?.();
    else {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => control.listen(controlPort(port), "127.0.0.1", resolve));

  return async () => {
    control.close();
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
