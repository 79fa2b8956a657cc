// The app worker: Remix pages, /api/* resource routes and /health, in front of libSQL.

import * as build from "virtual:remix/server-build";
import { createRequestHandler } from "@remix-run/cloudflare";
import "../app/context";
import { createDatabase } from "../app/db/client.server";
import type { Env } from "../app/env.server";
import { CROSS_SITE_REFUSED, isCrossSiteWrite } from "../app/http/cross-site.server";
import { admitFormPost } from "../app/http/form-post.server";
import { newNonce, reportingOrigin, withSecurityHeaders } from "../app/http/security-headers.server";
import { reportError } from "../app/observability/report.server";

const handleRemixRequest = createRequestHandler(build);

async function handle(request: Request, env: Env, ctx: ExecutionContext, cspNonce: string): Promise<Response> {
  if (isCrossSiteWrite(request)) {
    return new Response(CROSS_SITE_REFUSED, {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  try {
    // A form post that is not a form, too large, or carries a file stops here with a 4xx.
    const admitted = await admitFormPost(request);
    if (admitted instanceof Response) return admitted;
    return await handleRemixRequest(admitted, { env, ctx, db: createDatabase(env), cspNonce });
  } catch (error) {
    reportError(error, { request, env, ctx });
    return new Response("Unexpected server error", { status: 500 });
  }
}

export default {
  // Every answer, refusals and errors included, leaves with the security headers; the nonce is
  // made here so the page's inline scripts and the CSP header agree.
  async fetch(request, env, ctx) {
    const cspNonce = newNonce();
    return withSecurityHeaders(
      await handle(request, env, ctx, cspNonce),
      request,
      cspNonce,
      reportingOrigin(env.SENTRY_BROWSER_DSN),
    );
  },
} satisfies ExportedHandler<Env>;
