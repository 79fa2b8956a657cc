// A sold quantity: whole units (services performed, packages sold), signed (a refund is negative).

export type QuantityResult = { ok: true; quantity: number } | { ok: false; message: string };

/** More than any one line sells: a column mix-up (a price or a barcode read as a quantity). */
export const MAX_QUANTITY = 100_000;

export function parseQuantity(text: string): QuantityResult {
  const trimmed = String(text ?? "").trim();
  if (trimmed === "") return { ok: false, message: "The quantity is empty." };
  const match = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?$/.exec(trimmed);
  if (!match || (match[2] === undefined && match[3] === undefined)) {
    return { ok: false, message: `"${trimmed}" is not a quantity: write a whole number like 1 or -2.` };
  }
  if (match[3] !== undefined && /[1-9]/.test(match[3])) {
    return { ok: false, message: `"${trimmed}" is not a whole number: items and services are sold in whole units.` };
  }
  const digits = (match[2] ?? "0").replaceAll(",", "").replace(/^0+(?=\d)/, "");
  if (digits.length > 6 || Number(digits) > MAX_QUANTITY) {
    return {
      ok: false,
      message: `"${trimmed}" is more than ${MAX_QUANTITY.toLocaleString("en-US")} units on one line.`,
    };
  }
  const quantity = Number(digits);
  return { ok: true, quantity: match[1] === "-" && quantity !== 0 ? -quantity : quantity };
}
