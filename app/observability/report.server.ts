// Error reporting through toucan-js (Sentry) when SENTRY_DSN is set, with the secrets the spec
// names removed from request data; always logged to the worker's console.
import { Toucan } from "toucan-js";
import type { Env } from "~/env.server";

const SECRET_FIELDS = ["password", "currentPassword", "newPassword", "confirmPassword", "token", "apiKey", "secret"];

export function scrubSecrets<T>(data: T): T {
  if (Array.isArray(data)) return data.map(scrubSecrets) as T;
  if (data && typeof data === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      if (!SECRET_FIELDS.includes(key)) out[key] = scrubSecrets(value);
    }
    return out as T;
  }
  return data;
}

export function reportError(
  error: unknown,
  { request, env, ctx }: { request?: Request; env: Env; ctx?: ExecutionContext },
): void {
  console.error(error);
  if (!env.SENTRY_DSN) return;
  const sentry = new Toucan({
    dsn: env.SENTRY_DSN,
    request,
    context: ctx,
    release: env.APP_VERSION,
    tracesSampleRate: 0.1,
    // Never send cookies, auth headers or bodies; scrub what is left.
    requestDataOptions: { allowedHeaders: ["user-agent", "content-type"], allowedSearchParams: /^(?!token$).*/ },
    beforeSend: (event) => scrubSecrets(event),
  });
  sentry.captureException(error);
}
