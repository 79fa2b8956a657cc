import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { reportError } from "./observability/report.server";

const ABORT_DELAY_MS = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  // Streamed so a slow clinic connection starts painting before the whole page is ready.
  const body = await renderToReadableStream(<RemixServer context={remixContext} url={request.url} />, {
    signal: AbortSignal.timeout(ABORT_DELAY_MS),
    onError(error: unknown) {
      if (!request.signal.aborted) console.error(error);
      responseStatusCode = 500;
    },
  });
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("X-Content-Type-Options", "nosniff");
  responseHeaders.set("Referrer-Policy", "same-origin");
  responseHeaders.set("X-Frame-Options", "DENY");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  reportError(error, { request, env: context.env, ctx: context.ctx });
};
