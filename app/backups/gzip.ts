// Gzip members that carry their own length (format.ts), written with CompressionStream and read
// with DecompressionStream: the same code in the jobs worker and in Node.

const EXTRA_ID = [0x43, 0x49]; // "CI"
/** Header: magic, deflate, FLG.FEXTRA, mtime 0, xfl 0, OS unknown; XLEN 8; subfield CI, 4 bytes. */
const HEADER_BYTES = 10 + 2 + 8;

/** One gzip member of `text`, its gzip header replaced by one that names the member's length. */
export async function gzipMember(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  const plain = new Uint8Array(await new Response(stream).arrayBuffer());
  // A plain header is exactly 10 bytes (FLG 0: no name, comment or extra field).
  if (plain[0] !== 0x1f || plain[1] !== 0x8b || plain[3] !== 0) throw new Error("Unexpected gzip header");
  return withLength(plain.subarray(10));
}

/** A member of `text` stored uncompressed (a fixed size for a fixed-size text: the trailer). */
export function storedMember(text: string): Uint8Array {
  const data = new TextEncoder().encode(text);
  if (data.length > 0xffff) throw new Error("A stored member holds at most 65,535 bytes");
  const body = new Uint8Array(5 + data.length + 8);
  body[0] = 1; // BFINAL, stored
  body[1] = data.length & 0xff;
  body[2] = data.length >> 8;
  body[3] = ~data.length & 0xff;
  body[4] = (~data.length >> 8) & 0xff;
  body.set(data, 5);
  const view = new DataView(body.buffer);
  view.setUint32(5 + data.length, crc32(data), true);
  view.setUint32(5 + data.length + 4, data.length, true);
  return withLength(body);
}

function withLength(deflateAndTrailer: Uint8Array): Uint8Array {
  const member = new Uint8Array(HEADER_BYTES + deflateAndTrailer.length);
  member.set([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 8, 0, ...EXTRA_ID, 4, 0]);
  new DataView(member.buffer).setUint32(16, member.length, true);
  member.set(deflateAndTrailer, HEADER_BYTES);
  return member;
}

/**
 * The length of the member starting at `at` in `bytes`, or null if its header is not there whole.
 * Throws on bytes that are not one of our members (a damaged or foreign file).
 */
export function memberLength(bytes: Uint8Array, at: number): number | null {
  if (bytes.length - at < HEADER_BYTES) return null;
  const ok =
    bytes[at] === 0x1f &&
    bytes[at + 1] === 0x8b &&
    bytes[at + 3] === 4 &&
    bytes[at + 10] === 8 &&
    bytes[at + 12] === EXTRA_ID[0] &&
    bytes[at + 13] === EXTRA_ID[1] &&
    bytes[at + 14] === 4;
  if (!ok) throw new DamagedFile("a part of the file is not where the file says it is");
  const length = new DataView(bytes.buffer, bytes.byteOffset + at + 16, 4).getUint32(0, true);
  if (length <= HEADER_BYTES) throw new DamagedFile("a part of the file has an impossible length");
  return length;
}

/** The text of one member (its CRC and length are checked by the inflater). */
export async function gunzipMember(member: Uint8Array): Promise<string> {
  try {
    const stream = new Blob([member as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("gzip"));
    return await new Response(stream).text();
  } catch (error) {
    throw new DamagedFile("a part of the file does not decompress", { cause: error });
  }
}

/** The snapshot file is not what it claims to be: refuse it, change nothing. */
export class DamagedFile extends Error {
  override name = "DamagedFile";
}

let table: Uint32Array | undefined;
export function crc32(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = (table[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
