// Starts the built product once for the end-to-end run, on a fresh demo database, plus a small
// control endpoint on loopback so a test can stop and restart the database (outage screens).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { startProduct } from "../../scripts/lib/product";
import { controlPort } from "./support";

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("playwright.config.ts must set use.baseURL");
  const port = Number(new URL(baseURL).port);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clinic-e2e-"));
  const product = await startProduct({ port, dataDir, quiet: true });
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
