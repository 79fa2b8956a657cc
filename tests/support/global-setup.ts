// Vitest global setup for the integration project: one template database for the whole run.
import type { TestProject } from "vitest/node";
import { createTemplateDatabase } from "./template";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
    databaseUrl: string;
    databaseAuthToken: string;
  }
}

export default async function setup(project: TestProject) {
  const template = await createTemplateDatabase();
  project.provide("templateDatabase", template.path);
  return () => template.remove();
}
