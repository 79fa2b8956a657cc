// Money and quantities as the clinic types and reads them, converted to and from the integers the
// database keeps (cents; base units at the product's scale) with string arithmetic, never floats.

export const UNIT_SCALES = [1, 10, 100, 1000] as const;
export type UnitScale = (typeof UNIT_SCALES)[number];

const DECIMALS: Record<UnitScale, number> = { 1: 0, 10: 1, 100: 2, 1000: 3 };

export function isUnitScale(n: unknown): n is UnitScale {
  return UNIT_SCALES.includes(n as UnitScale);
}

/** The largest whole part accepted: keeps every result an exact integer (far below 2^53). */
const MAX_WHOLE_DIGITS = 10;

/**
 * "12.50" at scale 100 → 1250; "1,5" is refused, "1,250.5" → 125050. At most as many decimals as
 * the scale allows (trailing zeros beyond it are fine). Null when the text is not such a number.
 */
export function parseScaled(text: string, scale: UnitScale): number | null {
  const cleaned = text
    .trim()
    .replace(/^\$/, "")
    .replace(/,(?=\d{3}(?:\D|$))/g, "");
  const match = /^(\d*)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return null;
  const whole = (match[1] ?? "").replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (whole === "" && fraction === "" && !/\d/.test(cleaned)) return null;
  const decimals = DECIMALS[scale];
  if (fraction.length > decimals || whole.length > MAX_WHOLE_DIGITS) return null;
  return Number(whole || "0") * scale + Number(fraction.padEnd(decimals, "0") || "0");
}

/** 1250 at scale 100 → "12.50"; 100 at scale 1 → "100"; 5 at scale 1000 → "0.005". */
export function formatScaled(value: number, scale: UnitScale, { trim = false } = {}): string {
  const decimals = DECIMALS[scale];
  const negative = value < 0;
  const digits = String(Math.abs(Math.trunc(value))).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals);
  if (trim) fraction = fraction.replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** What a money input shows for stored cents: "12.50", or "" for none. */
export function centsInput(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? "" : formatScaled(cents, 100);
}

/** Cents as the clinic reads them: "$1,234.50", or "—" for none. */
export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return "—";
  const [whole = "0", fraction = "00"] = formatScaled(cents, 100).split(".");
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`;
}

/** A quantity in base units at `scale` with its unit: 150 at scale 100 in mL → "1.5 mL". */
export function formatQuantity(value: number, scale: UnitScale, unit: string): string {
  return `${formatScaled(value, scale, { trim: true })} ${unit}`;
}

/** Beyond-use durations as a label reads them: 24 → "24 h", 672 → "28 days", null → "—". */
export function formatBeyondUse(hours: number | null | undefined): string {
  if (!hours) return "—";
  if (hours >= 48 && hours % 24 === 0) return `${hours / 24} days`;
  return `${hours} h`;
}
