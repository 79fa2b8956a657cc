// How a snapshot file travels when an admin uploads one (browser-safe: the upload form and the
// server read the same sizes). A Worker takes at most 100 MB in one request body, and a snapshot
// can be gigabytes, so the file goes in pieces: each piece is one part of an R2 multipart upload,
// held in memory one at a time, and storage puts the parts together when the last one is sent.

const MiB = 1024 * 1024;

/** Every piece but the last is exactly this size (R2 wants equal parts of at least 5 MiB). */
export const UPLOAD_PART_BYTES = 8 * MiB;

/** The largest snapshot file taken: 10 GiB (1,280 pieces; R2 allows 10,000 parts). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * MiB;

/** How many pieces a file of `size` bytes is sent in. */
export function partCount(size: number): number {
  return Math.max(1, Math.ceil(size / UPLOAD_PART_BYTES));
}

/** Where the upload API lives: start, then PUT each piece, then complete (README "Backups and restore"). */
export const UPLOAD_PATHS = {
  start: "/api/backups/uploads",
  part: (backupId: string, partNumber: number, uploadId: string) =>
    `/api/backups/uploads/${encodeURIComponent(backupId)}/parts/${partNumber}?uploadId=${encodeURIComponent(uploadId)}`,
  complete: (backupId: string) => `/api/backups/uploads/${encodeURIComponent(backupId)}/complete`,
} as const;
