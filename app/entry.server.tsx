import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { NonceProvider } from "~/ui/nonce";
import { reportError } from "./observability/report.server";

const ABORT_DELAY_MS = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The nonce goes to every inline script: Remix's (root.tsx, single fetch's stream transfer) and
  // React's own streaming scripts. workers/app.ts sends the matching CSP header.
  const nonce = loadContext.cspNonce;
  // Streamed so a slow clinic connection starts painting before the whole page is ready.
  const page = (
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>
  );
  // Give up on a render still waiting after ABORT_DELAY_MS, but only while it is unfinished: an
  // abort after the stream closed makes React close it twice (TypeError: ReadableStream is closed).
  const giveUp = new AbortController();
  const timer = setTimeout(() => giveUp.abort(), ABORT_DELAY_MS);
  const body = await renderToReadableStream(page, {
    nonce,
    signal: giveUp.signal,
    onError(error: unknown) {
      if (!request.signal.aborted) console.error(error);
      responseStatusCode = 500;
    },
  });
  const settled = () => clearTimeout(timer);
  body.allReady.then(settled, settled);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  reportError(error, { request, env: context.env, ctx: context.ctx });
};
