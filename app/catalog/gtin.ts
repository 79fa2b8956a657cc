// GS1 GTINs (the number a manufacturer's barcode carries): 8, 12, 13 or 14 digits, the last one a
// mod-10 check digit. Shared by the variation form and the barcode lookup.

export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/** The check digit the first n-1 digits call for: weights 3,1,3,… from the right. */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = Number(body[body.length - 1 - i]);
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

export const GTIN_MESSAGES = {
  digits: "A GTIN has digits only: type the 8, 12, 13 or 14 digits printed under the barcode.",
  length: (length: number) =>
    `A GTIN has 8, 12, 13 or 14 digits; this one has ${length}. Check for a missing or extra digit.`,
  checkDigit: (expected: number) =>
    `This GTIN's check digit is wrong: with these digits it should end in ${expected}. Check the number for a typo.`,
};

/** Spaces typed between digit groups are ignored. The problem with a GTIN, or null when it is valid. */
export function gtinProblem(gtin: string): string | null {
  if (!/^\d+$/.test(gtin)) return GTIN_MESSAGES.digits;
  if (!(GTIN_LENGTHS as readonly number[]).includes(gtin.length)) return GTIN_MESSAGES.length(gtin.length);
  const expected = gtinCheckDigit(gtin.slice(0, -1));
  if (Number(gtin.slice(-1)) !== expected) return GTIN_MESSAGES.checkDigit(expected);
  return null;
}

/**
 * The stored GTINs a scanned or typed number could be: the same number written with more or
 * fewer leading zeros (a UPC-A "012345678905" scans as EAN-13 "0012345678905").
 */
export function gtinCandidates(code: string): string[] {
  if (!/^\d{8,14}$/.test(code)) return [];
  const significant = code.replace(/^0+/, "");
  return GTIN_LENGTHS.filter((n) => n >= significant.length).map((n) => significant.padStart(n, "0"));
}
