// The headers of a file download (CSV exports, ZPL labels): saved under a safe name, never cached
// (every download here names lots, patients or items).

/** `name` reduced to letters, digits, dot, dash and underscore (else `fallback`), with its extension. */
export function attachmentHeaders(name: string, extension: string, contentType: string, fallback = "download") {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || fallback;
  return {
    "Content-Type": contentType,
    "Content-Disposition": `attachment; filename="${safe}.${extension}"`,
    "Cache-Control": "private, no-store",
  };
}
