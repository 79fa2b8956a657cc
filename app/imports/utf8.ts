// A streaming UTF-8 check: bytes fed chunk by chunk (a character may be split between two), with no
// string made. TextDecoder({fatal}) would do it, but it makes a string of every chunk: 90 MB of
// garbage for a 90 MB upload, which a Worker's 128 MB cannot spare.

export class Utf8Check {
  /** Continuation bytes still expected by the character in progress. */
  private need = 0;
  /** The bounds of the next byte (they narrow after E0, ED, F0 and F4: no overlong forms, no surrogates). */
  private low = 0x80;
  private high = 0xbf;
  private bad = false;

  feed(bytes: Uint8Array): void {
    if (this.bad) return;
    let { need, low, high } = this;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i] as number;
      if (need === 0) {
        if (b < 0x80) continue;
        if (b >= 0xc2 && b <= 0xdf) need = 1;
        else if (b >= 0xe0 && b <= 0xef) {
          need = 2;
          if (b === 0xe0) low = 0xa0;
          else if (b === 0xed) high = 0x9f;
        } else if (b >= 0xf0 && b <= 0xf4) {
          need = 3;
          if (b === 0xf0) low = 0x90;
          else if (b === 0xf4) high = 0x8f;
        } else {
          this.bad = true;
          return;
        }
        continue;
      }
      if (b < low || b > high) {
        this.bad = true;
        return;
      }
      low = 0x80;
      high = 0xbf;
      need--;
    }
    this.need = need;
    this.low = low;
    this.high = high;
  }

  /** Whether everything fed was UTF-8, ending on a whole character. */
  finish(): boolean {
    return !this.bad && this.need === 0;
  }
}
