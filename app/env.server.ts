// The bindings and variables both workers receive. Secrets (`wrangler secret put` in production,
// .data/workers.env with `npm start`): DATABASE_URL, DATABASE_AUTH_TOKEN, SESSION_SECRET and
// SENTRY_DSN. Vars (wrangler.toml, wrangler.jobs.toml): APP_VERSION; SENTRY_BROWSER_DSN, optional, set
// per deployment (`wrangler deploy --var` or the dashboard), never in the repository.
export interface Env {
  /** Secret: the deployment's libSQL URL (libsql:// or https://), kept with its token, out of the repository. */
  DATABASE_URL: string;
  /** Secret. */
  DATABASE_AUTH_TOKEN?: string;
  /** Secret. Comma-separated; the first signs new cookies, the rest still verify (rotation). */
  SESSION_SECRET?: string;
  APP_VERSION?: string;
  /** Secret (its key can be used to send events). */
  SENTRY_DSN?: string;
  /**
   * Var, optional: the DSN the browser reports to (ADR 0037). Public by design (every page that
   * reports hands it to the browser), so it is not the workers' secret SENTRY_DSN; unset, the
   * browser reports nothing and loads no SDK.
   */
  SENTRY_BROWSER_DSN?: string;
  FILES: R2Bucket;
  ASSETS?: Fetcher;
}

export function sessionSecrets(env: Env): string[] {
  const secrets = (env.SESSION_SECRET ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (secrets.length === 0) throw new Error("SESSION_SECRET is not set: sessions cannot be signed.");
  return secrets;
}
