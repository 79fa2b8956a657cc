// How much the large data set holds at scale 1 (issue #12), and the rows at another scale.

export const LARGE_SIZES = {
  locations: 10,
  products: 5_000,
  variations: 15_000,
  vendors: 60,
  services: 300,
  users: 200,
  items: 300_000,
  stockMovements: 2_000_000,
  usageEntries: 1_000_000,
  /** Days of history the receipts and draws spread over. */
  historyDays: 730,
} as const;

export type Sizes = { -readonly [K in keyof typeof LARGE_SIZES]: number };

/** The sizes at `scale`: at least one of each, and all ten locations from scale 0.01 (else two). */
export function sizesAt(scale: number): Sizes {
  const sized = {} as Sizes;
  for (const [name, rows] of Object.entries(LARGE_SIZES) as [keyof Sizes, number][]) {
    sized[name] = Math.max(1, Math.round(rows * scale));
  }
  sized.locations = scale >= 0.01 ? LARGE_SIZES.locations : 2;
  sized.historyDays = LARGE_SIZES.historyDays;
  // Two people at least at every location: a controlled waste needs a witness besides the actor.
  sized.users = Math.max(sized.users, sized.locations * 2);
  // Three variations a product, so every product has some.
  sized.variations = Math.max(sized.products * 3, sized.variations);
  return sized;
}
