// A barcode (GTIN) column as spreadsheets leave it. Excel turns long numbers into scientific
// notation and drops leading zeros: both are flagged with what to do, never guessed or repaired
// (a guessed barcode would book a sale against the wrong product).

import { GTIN_LENGTHS, gtinCheckDigit, gtinProblem } from "~/catalog/gtin";

export type GtinResult = { ok: true; gtin: string | null } | { ok: false; message: string };

export const GTIN_READ_MESSAGES = {
  scientific:
    "This barcode looks like Excel rewrote it in scientific notation (digits are lost): export the file again with the column as text.",
  leadingZero: (zeros: number, padded: string) =>
    `A leading zero may have been lost (Excel): with ${zeros === 1 ? "a leading zero" : `${zeros} leading zeros`} this would be the barcode ${padded}. Export the file again with the column as text; barcodes are never guessed.`,
} as const;

function checks(digits: string): boolean {
  return Number(digits.slice(-1)) === gtinCheckDigit(digits.slice(0, -1));
}

export function readGtin(text: string): GtinResult {
  const trimmed = String(text ?? "").trim();
  if (trimmed === "" || trimmed === "None") return { ok: true, gtin: null };
  if (/^[+-]?\d+(?:[.,]\d+)?[eE][+-]?\d+$/.test(trimmed)) return { ok: false, message: GTIN_READ_MESSAGES.scientific };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: gtinProblem(trimmed) ?? "A barcode has digits only." };
  const lengths = GTIN_LENGTHS as readonly number[];
  if (lengths.includes(trimmed.length)) {
    const problem = gtinProblem(trimmed);
    return problem ? { ok: false, message: problem } : { ok: true, gtin: trimmed };
  }
  // Not a GTIN length: would the digits be one with the leading zeros a spreadsheet drops? (A
  // leading zero never changes the check digit, so the digits themselves must already check.)
  const target = lengths.find((n) => n > trimmed.length);
  if (target !== undefined && target - trimmed.length <= 3 && trimmed.length >= 5 && checks(trimmed)) {
    const zeros = target - trimmed.length;
    return { ok: false, message: GTIN_READ_MESSAGES.leadingZero(zeros, trimmed.padStart(target, "0")) };
  }
  return { ok: false, message: gtinProblem(trimmed) ?? "A barcode has 8, 12, 13 or 14 digits." };
}
