// A keyboard-wedge scanner is a keyboard to the browser: it types the code, a character every few
// milliseconds, and presses Enter. People type far slower, so a burst of at least 4 characters,
// each within WEDGE_MAX_GAP_MS of the one before, ended by Enter, is a scan; anything else is typing.
import { BARCODE_MIN_LENGTH } from "~/catalog/barcode";

/** Scanners send a character every 5-30 ms; even a fast typist leaves 80 ms or more between keys. */
export const WEDGE_MAX_GAP_MS = 50;

/** No one scans two labels within half a second: a shorter pause inside a burst is a hiccup, not a new scan. */
export const SCAN_PAUSE_MS = 500;

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

/** What one keydown means to a burst that lands in a field (see `createBurstWatch`). */
export interface BurstStep {
  /** The key follows a pause: a burst, if one comes, starts here, so what the page holds now is what it held before. */
  fresh: boolean;
  /** On the key that makes the keys a scanner's burst (the `minLength`-th fast character): its characters so far, this one's included. */
  burst: string | null;
}

/**
 * Tells, while a scanner types, that it is typing: after `minLength` printable characters, each within
 * `maxGapMs` of the key before, no person is. Unlike the detector it answers before Enter, so the
 * characters can still be put where a scan belongs and the field's old text set aside.
 */
export function createBurstWatch({
  maxGapMs = WEDGE_MAX_GAP_MS,
  minLength = BARCODE_MIN_LENGTH,
  scanPauseMs = SCAN_PAUSE_MS,
} = {}) {
  let typed: string[] = [];
  let last = Number.NEGATIVE_INFINITY;
  let scanning = false;
  return {
    key(key: string, at: number): BurstStep {
      const gap = at - last;
      last = at;
      // Once a burst has begun, a hiccup (a busy phone, a Bluetooth scanner's batch) does not
      // begin another one halfway through the code: only Enter or a real pause ends it.
      if (scanning && gap > scanPauseMs) scanning = false;
      const fresh = !scanning && gap > maxGapMs;
      if (fresh) typed = [];
      if (key === "Enter") {
        // The key after an Enter starts afresh, however soon it comes: the next scan.
        typed = [];
        scanning = false;
        last = Number.NEGATIVE_INFINITY;
        return { fresh, burst: null };
      }
      // Shift and the other modifier keys come between a scanner's characters; they count as time only.
      if (scanning || [...key].length !== 1) return { fresh, burst: null };
      typed.push(key);
      if (typed.length < minLength) return { fresh, burst: null };
      scanning = true;
      return { fresh, burst: typed.join("") };
    },
  };
}

/** Whether a keydown belongs to a field the person is typing in (those keep their keys). */
export function typingInField(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  return (target as Element).closest("input, textarea, select, [contenteditable]") !== null;
}
