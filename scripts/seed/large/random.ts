// The large seed's only source of chance: a seeded mulberry32, so one seed writes one database.
// Ids and label codes come from it too (never crypto), shaped like the app's own.

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer (mulberry32). */
  next32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next32() / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.float() * values.length)] as T;
  }

  /** A UUIDv7-shaped id whose time prefix is `at`: ids of one table sort roughly as their rows happened. */
  uuid(at: number): string {
    const time = Math.max(0, Math.floor(at)).toString(16).padStart(12, "0");
    const a = this.next32().toString(16).padStart(8, "0");
    const b = this.next32().toString(16).padStart(8, "0");
    const c = this.next32().toString(16).padStart(8, "0");
    const variant = ((this.next32() & 0x3) | 0x8).toString(16);
    return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${a.slice(0, 3)}-${variant}${a.slice(3, 6)}-${b}${c.slice(0, 4)}`;
  }
}

/** The label code alphabet of app/stock/label-code (Crockford base 32). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A label code ("V" and nine characters, LABEL_CODE_PATTERN) unique by construction: five of its
 * characters are a permutation of the item's number (odd multiplier mod 2^25), four are random.
 */
export function labelCodeOf(n: number, random: Random): string {
  const mixed = (n * 0x2f0b3d1 + 0x1234567) % 0x2000000;
  let code = "V";
  for (let i = 0; i < 4; i++) code += ALPHABET[random.next32() & 31];
  for (let shift = 20; shift >= 0; shift -= 5) code += ALPHABET[Math.floor(mixed / 2 ** shift) & 31];
  return code;
}
