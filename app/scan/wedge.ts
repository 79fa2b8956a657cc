// A keyboard-wedge scanner is a keyboard to the browser: it types the code, a character every few
// milliseconds, and presses Enter. People type far slower, so a burst of at least 4 characters,
// each within WEDGE_MAX_GAP_MS of the one before, ended by Enter, is a scan; anything else is typing.
import { BARCODE_MIN_LENGTH } from "~/catalog/barcode";

/** Scanners send a character every 5-30 ms; even a fast typist leaves 80 ms or more between keys. */
export const WEDGE_MAX_GAP_MS = 50;

export interface WedgeDetector {
  /** Feeds one keydown (`KeyboardEvent.key` and its time in ms); answers the code when Enter ends a scan. */
  key(key: string, at: number): string | null;
}

export function createWedgeDetector({
  maxGapMs = WEDGE_MAX_GAP_MS,
  minLength = BARCODE_MIN_LENGTH,
} = {}): WedgeDetector {
  let buffer = "";
  let last = Number.NEGATIVE_INFINITY;
  return {
    key(key, at) {
      // A pause starts over: what came before was typed by a person (or belongs to another scan).
      if (at - last > maxGapMs) buffer = "";
      last = at;
      if (key === "Enter") {
        const code = buffer;
        buffer = "";
        return code.length >= minLength ? code : null;
      }
      // Printable characters only; Shift and other modifier keys come between them and are skipped.
      if ([...key].length === 1) buffer += key;
      return null;
    },
  };
}

/** Whether a keydown belongs to a field the person is typing in (those keep their keys). */
export function typingInField(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  return (target as Element).closest("input, textarea, select, [contenteditable]") !== null;
}
