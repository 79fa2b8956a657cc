// Error reporting through toucan-js (Sentry) when SENTRY_DSN is set, with the secrets and patient
// references the spec names removed by the one scrubber the browser's reporter uses too (./scrub);
// always logged to the worker's console.
import { type Options, Toucan } from "toucan-js";
import type { Env } from "~/env.server";
import { scrub } from "./scrub";

/** Toucan's options for one request's report: sampling per spec section 9, everything scrubbed. */
export function reporterOptions({
  dsn,
  release,
  request,
  ctx,
}: {
  dsn: string;
  release?: string;
  request?: Request;
  ctx?: ExecutionContext;
}): Options {
  return {
    dsn,
    request,
    context: ctx,
    release,
    tracesSampleRate: 0.1,
    // Never send cookies, auth headers or bodies; the query goes through the scrubber.
    requestDataOptions: { allowedHeaders: ["user-agent", "content-type"], allowedSearchParams: true },
    beforeSend: (event) => scrub(event),
    beforeBreadcrumb: (breadcrumb) => scrub(breadcrumb),
  };
}

export function reportError(
  error: unknown,
  { request, env, ctx }: { request?: Request; env: Env; ctx?: ExecutionContext },
): void {
  console.error(error);
  if (!env.SENTRY_DSN) return;
  const sentry = new Toucan(reporterOptions({ dsn: env.SENTRY_DSN, release: env.APP_VERSION, request, ctx }));
  sentry.captureException(error);
}
