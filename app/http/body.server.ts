// Reading a request's body within a limit, and its media type exactly (issue 19.9): the bytes are
// counted as they stream and reading stops one byte past the limit, so a chunked body without a
// Content-Length (or with a false one) is never read whole; and a media type is its type/subtype
// with parameters parsed, so `text/plain; x=application/json` is text/plain, not JSON.

/** A media type as sent: its type/subtype in lower case and its parameters (names in lower case, quotes removed). */
export interface MediaType {
  type: string;
  parameters: Record<string, string>;
}

/** The Content-Type header parsed, or null when there is none or it is not `type/subtype[; name=value]*`. */
export function mediaTypeOf(header: string | null): MediaType | null {
  if (header === null) return null;
  const [essence = "", ...rest] = header.split(";");
  const type = essence.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)) return null;
  const parameters: Record<string, string> = {};
  for (const part of rest) {
    if (part.trim() === "") continue;
    const at = part.indexOf("=");
    if (at < 1) return null;
    const name = part.slice(0, at).trim().toLowerCase();
    const raw = part.slice(at + 1).trim();
    parameters[name] = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw;
  }
  return { type, parameters };
}

/** Whether the request's body is JSON: `application/json`, with no parameter but `charset=utf-8`. */
export function isJsonMediaType(header: string | null): boolean {
  const media = mediaTypeOf(header);
  if (media?.type !== "application/json") return false;
  return Object.entries(media.parameters).every(
    ([name, value]) => name === "charset" && ["utf-8", "utf8"].includes(value.toLowerCase()),
  );
}

/** The media types a form post may have: the two a browser's form sends. */
export const FORM_MEDIA_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"] as const;

/** Whether the request's body is a form as a browser sends one (multipart needs its boundary). */
export function isFormMediaType(header: string | null): boolean {
  const media = mediaTypeOf(header);
  if (media?.type === "application/x-www-form-urlencoded") return true;
  return media?.type === "multipart/form-data" && Boolean(media.parameters.boundary);
}

/**
 * The body's bytes, or null when it has more than `max`: a declared Content-Length over it is
 * refused unread, and otherwise the stream is counted as it arrives and cancelled one chunk past
 * the limit. An absent body is empty.
 */
export async function readBounded(request: Request, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > max) {
    await request.body?.cancel().catch(() => {});
    return null;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
