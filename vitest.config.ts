import { defineConfig } from "vitest/config";

// Three layers, one command: unit (pure modules beside the code), integration (domain commands
// and the local libSQL server against real databases), workers (the built workers in workerd).
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "workers/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "db/**/*.test.ts"],
          environment: "node",
          testTimeout: 20_000,
        },
      },
    ],
  },
});
