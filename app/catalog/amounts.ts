// Prices and recipe quantities as people type them, kept exact: prices are integer cents and
// quantities integer base units (the product's unit times its scale), never floats. Display goes
// through the catalogue's formatters (app/catalog/format.ts). Safe in the browser.
import { formatQuantity, parseScaled, type UnitScale } from "./format";

export const MAX_PRICE_CENTS = 9_999_999; // $99,999.99
export const MAX_QUANTITY = 100_000; // in the product's unit, before scaling
export const MAX_QUANTITY_PLACES = 3; // the largest unit scale is 1000

export const AMOUNT_MESSAGES = {
  price: "Enter the price in dollars and cents, like 350 or 350.00.",
  priceTooLarge: "The price is too large (at most $99,999.99).",
  quantity: "Enter a quantity, like 20 or 0.5.",
  quantityZero: "Enter a quantity above zero.",
  quantityPlaces: `Use at most ${MAX_QUANTITY_PLACES} decimal places.`,
  quantityTooLarge: `The quantity is too large (at most ${MAX_QUANTITY.toLocaleString("en-US")}).`,
} as const;

/**
 * A typed price as cents, read digit by digit (never through a float): "$1,250.5" → 125050;
 * blank is null (no price). Accepts an optional "$", thousands commas and up to two decimals.
 */
export function parseCents(text: string): { ok: true; cents: number | null } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, cents: null };
  const cents = parseScaled(text, 100);
  if (cents === null) return { ok: false, message: AMOUNT_MESSAGES.price };
  if (cents > MAX_PRICE_CENTS) return { ok: false, message: AMOUNT_MESSAGES.priceTooLarge };
  return { ok: true, cents };
}

/**
 * A typed quantity as an exact fraction: "0.5 mL" → 5 / 10, unit "mL". The server turns it into
 * base units with the product's scale (mantissa × scale / divisor, which must be whole).
 */
export interface TypedQuantity {
  mantissa: number;
  divisor: number;
  /** The unit typed after the number, if any; it must be the product's base unit. */
  unit: string | null;
}

export function parseQuantity(text: string): { ok: true; quantity: TypedQuantity } | { ok: false; message: string } {
  const match = /^(\d*)(?:\.(\d*))?\s*([A-Za-zµμ]+)?$/.exec(text.trim());
  const whole = match?.[1] ?? "";
  const fraction = match?.[2] ?? "";
  if (!match || (whole === "" && fraction === "")) return { ok: false, message: AMOUNT_MESSAGES.quantity };
  if (fraction.length > MAX_QUANTITY_PLACES) return { ok: false, message: AMOUNT_MESSAGES.quantityPlaces };
  const wholeValue = Number(whole || "0");
  if (wholeValue > MAX_QUANTITY || (wholeValue === MAX_QUANTITY && /[1-9]/.test(fraction))) {
    return { ok: false, message: AMOUNT_MESSAGES.quantityTooLarge };
  }
  const mantissa = Number(`${whole}${fraction}` || "0");
  if (mantissa === 0) return { ok: false, message: AMOUNT_MESSAGES.quantityZero };
  return { ok: true, quantity: { mantissa, divisor: 10 ** fraction.length, unit: match[3] ?? null } };
}

/** How finely a product is measured: "whole U" or "steps of 0.01 mL". */
export function quantityStep(scale: UnitScale, unit: string): string {
  return scale === 1 ? `whole ${unit}` : `steps of ${formatQuantity(1, scale, unit)}`;
}

/** Minutes as "45 min" or "1 h 30 min". */
export function formatDuration(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}
