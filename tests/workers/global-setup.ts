// The workers run inside workerd and reach their database over HTTP, like in production: start a
// local libSQL server on a copy of the demo template for the whole workers project.
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startLocalServer } from "../../db/local-server/server.mjs";
import "../support/global-setup";
import { copyTemplate, createTemplateDatabase } from "../support/template";

export default async function setup(project: TestProject) {
  const template = await createTemplateDatabase();
  const copy = copyTemplate(template.path);
  const databaseAuthToken = randomBytes(16).toString("hex");
  const server = await startLocalServer({ dbPath: copy.path, port: 0, authToken: databaseAuthToken });
  project.provide("databaseUrl", server.url);
  project.provide("databaseAuthToken", databaseAuthToken);
  project.provide("templateDatabase", template.path);
  return async () => {
    await server.close();
    copy.remove();
    template.remove();
  };
}
