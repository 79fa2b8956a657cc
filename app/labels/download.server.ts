// A ZPL file as a download: plain text (ZPL has no registered media type; the escapes keep it
// ASCII), saved under the name given, never cached (labels name lots and items).
export function zplResponse(zpl: string, name: string): Response {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "labels";
  return new Response(zpl, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="${safe}.zpl"`,
      "Cache-Control": "private, no-store",
    },
  });
}
