// The reorder rule (issue 23.3, ADR 0032), apart from the database so it can be tested on its own
// and by property: from a par level's figures (packages) and the stock's (base units), how many
// packages to order and why, in one line. Browser-safe: no database code here.

/** The days of use a usage rate is read over (the transfers' balancing reads the same window). */
export const REORDER_USAGE_DAYS = 90;
/** The latest dated receipts of a variation at a location its typical shelf life is the median of. */
export const SHELF_LIFE_LOTS = 5;

export interface ReorderFigures {
  /** Packages (par levels are set in packages). */
  par: number;
  reorderPoint: number;
  max: number | null;
  /** Base units in one package. */
  unitsPerPackage: number;
  /** Base units: usable on hand, outstanding on submitted orders, on pending lines in transit here. */
  onHand: number;
  onOrder: number;
  inTransit: number;
  /** Base units a day over the last REORDER_USAGE_DAYS days. */
  dailyUsage: number;
  /** Typical days between a delivery and its expiry here; null when unknown (no dated receipts). */
  shelfLifeDays: number | null;
  /** The variation's name ("100 U vial", "Box of 50"), for the package word. */
  variationName: string;
  tracking: "serialized" | "bulk";
  /** The number of a draft order of this location that already has the variation, if any. */
  draftNumber: string | null;
}

export interface ReorderAnswer {
  /** Whether the location should order: its position is at or under its reorder point. */
  due: boolean;
  /** Whole packages to order (0 when capped to nothing). */
  packages: number;
  /** Packages that would reach max (par without one), before any cap. */
  wanted: number;
  /** The shelf-life cap in packages when it cut the order; else null. */
  cappedAt: number | null;
  why: string;
}

const WORDS = ["vial", "syringe", "kit", "ampoule", "cartridge", "pen", "box", "pack", "case", "bag", "bottle", "tube"];

/**
 * What one package of a variation is called, by its name: "100 U vial" → vial, "Box of 50" → box,
 * "1 mL syringe" → syringe; a serialized product's unknown package is a vial, a bulk one's a package.
 */
export function packageWord(variationName: string, tracking: "serialized" | "bulk", n: number): string {
  const words = variationName.toLowerCase().match(/[a-z]+/g) ?? [];
  const first = words[0];
  const last = words[words.length - 1];
  const word =
    (first && WORDS.includes(first) && words[1] === "of" ? first : null) ??
    (last && WORDS.includes(last) ? last : null) ??
    (tracking === "serialized" ? "vial" : "package");
  if (n === 1) return word;
  return /(x|s|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;
}

// One formatter each, made once: toLocaleString builds a formatter on every call, and a suggestion's
// line formats half a dozen numbers (a location's 150 lines cost milliseconds that way).
const TO_ONE_DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
const TO_SIX_DECIMALS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/** A count of packages as a person reads it: whole, or to one decimal ("2.5"). */
export function packagesText(units: number, unitsPerPackage: number): string {
  const n = units / unitsPerPackage;
  return TO_ONE_DECIMAL.format(Math.round(n * 10) / 10);
}

/** A rate in packages a day: one decimal from 1 up, two significant digits under it ("0.9", "0.03"). */
export function rateText(unitsADay: number, unitsPerPackage: number): string {
  const n = unitsADay / unitsPerPackage;
  if (n === 0) return "0";
  if (n >= 1) return TO_ONE_DECIMAL.format(Math.round(n * 10) / 10);
  return TO_SIX_DECIMALS.format(Number(n.toPrecision(2)));
}

/** Whole packages the location uses before a delivery expires: floor(rate × shelf life), in packages. */
export function shelfLifeCap(dailyUsage: number, shelfLifeDays: number, unitsPerPackage: number): number {
  return Math.max(0, Math.floor((dailyUsage * shelfLifeDays) / unitsPerPackage + 1e-9));
}

const plural = (n: number, one: string, many: string) => `${TO_ONE_DECIMAL.format(n)} ${n === 1 ? one : many}`;

/**
 * The rule: a par level (par above 0) is due when on hand + on order + in transit is at or under
 * its reorder point (the stock levels' "Reorder" status, judged on the same usable stock); it orders
 * the whole packages that bring that position to max (par when no max is set), rounded up; where the
 * variation has a known shelf life, never more than the location uses before a delivery expires at
 * its rate (a rate of 0 uses nothing before then: the cap is 0, and the line says so).
 */
export function reorder(f: ReorderFigures): ReorderAnswer {
  const upp = f.unitsPerPackage;
  const position = f.onHand + f.onOrder + f.inTransit;
  const point = f.reorderPoint * upp;
  const due = f.par > 0 && position <= point;
  const target = f.max ?? f.par;
  const wanted = due ? Math.max(0, Math.ceil((target * upp - position) / upp)) : 0;
  const cap = f.shelfLifeDays === null || f.dailyUsage <= 0 ? null : shelfLifeCap(f.dailyUsage, f.shelfLifeDays, upp);
  const capped = cap !== null && wanted > cap;
  const packages = capped ? (cap as number) : wanted;

  const p = (units: number) => packagesText(units, upp);
  const rate = rateText(f.dailyUsage, upp);
  const sum = [`on hand ${p(f.onHand)}`, `on order ${p(f.onOrder)}`];
  if (f.inTransit > 0) sum.push(`in transit ${p(f.inTransit)}`);
  const compare = position < point ? "<" : position === point ? "=" : ">";
  const parts = [`${sum.join(" + ")} ${compare} reorder point ${f.reorderPoint}`];
  parts.push(
    f.dailyUsage > 0
      ? `${plural(Math.floor(position / f.dailyUsage), "day", "days")} of cover at ${rate} a day`
      : `no use in ${REORDER_USAGE_DAYS} days`,
  );
  const reach = `${f.max === null ? "par" : "max"} ${target}`;
  if (!due) parts.push("nothing to order");
  else if (capped)
    parts.push(
      `capped at ${plural(packages, packageWord(f.variationName, f.tracking, 1), packageWord(f.variationName, f.tracking, 2))}: ${plural(f.shelfLifeDays ?? 0, "day", "days")} of shelf life at ${rate} a day, not ${wanted} to reach ${reach}`,
    );
  else if (wanted === 0) parts.push(`${reach} is reached already`);
  else parts.push(`order ${wanted} ${packageWord(f.variationName, f.tracking, wanted)} to reach ${reach}`);
  if (f.draftNumber) parts.push(`on draft ${f.draftNumber}`);
  return { due, packages, wanted, cappedAt: capped ? packages : null, why: parts.join("; ") };
}

/** The median of some numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
