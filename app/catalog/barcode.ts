// The barcode code rules of spec section 5, shared by the browser (instant feedback) and the
// server (the check that counts). The database enforces the same shape with a CHECK constraint.

export const BARCODE_MIN_LENGTH = 4;
export const BARCODE_MAX_LENGTH = 50;

export const BARCODE_MESSAGES = {
  required: "Barcode code is required",
  empty: "Barcode code cannot be empty",
  invalidCharacters: (characters: readonly string[]) =>
    `Invalid character(s) detected: ${characters.join(", ")}. Only A-Z, 0-9, hyphens, and underscores are allowed.`,
  tooShort: "Barcode code must be at least 4 characters long",
  tooLong: "Barcode code is too long (maximum 50 characters)",
} as const;

export type BarcodeCheck =
  | { valid: true; code: string }
  | {
      valid: false;
      /** What the code would be with the invalid characters stripped (trimmed, upper-case). */
      code: string;
      errors: string[];
    };

// By code point (u): an emoji is one invalid character, not two halves of a surrogate pair that
// no page can show the same way twice.
const INVALID = /[^A-Z0-9_-]/gu;

/** How an invalid character is named in the message; invisible ones get a word. */
function describe(character: string): string {
  if (character === " ") return "space";
  if (/\s/.test(character)) return "whitespace";
  return character;
}

/**
 * Checks a barcode code: required; trimmed and upper-cased; characters other than A-Z, 0-9, "-"
 * and "_" are stripped and listed; the length (4 to 50) is measured after stripping.
 */
export function checkBarcode(input: unknown): BarcodeCheck {
  if (input === null || input === undefined || typeof input !== "string") {
    return { valid: false, code: "", errors: [BARCODE_MESSAGES.required] };
  }
  const normalised = input.trim().toUpperCase();
  if (normalised.length === 0) return { valid: false, code: "", errors: [BARCODE_MESSAGES.empty] };

  const invalid = [...new Set(normalised.match(INVALID) ?? [])].map(describe);
  const code = normalised.replace(INVALID, "");
  const errors: string[] = [];
  if (invalid.length > 0) errors.push(BARCODE_MESSAGES.invalidCharacters([...new Set(invalid)]));
  if (code.length < BARCODE_MIN_LENGTH) errors.push(BARCODE_MESSAGES.tooShort);
  else if (code.length > BARCODE_MAX_LENGTH) errors.push(BARCODE_MESSAGES.tooLong);
  return errors.length === 0 ? { valid: true, code } : { valid: false, code, errors };
}
