// Which characters a text field refuses (app/forms/text.ts applies it to every schema; the GS1
// scan reads it too). Imports nothing, so a screen and the barcode parser can use it without zod.

/**
 * Characters no text field keeps: control characters (C0, DEL, C1: NUL, escape, tab...), format
 * characters (zero-width space and joiners, bidi embeddings, overrides and isolates, the byte
 * order mark, soft hyphen, tags), lone surrogates, private use, and the line and paragraph
 * separators. A multi-line note keeps its newlines and tabs.
 */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;
export const UNSEEN_GLOBAL = new RegExp(UNSEEN.source, "gu");

/** The first character of `text` a field must refuse, or null; `multiline` lets newlines and tabs through. */
export function unseenCharacter(text: string, multiline = false): string | null {
  for (const char of text) {
    if (multiline && (char === "\n" || char === "\t")) continue;
    if (UNSEEN.test(char)) return char;
  }
  return null;
}

/** "U+200B": how a message names a character it cannot show. */
export function codePointOf(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

export const TEXT_MESSAGES = {
  unseen: (char: string) =>
    `This contains an invisible or control character (${codePointOf(char)}) that would be stored without being seen. Remove it, or type the text instead of pasting it.`,
} as const;

/**
 * The rule as an input's `pattern` (browsers match the whole value, with the `v` flag): a search
 * box says so before it is sent, where the server would quietly drop the character.
 */
export const VISIBLE_INPUT_PATTERN = "[^\\p{Cc}\\p{Cf}\\p{Cs}\\p{Co}\\p{Zl}\\p{Zp}]*";
export const VISIBLE_INPUT_TITLE =
  "Remove the invisible or control character (it came with pasted text), then search again.";
