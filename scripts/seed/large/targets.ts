// The names the bench and the query-plan test look things up by in the large data set.

/** Who signs in on it (password DEMO_PASSWORD of scripts/seed/demo). */
export const LARGE_USERS = {
  owner: { email: "owner@large.clinic", role: "organization owner (organization mode)" },
  manager: { email: "manager@large.clinic", role: "MANAGER at L01" },
  staff: { email: "staff@large.clinic", role: "STAFF at L01" },
} as const;

export const LARGE_TARGET_PRODUCT = "Benchmark Botulinum Toxin";
export const LARGE_TARGET_VARIATION = "100 U vial";

/**
 * Named things of the data set: the product and variation (search them by "Benchmark"), the lot
 * with exactly 500 usage entries spread over every location (recalled, in force), a lot recalled
 * and lifted, a lot whose vials are quarantined, and the vial in use at L01 (by its label code,
 * read from the database: `SELECT label_code FROM items WHERE lot = 'LOT-INUSE'`).
 */
export const LARGE_TARGETS = {
  product: LARGE_TARGET_PRODUCT,
  productSearch: "Benchmark",
  variation: LARGE_TARGET_VARIATION,
  /** Exactly 500 usage entries, spread over every location; recalled (in force). */
  lotWith500Uses: "LOT-R500",
  usesOfLot: 500,
  /** Recalled and in force: its sealed vials are quarantined at every location. */
  recalledLot: "LOT-RECALLED",
  /** Recalled, then lifted. */
  liftedLot: "LOT-LIFTED",
  /** One vial in use at L01, with a live deadline. */
  inUseLot: "LOT-INUSE",
  inUseLocation: "L01",
} as const;
