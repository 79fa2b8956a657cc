// Starts the built product once for the end-to-end run, on a fresh demo database.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { startProduct } from "../../scripts/lib/product";

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("playwright.config.ts must set use.baseURL");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clinic-e2e-"));
  const product = await startProduct({ port: Number(new URL(baseURL).port), dataDir, quiet: true });
  return async () => {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
