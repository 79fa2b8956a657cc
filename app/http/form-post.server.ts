// The gate every form post passes before Remix (workers/app.ts, ADR 0020): a write to any path
// outside /api/ must be a form as a browser sends one (415 otherwise: a JSON body, text, nothing
// declared), within FORM_BODY_MAX_BYTES counted as it streams (413), and carry no file (400) unless
// FORM_LIMITS lets its route take one; the uploads a route streams itself (STREAMED_UPLOADS) pass
// unread. Remix then reads a bounded body it can parse, so no action meets a body it would answer
// with a 500, and a new route cannot forget the check. /api/ writes are read by the
// JSON glue (api.server.ts), which has its own limit and error shape.
import { isFormMediaType, mediaTypeOf, readBounded } from "./body.server";

/**
 * The largest form post read (128 KiB). The largest form is the bulk par level sheet at its
 * 200-row maximum (about 55 KB encoded); a 2,000-character note in a non-Latin script is about
 * 18 KB percent-encoded. A route that needs more (a CSV upload) gets its own entry in FORM_LIMITS.
 */
export const FORM_BODY_MAX_BYTES = 128 * 1024;

/**
 * Routes whose form posts may be larger than FORM_BODY_MAX_BYTES, or carry files. The recipes
 * import takes a file of at most 1 MiB: up to 8 MiB is read, so a file a little too large gets
 * the page's own message (the limit, beside the form) rather than this gate's plain-text answer.
 */
export const FORM_LIMITS: readonly { path: RegExp; maxBytes: number; files: boolean }[] = [
  // The page posts to /recipes-import, and to /recipes-import.data when JavaScript sends the form.
  { path: /^\/recipes-import(?:\.data)?\/?$/, maxBytes: 8 * 1024 * 1024, files: true },
];

/**
 * Routes whose multipart post is a file upload the route reads itself, as a stream, with its own
 * limits and messages (a sales file is up to 90 MB: read here, it would be held whole in memory).
 * Passed on unread; any other post to them (urlencoded) goes through the gate as usual. The page's
 * own script posts to `<path>.data` (Remix's single fetch), a form without JavaScript to `<path>`.
 */
export const STREAMED_UPLOADS: readonly RegExp[] = [/^\/sales-import(?:\.data|\/)?$/];

export const FORM_MESSAGES = {
  mediaType:
    "This page takes a form as the app's pages send it (application/x-www-form-urlencoded or multipart/form-data). Open the page in this app and submit it there; programs use the JSON API under /api/.",
  tooLarge: `This form is too large to send (more than ${FORM_BODY_MAX_BYTES / 1024} KiB). Shorten what was typed and send it again.`,
  file: "This form takes no files: send what it asks for as text.",
  unreadable: "This form could not be read. Reload the page and submit it again.",
} as const;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function refusal(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** What `pathname` may receive: the size and whether files, from FORM_LIMITS, else the default. */
export function formLimitFor(pathname: string): { maxBytes: number; files: boolean } {
  return FORM_LIMITS.find((limit) => limit.path.test(pathname)) ?? { maxBytes: FORM_BODY_MAX_BYTES, files: false };
}

/**
 * The request as Remix should see it, or the 4xx that refuses it. Reads, and writes under /api/,
 * pass untouched; a form post is passed on with its body read (bounded) into memory.
 */
export async function admitFormPost(request: Request): Promise<Request | Response> {
  if (SAFE_METHODS.has(request.method)) return request;
  const { pathname } = new URL(request.url);
  if (pathname === "/api" || pathname.startsWith("/api/")) return request;
  const contentType = request.headers.get("Content-Type");
  if (!isFormMediaType(contentType)) {
    await request.body?.cancel().catch(() => {});
    return refusal(415, FORM_MESSAGES.mediaType);
  }
  if (mediaTypeOf(contentType)?.type === "multipart/form-data" && STREAMED_UPLOADS.some((p) => p.test(pathname))) {
    return request;
  }
  const limit = formLimitFor(pathname);
  const bytes = await readBounded(request, limit.maxBytes);
  if (bytes === null) return refusal(413, FORM_MESSAGES.tooLarge);
  const admitted = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: bytes,
    signal: request.signal,
  });
  if (mediaTypeOf(contentType)?.type === "multipart/form-data" && !limit.files) {
    let form: FormData;
    try {
      form = await admitted.clone().formData();
    } catch {
      return refusal(400, FORM_MESSAGES.unreadable);
    }
    for (const value of form.values()) if (typeof value !== "string") return refusal(400, FORM_MESSAGES.file);
  }
  return admitted;
}
