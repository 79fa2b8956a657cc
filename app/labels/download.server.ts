// A ZPL file as a download: plain text (ZPL has no registered media type; the escapes keep it
// ASCII), saved under the name given, never cached (labels name lots and items).
import { attachmentHeaders } from "~/http/download.server";

export function zplResponse(zpl: string, name: string): Response {
  return new Response(zpl, { headers: attachmentHeaders(name, "zpl", "text/plain; charset=utf-8", "labels") });
}
