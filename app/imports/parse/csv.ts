// CSV as point-of-sale exports and spreadsheets write it: quoted commas, doubled quotes, a byte
// order mark, CRLF, cells padded with spaces, and `None` for an empty cell. The scanner checks a
// file as it streams in (rows, the longest and widest row, binary content) without holding it; the
// worker reads a stored file by byte range, so completeRowsEnd says where whole rows end.

import Papa from "papaparse";

export const CSV_LIMITS = {
  maxBytes: 90 * 1024 * 1024,
  xlsxMaxBytes: 10 * 1024 * 1024,
  maxRowBytes: 64 * 1024,
  maxColumns: 200,
};

export interface ScanResult {
  /** Rows with something in them (a blank line, or one of only commas and spaces, is no row). */
  rows: number;
  longestRowBytes: number;
  widestRow: number;
  /** A NUL byte: not a text file. */
  binary: boolean;
  bom: boolean;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const BOM = [0xef, 0xbb, 0xbf];

/** Streams bytes through: counts rows (newlines outside quotes), longest row, widest row, NUL bytes, BOM. */
export class RowScanner {
  private quoted = false;
  private rowBytes = 0;
  private columns = 1;
  private content = false;
  private bomMatched = 0;
  private bomDone = false;
  private justClosed = false;
  private result: ScanResult = { rows: 0, longestRowBytes: 0, widestRow: 0, binary: false, bom: false };

  feed(chunk: Uint8Array): void {
    const r = this.result;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (!this.bomDone) {
        if (byte === BOM[this.bomMatched]) {
          this.bomMatched++;
          if (this.bomMatched === BOM.length) {
            r.bom = true;
            this.bomDone = true;
          }
          continue;
        }
        this.settleBom();
      }
      if (byte === 0) r.binary = true;
      if (byte === QUOTE) {
        // A quote right after a closing one is an escaped quote (`""`): a character of the cell.
        if (!this.quoted && this.justClosed) this.content = true;
        this.justClosed = this.quoted;
        this.quoted = !this.quoted;
        this.rowBytes++;
        continue;
      }
      this.justClosed = false;
      if (!this.quoted && byte === LF) {
        this.endRow();
        continue;
      }
      this.rowBytes++;
      if (this.quoted) {
        if (byte !== SPACE && byte !== TAB && byte !== CR && byte !== LF) this.content = true;
        continue;
      }
      if (byte === COMMA) this.columns++;
      else if (byte !== SPACE && byte !== TAB && byte !== CR) this.content = true;
    }
  }

  /** Bytes that began like a BOM but were not one are the first row's content. */
  private settleBom(): void {
    this.bomDone = true;
    if (this.bomMatched > 0) {
      this.content = true;
      this.rowBytes += this.bomMatched;
    }
  }

  private endRow(): void {
    const r = this.result;
    if (this.content) {
      r.rows++;
      if (this.columns > r.widestRow) r.widestRow = this.columns;
    }
    if (this.rowBytes > r.longestRowBytes) r.longestRowBytes = this.rowBytes;
    this.rowBytes = 0;
    this.columns = 1;
    this.content = false;
  }

  finish(): ScanResult {
    if (!this.bomDone) this.settleBom();
    if (this.rowBytes > 0 || this.content) this.endRow();
    return { ...this.result };
  }
}

/** Where the last complete row of `bytes` ends (index after its newline); `bytes` starts at a row boundary. atEnd: the file ends here. */
export function completeRowsEnd(bytes: Uint8Array, atEnd: boolean): number {
  if (atEnd) return bytes.length;
  let quoted = false;
  let end = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) quoted = !quoted;
    else if (byte === LF && !quoted) end = i + 1;
  }
  return end;
}

/** A cell as read: trimmed; `None` (some exports' empty) is empty. */
export function cleanCell(cell: string): string {
  const trimmed = cell.trim();
  return trimmed === "None" ? "" : trimmed;
}

/** Parses CSV text (papaparse): quoted commas, doubled quotes, BOM stripped, CRLF. Cells trimmed, `None` empty; blank rows dropped. */
export function parseCsv(text: string): string[][] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const parsed = Papa.parse<string[]>(body, { header: false, skipEmptyLines: false, delimiter: "," });
  const rows: string[][] = [];
  for (const row of parsed.data) {
    if (!row.some((cell) => cell.trim() !== "")) continue;
    rows.push(row.map(cleanCell));
  }
  return rows;
}
