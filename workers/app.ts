// The app worker: Remix pages, /api/* resource routes and /health, in front of libSQL.

import * as build from "virtual:remix/server-build";
import { createRequestHandler } from "@remix-run/cloudflare";
import "../app/context";
import { createDatabase } from "../app/db/client.server";
import type { Env } from "../app/env.server";
import { CROSS_SITE_REFUSED, isCrossSiteWrite } from "../app/http/cross-site.server";
import { reportError } from "../app/observability/report.server";

const handleRemixRequest = createRequestHandler(build);

export default {
  async fetch(request, env, ctx) {
    if (isCrossSiteWrite(request)) {
      return new Response(CROSS_SITE_REFUSED, {
        status: 403,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    try {
      return await handleRemixRequest(request, { env, ctx, db: createDatabase(env) });
    } catch (error) {
      reportError(error, { request, env, ctx });
      return new Response("Unexpected server error", { status: 500 });
    }
  },
} satisfies ExportedHandler<Env>;
