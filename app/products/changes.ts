// The recent-changes list of the product page: an activity row in the clinic's words, e.g.
// "Product edited" · "Price: $10.00 → $12.50".

import { currentAction } from "~/activity/actions";
import { formatBeyondUse, formatMoney, formatQuantity, isUnitScale, type UnitScale } from "~/catalog/format";
import { ADJUST_REASON_LABELS } from "~/stock/adjust-labels";
import type { AdjustReason } from "../../db/schema/stock/constants";
import { ACTION_LABELS, FIELD_LABELS, TRACKING_SHORT } from "./constants";

type Summary = Record<string, unknown> | null;

export interface ChangeLine {
  title: string;
  details: string[];
}

function shown(key: string, value: unknown, vendorNames: ReadonlyMap<string, string>): string {
  if (value === null || value === undefined || value === "") return "—";
  if (key === "costCents" || key === "priceCents") return formatMoney(Number(value));
  if (key === "beyondUseHours") return formatBeyondUse(Number(value));
  if (key === "tracking") return TRACKING_SHORT[value as keyof typeof TRACKING_SHORT] ?? String(value);
  if (key === "defaultVendorId") return vendorNames.get(String(value)) ?? "another vendor";
  // Flags are stored as 0/1 and typed as booleans: both read yes or no.
  if (typeof value === "boolean" || key === "controlled") return value ? "yes" : "no";
  return String(value);
}

function label(key: string): string {
  return FIELD_LABELS[key] ?? FIELD_LABELS[key.replace(/Cents$/, "")] ?? key;
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
}

export function describeChange(
  row: { action: string; summary: Summary },
  vendorNames: ReadonlyMap<string, string> = new Map(),
): ChangeLine {
  const s = row.summary ?? {};
  // A row written before ADR 0027 carries its old name (product_archive): read it by today's.
  const action = currentAction(row.action) ?? row.action;
  const base = ACTION_LABELS[action] ?? action;
  const variation = typeof s.variation === "string" ? s.variation : null;
  const where = typeof s.location === "string" ? ` at ${s.location}` : "";
  const details: string[] = [];
  const before = asObject(s.before);
  const after = asObject(s.after);

  if (action === "add_barcode" || action === "remove_barcode") {
    return { title: `${base}: ${String(s.code)}`, details: variation ? [`Variation ${variation}`] : [] };
  }
  if (action === "set_par_level" || action === "clear_par_level") {
    const levels = (o: Record<string, unknown> | null) =>
      o
        ? `par ${shown("par", o.par, vendorNames)}, reorder at ${shown("reorderPoint", o.reorderPoint, vendorNames)}, max ${shown("max", o.max, vendorNames)}`
        : "none";
    details.push(`${levels(before)} → ${levels(after)}`);
    return { title: `${base}${where}${variation ? ` · ${variation}` : ""}`, details };
  }
  if (action === "adjust_stock") {
    // Who made it is the row's user; the summary names the change, its reason and the level after.
    const scale = (isUnitScale(s.unitScale) ? s.unitScale : 1) as UnitScale;
    const unit = String(s.baseUnit ?? "");
    const change = Number(s.quantity);
    const reason = ADJUST_REASON_LABELS[s.reason as AdjustReason] ?? String(s.reason);
    details.push(
      `${change > 0 ? "+" : ""}${formatQuantity(change, scale, unit)} (${reason}), ${formatQuantity(Number(s.onHand), scale, unit)} on hand after`,
    );
    if (typeof s.note === "string" && s.note) details.push(`Note: ${s.note}`);
    return { title: `${base}${where}${variation ? ` · ${variation}` : ""}`, details };
  }
  if (before && after) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      details.push(`${label(key)}: ${shown(key, before[key], vendorNames)} → ${shown(key, after[key], vendorNames)}`);
    }
  }
  const name = action.endsWith("_variation") ? s.name : null;
  return { title: `${base}${typeof name === "string" ? `: ${name}` : ""}`, details };
}
