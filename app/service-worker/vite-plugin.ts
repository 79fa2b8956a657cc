// Builds the service worker (app/service-worker/sw.ts) to /sw.js beside the client build, once the
// client build is written: one small classic script with no imports, its version the hash of the
// client build's file names (so every build that changes a file is a new worker with new caches).
// Runs in Node, from vite.config.ts; nothing in the app imports it.
import { createHash } from "node:crypto";
import path from "node:path";
import { build, type Plugin, type ResolvedConfig } from "vite";

export const SERVICE_WORKER_FILE = "sw.js";

export function serviceWorker(): Plugin {
  let config: ResolvedConfig | undefined;
  let files: string[] = [];
  return {
    name: "clinic-service-worker",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      files = Object.keys(bundle).sort();
    },
    async closeBundle() {
      // Remix builds twice: the client (here) and the server (no worker there).
      if (!config || config.build.ssr) return;
      const root = config.root;
      const version = createHash("sha256").update(files.join("\n")).digest("hex").slice(0, 16);
      await build({
        configFile: false,
        root,
        logLevel: "warn",
        resolve: { alias: { "~": path.resolve(root, "app") } },
        define: { __SW_VERSION__: JSON.stringify(version) },
        build: {
          outDir: path.resolve(root, config.build.outDir),
          emptyOutDir: false,
          copyPublicDir: false,
          sourcemap: false,
          minify: true,
          target: "es2022",
          lib: {
            entry: path.resolve(root, "app/service-worker/sw.ts"),
            formats: ["iife"],
            name: "clinicServiceWorker",
            fileName: () => SERVICE_WORKER_FILE,
          },
        },
      });
    },
  };
}
