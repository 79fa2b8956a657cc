// The large data set's par levels: what each location wants on the shelf of the variations it
// stocks, set by its managers over the last two months (set_par_level rows as the par levels' verb
// writes them). Set against what is there now: most levels are met, some are at or under their
// reorder point and some above their max, at different locations for the same variations, so the
// dashboard's par status and the transfers' balancing suggestions have work on the large set.
import type { Catalog } from "./catalog";
import type { SeedLedger } from "./ledger";
import type { Random } from "./random";
import type { Writer } from "./writer";

const DAY = 24 * 60 * 60 * 1000;

/** Variations given par levels, at every location that stocks them. */
const VARIATIONS_WITH_PAR = 600;

export function writeParLevels(w: Writer, random: Random, catalog: Catalog, now: number, ledger: SeedLedger): number {
  const insert = w.insert("par_levels", "location_id variation_id par reorder_point max updated_at");
  const levels = w.db
    .prepare(
      `SELECT s.location_id AS locationId, s.variation_id AS variationId, s.on_hand AS onHand,
        v.units_per_package AS upp, v.name AS variation, p.id AS productId, p.name AS product
      FROM stock_levels AS s JOIN product_variations AS v ON v.id = s.variation_id
      JOIN products AS p ON p.id = v.product_id
      WHERE p.active = 1 AND v.active = 1
      ORDER BY s.variation_id, s.location_id`,
    )
    .all() as {
    locationId: string;
    variationId: string;
    onHand: number;
    upp: number;
    variation: string;
    productId: string;
    product: string;
  }[];
  const byVariation = new Map<string, typeof levels>();
  for (const level of levels) {
    const list = byVariation.get(level.variationId);
    if (list) list.push(level);
    else byVariation.set(level.variationId, [level]);
  }
  // Variations stocked at several locations, in a seeded order.
  const shared = [...byVariation.values()].filter((list) => list.length >= 2);
  const chosen = shared
    .map((list) => ({ list, key: random.float() }))
    .sort((a, b) => a.key - b.key)
    .slice(0, VARIATIONS_WITH_PAR)
    .map((x) => x.list);
  const codes = new Map(catalog.locations.map((l) => [l.id, l]));
  let written = 0;
  for (const list of chosen) {
    for (const level of list) {
      const location = codes.get(level.locationId);
      if (!location) continue;
      const have = Math.max(0, Math.floor(level.onHand / level.upp));
      const r = random.float();
      let par: number;
      let reorderPoint: number;
      let max: number | null;
      if (r < 0.25 && have >= 0) {
        // At or under the reorder point: order now (or be sent some).
        reorderPoint = have + random.int(1, 3);
        par = reorderPoint + random.int(1, 3);
        max = par + random.int(1, 4);
      } else if (r < 0.5 && have >= 4) {
        // Above its max: stock to spare.
        max = Math.max(1, have - random.int(2, Math.min(6, have - 1)));
        par = Math.max(1, max - random.int(0, 2));
        reorderPoint = Math.max(0, par - random.int(1, 2));
      } else {
        par = Math.max(1, have - random.int(0, 1));
        reorderPoint = Math.max(0, par - random.int(1, 3));
        max = random.chance(0.7) ? par + random.int(1, 5) : null;
      }
      const at = now - random.int(1, 60) * DAY;
      insert(level.locationId, level.variationId, par, reorderPoint, max, at);
      const userId = random.pick(location.users);
      ledger.log(at, userId, level.locationId, "set_par_level", "variation", level.variationId, {
        productId: level.productId,
        product: level.product,
        variation: level.variation,
        location: location.code,
        before: null,
        after: { par, reorderPoint, max },
      });
      written++;
    }
  }
  return written;
}
