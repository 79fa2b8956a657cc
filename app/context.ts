// What every loader and action receives from the worker (workers/app.ts).
import type { Database } from "./db/client.server";
import type { Env } from "./env.server";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    env: Env;
    ctx: ExecutionContext;
    db: Database;
    /** This response's Content-Security-Policy nonce (app/http/security-headers.server.ts). */
    cspNonce: string;
  }
}
