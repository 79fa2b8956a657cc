// The bindings and variables both workers receive (wrangler.toml, wrangler.jobs.toml, secrets).
export interface Env {
  DATABASE_URL: string;
  DATABASE_AUTH_TOKEN?: string;
  /** Comma-separated; the first signs new cookies, the rest still verify (rotation). */
  SESSION_SECRET?: string;
  APP_VERSION?: string;
  SENTRY_DSN?: string;
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
