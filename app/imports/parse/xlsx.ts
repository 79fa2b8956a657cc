// An XLSX file's first sheet as text cells, as the spreadsheet shows them, read with
// read-excel-file's universal entry (fflate and saxen: no Node built-ins, so it runs in Workers).
// The rows are stored as CSV at upload (toCsv), which is what the jobs worker reads.

import Papa from "papaparse";
import { readSheet } from "read-excel-file/universal";

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** A number as Excel shows it with the General format: 15 significant digits, never `e+` for whole numbers. */
export function numberText(raw: string): string {
  const n = Number(raw);
  if (!Number.isFinite(n)) return raw.trim();
  if (Number.isInteger(n) && Math.abs(n) >= 1e15) return BigInt(n).toString();
  if (n !== 0 && Math.abs(n) < 1e-6) return String(n);
  const text = n.toPrecision(15);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** A date cell (read as UTC fields of what the sheet shows): `YYYY-MM-DD`, with `THH:MM:SS` when it has a time, or only the time for a time cell. */
export function dateText(date: Date): string {
  const day = `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  // Excel's time-only cells are days since its epoch, 1899-12-30 (or 1900-01-00 in a 1900-based sheet).
  if (date.getUTCFullYear() < 1900 || day === "1900-01-00") return time;
  return time === "00:00:00" ? day : `${day}T${time}`;
}

/** A number cell as the sheet's XML wrote it (kept apart from text cells, which may hold digits with leading zeros). */
class NumberCell {
  constructor(readonly raw: string) {}
}

/** The first sheet's rows as text cells, as the spreadsheet shows them (read-excel-file/universal). */
export async function xlsxRows(bytes: ArrayBuffer): Promise<string[][]> {
  const sheet = await readSheet<NumberCell>(bytes, 1, {
    parseNumber: (raw: string) => new NumberCell(raw),
    trim: false,
  });
  return sheet.map((row) =>
    row.map((cell: unknown) => {
      if (cell === null || cell === undefined) return "";
      if (cell instanceof Date) return dateText(cell);
      if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
      if (cell instanceof NumberCell) return numberText(cell.raw);
      if (typeof cell === "number") return numberText(String(cell));
      return String(cell).trim();
    }),
  );
}

/** Rows → CSV text (papaparse unparse), for storing an XLSX's rows as the CSV the worker reads. */
export function toCsv(rows: readonly string[][]): string {
  return `${Papa.unparse(rows as string[][], { newline: "\r\n", quotes: false, escapeFormulae: false })}\r\n`;
}
