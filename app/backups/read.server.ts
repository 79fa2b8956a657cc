// Reading a snapshot file from R2: the trailer, then the manifest, then a table's members from any
// offset, never the whole file at once. Everything is checked against the file itself, never the row.
import { FORMAT, FORMAT_VERSION, type Manifest, type ManifestTable } from "./format";
import { DamagedFile, gunzipMember, memberLength } from "./gzip";
import { readTrailer, TRAILER_BYTES } from "./trailer";

/** Bytes fetched per read from R2: several members at once, bounded (memory stays flat). */
const READ_BYTES = 4 * 1024 * 1024;

export interface OpenedFile {
  size: number;
  manifest: Manifest;
}

/** The file's manifest, checked for shape; a missing, cut or foreign file throws DamagedFile. */
export async function openSnapshot(files: R2Bucket, key: string): Promise<OpenedFile> {
  const head = await files.head(key);
  if (!head) throw new DamagedFile("The snapshot file is not in storage any more.");
  if (head.size < TRAILER_BYTES) throw new DamagedFile("The file is incomplete: it is too short to be a snapshot.");
  const trailer = await readRange(files, key, head.size - TRAILER_BYTES, TRAILER_BYTES);
  const at = await readTrailer(trailer);
  if (at.offset + at.bytes + TRAILER_BYTES !== head.size)
    throw new DamagedFile("The file is incomplete or has bytes added: its parts do not add up to its size.");
  const text = await gunzipMember(await readRange(files, key, at.offset, at.bytes));
  let manifest: Manifest;
  try {
    manifest = (JSON.parse(text) as { manifest: Manifest }).manifest;
  } catch {
    throw new DamagedFile("The file's manifest is not readable.");
  }
  checkShape(manifest, at.offset);
  return { size: head.size, manifest };
}

function checkShape(manifest: Manifest, dataBytes: number): void {
  if (!manifest || manifest.format !== FORMAT) throw new DamagedFile("This file is not a Clinic Inventory snapshot.");
  if (manifest.formatVersion !== FORMAT_VERSION)
    throw new DamagedFile(`This snapshot is in format ${manifest.formatVersion}, which this version cannot read.`);
  const tablesOk =
    Array.isArray(manifest.tables) &&
    manifest.tables.every(
      (t: ManifestTable) =>
        typeof t.name === "string" &&
        Array.isArray(t.columns) &&
        t.columns.length > 0 &&
        Array.isArray(t.primaryKey) &&
        Number.isSafeInteger(t.rows) &&
        Number.isSafeInteger(t.offset) &&
        t.offset < dataBytes &&
        /^[0-9a-f]{64}$/.test(t.checksum),
    );
  if (!tablesOk || manifest.dataBytes !== dataBytes || typeof manifest.organizationId !== "string")
    throw new DamagedFile("The file's manifest is damaged.");
}

async function readRange(files: R2Bucket, key: string, offset: number, length: number): Promise<Uint8Array> {
  const object = await files.get(key, { range: { offset, length } });
  if (!object) throw new DamagedFile("The snapshot file is not in storage any more.");
  const bytes = new Uint8Array(await object.arrayBuffer());
  if (bytes.length !== length) throw new DamagedFile("The file is incomplete: a part of it cannot be read.");
  return bytes;
}

export interface Member {
  /** Offset of the member in the file, and of the one after it. */
  offset: number;
  next: number;
  text: string;
}

/** The members from `offset` on, in order, up to `end` (the manifest's offset), read a few MiB at a time. */
export async function* membersFrom(
  files: R2Bucket,
  key: string,
  offset: number,
  end: number,
  onRead: () => void = () => {},
): AsyncGenerator<Member> {
  let at = offset;
  while (at < end) {
    const buffer = await readRange(files, key, at, Math.min(READ_BYTES, end - at));
    onRead();
    let inBuffer = 0;
    for (;;) {
      const length = memberLength(buffer, inBuffer);
      if (length === null || inBuffer + length > buffer.length) break;
      const text = await gunzipMember(buffer.subarray(inBuffer, inBuffer + length));
      yield { offset: at + inBuffer, next: at + inBuffer + length, text };
      inBuffer += length;
      if (at + inBuffer >= end) break;
    }
    if (inBuffer === 0) {
      // One member longer than a read: fetch it whole.
      const length = memberLength(buffer, 0);
      if (length === null || at + length > end) throw new DamagedFile("The file is incomplete: a part is cut short.");
      const whole = await readRange(files, key, at, length);
      yield { offset: at, next: at + length, text: await gunzipMember(whole) };
      inBuffer = length;
    }
    at += inBuffer;
  }
}
