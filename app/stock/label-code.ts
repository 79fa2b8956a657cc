// The code printed on an item's own label: "V" and nine Crockford base-32 characters (no I, L, O,
// U, so a hand-typed code is not misread), 45 random bits. It meets the barcode rules of spec
// section 5 and stays short enough for a Code 128 on a vial-sized sticker. Uniqueness is the
// database's job (items.label_code and barcodes.code are UNIQUE); a collision fails the batch.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const LABEL_CODE_PATTERN = /^V[0-9A-HJKMNP-TV-Z]{9}$/;

export function newLabelCode(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(9));
  let code = "V";
  for (const byte of bytes) code += ALPHABET[byte % 32];
  return code;
}
