import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { configDefaults, defineConfig } from "vitest/config";

// Three layers, one command: unit (pure modules beside the code), integration (domain commands
// and the local libSQL server against real databases), workers (both workers inside workerd).
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "scripts/**/*.test.ts", "db/schema/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "db/**/*.test.ts"],
          // The schema's own tests read files only: they run with the unit tests.
          exclude: [...configDefaults.exclude, "db/schema/**"],
          environment: "node",
          globalSetup: ["tests/support/global-setup.ts"],
          // Sign-ins hash with PBKDF2 at 100,000 iterations: slow on a loaded 2-core CI machine.
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest(({ inject }) => ({
            main: "./workers/app.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                DATABASE_URL: inject("databaseUrl"),
                DATABASE_AUTH_TOKEN: inject("databaseAuthToken"),
                SESSION_SECRET: "workers-test-secret",
              },
            },
          })),
        ],
        resolve: {
          alias: { "virtual:remix/server-build": new URL("./build/server/index.js", import.meta.url).pathname },
        },
        test: {
          name: "workers",
          include: ["tests/workers/**/*.test.ts"],
          globalSetup: ["tests/workers/global-setup.ts"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
