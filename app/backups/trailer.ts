// The file's last member: fixed size, stored (not compressed), so a reader fetches the last
// TRAILER_BYTES of the file and learns where the manifest is. A file cut short has no trailer.
import { DamagedFile, gunzipMember, memberLength, storedMember } from "./gzip";

/** The trailer's text, padded with spaces to this many bytes (JSON allows the white space). */
export const TRAILER_TEXT_BYTES = 64;
/** Header 20 + stored block header 5 + text + CRC and length 8. */
export const TRAILER_BYTES = 20 + 5 + TRAILER_TEXT_BYTES + 8;

export function trailerMember(manifestOffset: number, manifestBytes: number): Uint8Array {
  const text = JSON.stringify({ manifest: [manifestOffset, manifestBytes] });
  return storedMember(`${text.padEnd(TRAILER_TEXT_BYTES - 1)}\n`);
}

/** Where the manifest is, from the trailer's bytes; a file without one is incomplete. */
export async function readTrailer(bytes: Uint8Array): Promise<{ offset: number; bytes: number }> {
  const incomplete = "The file is incomplete: it ends before its last part (it was cut short).";
  let text: string;
  try {
    if (bytes.length !== TRAILER_BYTES || memberLength(bytes, 0) !== TRAILER_BYTES) throw new DamagedFile(incomplete);
    text = await gunzipMember(bytes);
  } catch {
    throw new DamagedFile(incomplete);
  }
  const parsed = JSON.parse(text) as { manifest?: unknown };
  const at = parsed.manifest;
  if (!Array.isArray(at) || at.length !== 2 || !at.every((n) => Number.isSafeInteger(n) && n >= 0))
    throw new DamagedFile(incomplete);
  return { offset: at[0], bytes: at[1] };
}
