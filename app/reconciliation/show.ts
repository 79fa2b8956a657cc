// How a reconciliation figure reads on the screens: quantities in the product's unit, signed where
// a sign means something (a variance, a drift), money as dollars. Browser-safe.
import { formatMoney, formatQuantity, formatScaled, type UnitScale } from "~/catalog/format";

export interface Shown {
  unit: string;
  unitScale: UnitScale;
}

export function qty(row: Shown, value: number): string {
  return formatQuantity(value, row.unitScale, row.unit);
}

/** "+12 U", "−3.5 mL", "0 U". */
export function signedQty(row: Shown, value: number): string {
  if (value === 0) return qty(row, 0);
  const text = `${formatScaled(Math.abs(value), row.unitScale, { trim: true })} ${row.unit}`;
  return value > 0 ? `+${text}` : `−${text}`;
}

export function signedMoney(cents: number): string {
  if (cents === 0) return formatMoney(0);
  return cents > 0 ? `+${formatMoney(cents)}` : `−${formatMoney(-cents)}`;
}

export function percentText(percent: number | null): string {
  if (percent === null) return "none expected";
  return `${percent > 0 ? "+" : percent < 0 ? "−" : ""}${Math.abs(percent).toFixed(1)}%`;
}
