// The Remix server build that `npm run build` writes to build/server; wrangler.toml aliases this
// name to it, so the worker typechecks before the first build.
declare module "virtual:remix/server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";

  const build: ServerBuild;
  export = build;
}
