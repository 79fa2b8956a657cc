// A variation's reconciliation from its sums over the period (read in SQL by ./read.server), in base
// units: pure arithmetic, browser-safe. The variance is split so that, exactly,
//   recipe drift + waste + unexplained loss = variance = actual − expected:
// - recipe drift: units drawn for treatments (USE) − what the services sold should have used;
// - waste: units wasted (WASTE: left at the Use-By Deadline or in a vial emptied by hand), discarded
//   with a reason of waste (DISCARD: expired, damaged, contaminated, recalled, other), and bulk
//   adjusted out as damaged or expired (ADJUST);
// - unexplained loss: stock gone with no record of why: count losses (COUNT out), vials missing in a
//   count or lost in transit (DISCARD), other bulk adjustments out (ADJUST: count correction,
//   donated, other), and retail sold beyond what the ledger booked (SALE − packages sold).

/** Sums over the period, base units; "out" figures are positive when stock left. */
export interface ReconciliationSums {
  /** Σ services sold (net: refunds negative) × their recipe's quantity of the variation. */
  expectedServices: number;
  /** Σ retail packages sold (net) × base units a package. */
  expectedRetail: number;
  /** USE: drawn for treatments. */
  drawn: number;
  /** WASTE + DISCARD of a waste reason + ADJUST out as damaged or expired. */
  wasted: number;
  /** DISCARD missing_in_count / lost_in_transit. */
  missing: number;
  /** ADJUST out of another reason. */
  adjustedOut: number;
  /** COUNT out. */
  countedOut: number;
  /** SALE (a refund's movement returns stock: negative here). */
  sold: number;
  /** Σ every movement of the period, signed (receipts and transfers too). */
  change: number;
}

export const NO_SUMS: ReconciliationSums = {
  expectedServices: 0,
  expectedRetail: 0,
  drawn: 0,
  wasted: 0,
  missing: 0,
  adjustedOut: 0,
  countedOut: 0,
  sold: 0,
  change: 0,
};

export interface ReconciliationFigures {
  expected: number;
  actual: number;
  change: number;
  variance: { units: number; percent: number | null; cents: number };
  split: { recipeDrift: number; waste: number; unexplained: number };
  flagged: boolean;
}

/** Expected usage: services sold × recipes, and retail packages sold. */
export function expectedOf(s: ReconciliationSums): number {
  return s.expectedServices + s.expectedRetail;
}

/** Actual usage: drawn, wasted and discarded, adjusted and counted out, sold. */
export function actualOf(s: ReconciliationSums): number {
  return s.drawn + s.wasted + s.missing + s.adjustedOut + s.countedOut + s.sold;
}

/** The split of the variance; its three parts sum to actual − expected, exactly. */
export function splitOf(s: ReconciliationSums): ReconciliationFigures["split"] {
  return {
    recipeDrift: s.drawn - s.expectedServices,
    waste: s.wasted,
    unexplained: s.countedOut + s.adjustedOut + s.missing + (s.sold - s.expectedRetail),
  };
}

/**
 * The figures of one variation. `costCents` is a package's cost (null: unknown, valued at 0),
 * `unitsPerPackage` its base units. Percent is of the expected usage (null when none was expected).
 * Flagged: |percent| over `threshold`; with nothing expected, any usage of a variation that sales
 * should explain (`tracked`: in a recipe or sold as retail) is flagged too.
 */
export function figuresOf(
  s: ReconciliationSums,
  value: { costCents: number | null; unitsPerPackage: number },
  threshold: number,
  tracked: boolean,
): ReconciliationFigures {
  const expected = expectedOf(s);
  const actual = actualOf(s);
  const units = actual - expected;
  const percent = expected === 0 ? null : Math.round((units / expected) * 1000) / 10;
  const cents = Math.round((units * (value.costCents ?? 0)) / value.unitsPerPackage);
  const flagged = expected === 0 ? tracked && units !== 0 : Math.abs(units) * 100 > threshold * Math.abs(expected);
  return { expected, actual, change: s.change, variance: { units, percent, cents }, split: splitOf(s), flagged };
}
